package experiment

import (
	"errors"
	"testing"
)

func TestOnlyOneRefusesAnyOtherCount(t *testing.T) {
	parse := func(s string) error {
		if s != "fast" && s != "slow" {
			return errors.New("unknown reader " + s)
		}
		return nil
	}
	for _, c := range []struct {
		name   string
		values []string
		parse  func(string) error
		want   string
	}{
		{"one", []string{"slow"}, parse, ""},
		{"two", []string{"fast", "slow"}, parse, "--reader fast,slow: one run has one reader"},
		{"none", nil, parse, "--reader : one run has one reader"},
		{"refused", []string{"quick"}, parse, "--reader: unknown reader quick"},
		{"no parse", []string{"quick"}, nil, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := OnlyOne("reader", c.values, "one reader", c.parse)
			var usage UsageError
			switch {
			case c.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case c.want != "" && (!errors.As(err, &usage) || err.Error() != c.want):
				t.Errorf("%v, want the usage error %q", err, c.want)
			}
		})
	}
}

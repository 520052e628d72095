package experiment

import (
	"errors"
	"flag"
	"slices"
	"strings"
)

// OneOf is a flag whose value is one of choices, refused as it is parsed otherwise
// ("want shared or split"): a setting of a few named kinds.
func OneOf(p *string, choices ...string) flag.Value { return oneOf{p, choices} }

type oneOf struct {
	v       *string
	choices []string
}

func (o oneOf) String() string {
	if o.v == nil {
		return ""
	}
	return *o.v
}

func (o oneOf) Set(s string) error {
	if !slices.Contains(o.choices, s) {
		n := len(o.choices)
		if n < 2 {
			return errors.New("want " + strings.Join(o.choices, ""))
		}
		return errors.New("want " + strings.Join(o.choices[:n-1], ", ") + " or " + o.choices[n-1])
	}
	*o.v = s
	return nil
}

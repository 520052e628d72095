package experiment

import (
	"errors"
	"testing"
)

func TestFirstErrorSaysTheFirstProblem(t *testing.T) {
	first, second := errors.New("first"), errors.New("second")
	if err := FirstError(nil, first, nil, second); err != first {
		t.Errorf("%v, want the first", err)
	}
	if err := FirstError(Within("trials", 5, 2, 10, ""), UsageIf(false, "never")); err != nil {
		t.Errorf("%v, want none", err)
	}
}

func TestUsageIfIsAUsageErrorWhenBad(t *testing.T) {
	var u UsageError
	if err := UsageIf(true, "--path %q: want an absolute path", "x"); !errors.As(err, &u) || err.Error() != `--path "x": want an absolute path` {
		t.Errorf("%v", err)
	}
}

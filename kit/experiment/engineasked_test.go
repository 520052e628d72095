package experiment

import (
	"errors"
	"testing"

	"github.com/logbench/logbench/kit/contract"
)

func TestExitsText(t *testing.T) {
	if have := ExitsText([]contract.Exit{{Role: "api", ExitCode: 137, OOMKilled: true}, {Role: "load"}}); have != "api:137:oom load:0" {
		t.Errorf("have %q", have)
	}
}

// TestImagesOfChoice: every value's images, one value's, or a usage error naming them.
func TestImagesOfChoice(t *testing.T) {
	of := func(vs []string) []string { return vs }
	if have, err := ImagesOfChoice("all", "measures", []string{"a", "b"}, of); err != nil || len(have) != 2 {
		t.Errorf("all: %v %v", have, err)
	}
	if have, err := ImagesOfChoice("b", "measures", []string{"a", "b"}, of); err != nil || len(have) != 1 || have[0] != "b" {
		t.Errorf("b: %v %v", have, err)
	}
	var u UsageError
	if _, err := ImagesOfChoice("c", "x measures", []string{"a", "b"}, of); !errors.As(err, &u) || u.Msg != `--api "c": x measures a, b, or all` {
		t.Errorf("c: %v", err)
	}
}

func TestWithin(t *testing.T) {
	if err := Within("trials", 2, 2, 1000, ""); err != nil {
		t.Error(err)
	}
	var u UsageError
	if err := Within("lines", int64(999), 1000, 10_000_000, " lines per trial"); !errors.As(err, &u) || u.Msg != "--lines 999: want 1000 to 10000000 lines per trial" {
		t.Errorf("%v", err)
	}
}

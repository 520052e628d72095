package experiment

import (
	"errors"
	"flag"
	"strings"
	"testing"
)

type flagged struct {
	N     int
	D     float64
	Names []string
	On    bool
}

func (f *flagged) flags() Flags {
	return Flags{
		IntFlag(&f.N, "n", 1, 10, "a count"),
		SecondsFlag(&f.D, "d", 1, 60, "a duration"),
		NamesFlag(&f.Names, "names", []string{"a", "b"}, "names"),
		BoolFlag(&f.On, "on", "a switch"),
		Rule(func() error {
			if f.On && f.N > 5 {
				return errors.New("--on with --n over 5")
			}
			return nil
		}),
	}
}

// TestFlagsBindAndCheckFromOneList: the flags a list declares set their fields, and its
// rules refuse the first problem in the list's order, flag and rule alike.
func TestFlagsBindAndCheckFromOneList(t *testing.T) {
	f := &flagged{N: 3, D: 5, Names: []string{"a"}}
	fs := FlagSet("t", paramsOf(f.flags()))
	if err := fs.Parse([]string{"-n", "7", "-d", "30s", "-names", "b,a", "-on"}); err != nil {
		t.Fatal(err)
	}
	if f.N != 7 || f.D != 30 || strings.Join(f.Names, ",") != "b,a" || !f.On {
		t.Fatalf("parsed %+v", f)
	}
	if err := f.flags().Check(); err == nil || err.Error() != "--on with --n over 5" {
		t.Fatalf("the rule: %v", err)
	}
	f.N, f.D, f.Names = 0, 0, []string{"c"}
	for _, want := range []string{"--n 0: want 1 to 10", "--d 0s: want 1s to 1m0s", `--names: unknown "c" (known: a, b)`} {
		err := f.flags().Check()
		if err == nil || err.Error() != want {
			t.Fatalf("first problem %v, want %q", err, want)
		}
		switch {
		case f.N == 0:
			f.N = 1
		case f.D == 0:
			f.D = 1
		}
	}
	f.Names = []string{"a"}
	if err := f.flags().Check(); err != nil {
		t.Fatalf("every value in range: %v", err)
	}
}

// paramsOf is a table as Params.
type paramsOf Flags

func (p paramsOf) Bind(fs *flag.FlagSet) { Flags(p).Bind(fs) }
func (p paramsOf) Check() error          { return Flags(p).Check() }

func TestUsageIfIsAUsageErrorWhenBad(t *testing.T) {
	var u UsageError
	if err := UsageIf(true, "--path %q: want an absolute path", "x"); !errors.As(err, &u) || err.Error() != `--path "x": want an absolute path` {
		t.Errorf("%v", err)
	}
	if err := UsageIf(false, "never"); err != nil {
		t.Errorf("%v, want none", err)
	}
}

// TestIntFlagOfInt64Says: an int64 count binds as the flag package's int64 flag, and its
// refusal says what follows the range.
func TestIntFlagOfInt64Says(t *testing.T) {
	n := int64(5)
	fl := Flags{IntFlagSaying(&n, "lines", 2, 1<<40, " lines per trial", "lines")}
	fs := FlagSet("t", paramsOf(fl))
	if err := fs.Parse([]string{"-lines", "1099511627776"}); err != nil || n != 1<<40 {
		t.Fatalf("parsed %d, %v", n, err)
	}
	if got := fs.Lookup("lines").DefValue; got != "5" {
		t.Fatalf("default %q", got)
	}
	n = 1
	if err := fl.Check(); err == nil || err.Error() != "--lines 1: want 2 to 1099511627776 lines per trial" {
		t.Fatalf("refusal %v", err)
	}
}

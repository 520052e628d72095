package experiment_test

import (
	"flag"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/logbench/logbench/kit/experiment"
)

// Each use of a repeated flag adds to its list whole, commas and all, and the flag
// says it is repeatable and shows its list joined.
func TestRepeatedAddsEachUseWhole(t *testing.T) {
	var got []string
	v := experiment.Repeated(&got, func(l []string, s string) []string { return append(l, s) }, strings.ToUpper, " ")
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Var(v, "config", "")
	if err := fs.Parse([]string{"--config", "a:X=1,Y=2", "--config", "b"}); err != nil {
		t.Fatal(err)
	}
	if want := []string{"a:X=1,Y=2", "b"}; !slices.Equal(got, want) {
		t.Errorf("%q, want %q", got, want)
	}
	if s := v.String(); s != "A:X=1,Y=2 B" {
		t.Errorf("String %q", s)
	}
	if r, ok := v.(experiment.RepeatableValue); !ok || !r.IsRepeatable() {
		t.Error("not repeatable")
	}
}

// A switch sets its field to one setting given, to the other given false, and refuses
// what is not a boolean.
func TestSwitchToSetsOneOfTwoSettings(t *testing.T) {
	user := "65532"
	v := experiment.SwitchTo(&user, "", "65532")
	if v.String() != "false" {
		t.Errorf("String %q at the off setting", v.String())
	}
	if err := v.Set("true"); err != nil || user != "" || v.String() != "true" {
		t.Errorf("set: %q %v %q", user, err, v.String())
	}
	if err := v.Set("false"); err != nil || user != "65532" {
		t.Errorf("unset: %q %v", user, err)
	}
	if err := v.Set("maybe"); err == nil || err.Error() != "want true or false" {
		t.Errorf("maybe: %v", err)
	}
	if b, ok := v.(interface{ IsBoolFlag() bool }); !ok || !b.IsBoolFlag() {
		t.Error("not a switch")
	}
}

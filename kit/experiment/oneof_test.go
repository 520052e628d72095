package experiment

import (
	"flag"
	"io"
	"strings"
	"testing"
)

// A flag of a few kinds takes one of them, and refuses anything else naming them.
func TestOneOfTakesOneOfItsChoices(t *testing.T) {
	var v string
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Var(OneOf(&v, "shared", "split"), "topology", "")
	if err := fs.Parse([]string{"--topology", "split"}); err != nil || v != "split" {
		t.Fatalf("split: %v, %q", err, v)
	}
	if err := fs.Parse([]string{"--topology", "both"}); err == nil || !strings.Contains(err.Error(), "want shared or split") || v != "split" {
		t.Fatalf("both: %v, %q", err, v)
	}
}

// Package verify holds what every experiment's verification shares: a problem named
// precisely enough to find by hand, the result and its summary, the check of a bundle's
// entries and checksums, of its manifest's version and of its data package, and the one
// test of whether a recomputed figure equals the one written. Each experiment checks its
// own rows and figures with these (kit/experiments/<name>).
package verify

import (
	"fmt"
	"strings"

	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/printable"
)

// Problem is one way a bundle is not what it claims, precise enough to find by hand.
type Problem struct {
	File   string // the file at fault (or the entry, for an extra one)
	Line   int    // 1-based line in File, the header being line 1; 0: not about one line
	Key    string // the row's run or condition, when it has one
	Column string // the column or field at fault
	Have   string // the value found ...
	Want   string // ... and the value it must have, when the problem is a value
	Msg    string // what is wrong, or where Want comes from
}

// String gives the problem on one line:
// `runs.csv line 3 (run r1): p99_ms: have 5, want 4 (recomputed from requests.csv lines 2-5)`.
func (p Problem) String() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		fmt.Fprintf(&b, " line %d", p.Line)
	}
	if p.Key != "" {
		fmt.Fprintf(&b, " (%s)", p.Key)
	}
	b.WriteString(": ")
	if p.Column != "" {
		b.WriteString(p.Column + ": ")
	}
	switch {
	case p.Have != "" || p.Want != "":
		fmt.Fprintf(&b, "have %s, want %s", p.Have, p.Want)
		if p.Msg != "" {
			fmt.Fprintf(&b, " (%s)", p.Msg)
		}
	default:
		b.WriteString(p.Msg)
	}
	// Whatever a hostile file put in a name or a value, a problem stays one short line.
	return printable.String(b.String())
}

// Counts say how much was checked, in the terms every experiment shares.
type Counts struct {
	Files      int // files whose SHA-256 matched SHA256SUMS
	Runs       int // rows of runs, failed and redone ones too
	Verified   int // runs marked verified
	Superseded int // runs redone: kept, and in no condition's figures
	// Trusted are the verified runs that count (not superseded) whose instrument the
	// experiment can vouch for (fifo-stall: the send lag kept within its bound);
	// -1 when the experiment has no such test or the bundle's format did not record it.
	Trusted    int
	Noisy      int // verified runs that count, measured on a noisy host
	Conditions int
}

// Result is a bundle's verification, by whichever experiment wrote the bundle.
type Result struct {
	Name string
	// Experiment names the experiment that checked the bundle.
	Experiment string
	// Common is what every bundle's manifest says (engine, images, emulated, runs); nil
	// when the manifest could not be read.
	Common *bundle.Common
	// Own is the bundle as its files say, in its experiment's own type, for its compare
	// and report; nil when the files could not be read far enough to say.
	Own any
	// Described says, in the summary's words, what the experiment checked beyond the
	// counts ("6720 requests, 126 container rows, 14 conditions").
	Described string
	// Trust says per condition how far its figures can be trusted, one line each.
	Trust []string
	// Weakened names, one line each, what weakens a figure even in a bundle that
	// verifies: noisy runs, disagreement with an independent tool, throttled trials,
	// wide intervals, and what the bundle's format did not record.
	Weakened []string
	// Problems make the bundle wrong: anything but none fails verification.
	Problems []Problem
	// Notes are differences that do not: the model's predictions in conditions.csv
	// differ from this kit's model, which changes between kit versions.
	Notes  []Problem
	Counts Counts
	// Speed is each run's speed probe over the bundle's median (Probes), by run ID: a
	// rate divided by it, or a time multiplied by it, is what the run would have shown
	// on the bundle's median host.
	Speed map[string]float64
}

// OwnOf is the bundle res read, in its experiment's own type B, for that experiment's
// compare and report; an error names the bundle when res is no verification of that
// experiment (named experiment) or its files could not be read far enough.
func OwnOf[B any](res *Result, experiment string) (*B, error) {
	if b, ok := res.Own.(*B); ok && b != nil {
		return b, nil
	}
	return nil, fmt.Errorf("%s: not verified as a bundle of the %s experiment", res.Name, experiment)
}

// OK says the bundle has no problem.
func (r *Result) OK() bool { return len(r.Problems) == 0 }

// Problem adds a problem.
func (r *Result) Problem(p Problem) { r.Problems = append(r.Problems, p) }

// Summary says in one line what was checked, then one line per condition (Trust), then
// what weakens the figures (Weakened).
func (r *Result) Summary() string {
	c := r.Counts
	runs := fmt.Sprintf("%d runs (%d verified", c.Runs, c.Verified)
	if c.Trusted >= 0 {
		runs += fmt.Sprintf(", %d trusted", c.Trusted)
	}
	runs += fmt.Sprintf(", %d redone, %d on a noisy host), %d conditions", c.Superseded, c.Noisy, c.Conditions)
	s := fmt.Sprintf("%s: %d files match %s; %s: %s", Printable(r.Name), c.Files, bundle.SumsFile, r.Experiment, runs)
	if r.Described != "" {
		s += ", " + r.Described
	}
	if r.OK() {
		s = "OK: " + s + "; every aggregate recomputed and equal"
	} else {
		s = fmt.Sprintf("FAILED: %s; %d problems", s, len(r.Problems))
	}
	for _, line := range r.Trust {
		s += "\n  " + Printable(line)
	}
	for _, line := range r.Weakened {
		s += "\n  weakened: " + Printable(line)
	}
	return s
}

// Printable shows control characters of a string from a bundle instead of sending them
// to a terminal (an escape sequence in a mode's or a host's name could clear the
// screen), on one line.
func Printable(s string) string { return printable.Escape(s, false) }

package verify

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/logbench/logbench/kit/offline/bundle"
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
	// Whatever a hostile file put in a name or a value, a problem stays one line.
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, b.String())
}

// Counts say how much was checked.
type Counts struct {
	Files      int // files whose SHA-256 matched SHA256SUMS
	Runs       int
	Verified   int // runs marked verified
	Trusted    int // verified runs that count (not superseded) whose send lag kept within the bound
	Superseded int // runs redone: kept, and in no condition's figures
	Noisy      int // verified runs that count, measured on a noisy host
	Requests   int
	Containers int
	Timeline   int // timeline samples
	Conditions int
}

// Result is a bundle's verification, by whichever experiment wrote the bundle.
type Result struct {
	Name string
	// Common is what every bundle's manifest says (engine, images, emulated, runs); nil
	// when the manifest could not be read.
	Common *bundle.Common
	// Own is the bundle as its files say, in its experiment's own type, for its compare
	// and report; nil when the files could not be read far enough to say.
	Own any
	// Bundle is Own for the fifo-stall experiment, with Conditions as in conditions.csv.
	Bundle *bundle.Bundle
	// Described is what an experiment other than fifo-stall says it checked, in the
	// summary's words ("12 runs (12 verified), 48 per-second rows, 4 conditions").
	Described string
	// Problems make the bundle wrong: anything but none fails verification.
	Problems []Problem
	// Notes are differences that do not: the model's predictions in conditions.csv
	// differ from this kit's model, which changes between kit versions.
	Notes  []Problem
	Counts Counts
}

// OK says the bundle has no problem.
func (r *Result) OK() bool { return len(r.Problems) == 0 }

// Summary says in one line what was checked and how far the runs can be trusted, then
// one line per condition (Trust).
func (r *Result) Summary() string {
	c := r.Counts
	s := fmt.Sprintf("%s: %d files match %s; %d runs (%d verified, %d lag-trusted, %d redone, %d on a noisy host), %d requests, %d container rows, %d timeline samples, %d conditions",
		r.Name, c.Files, bundle.SumsFile, c.Runs, c.Verified, c.Trusted, c.Superseded, c.Noisy, c.Requests, c.Containers, c.Timeline, c.Conditions)
	if r.Described != "" {
		s = fmt.Sprintf("%s: %d files match %s; %s", r.Name, c.Files, bundle.SumsFile, r.Described)
	}
	if r.OK() {
		s = "OK: " + s + "; every aggregate recomputed and equal"
	} else {
		s = fmt.Sprintf("FAILED: %s; %d problems", s, len(r.Problems))
	}
	// Then how far each condition can be trusted, one indented line each.
	for _, line := range r.Trust() {
		s += "\n  " + line
	}
	return s
}

// Trust says per condition how far its figures can be trusted, one line each: runs
// verified and lag-trusted of those that count, runs redone, runs on a noisy host, and
// whether the p99 is resolved (bundle.Resolved), as conditions.csv has them:
// "go/json-sync/slow: 3/3 verified, 2/3 lag-trusted, 1 redone; p99 4.1 ms not resolved (under 5 x the send-lag p99 of 0.9 ms)".
func (r *Result) Trust() []string {
	if r.Bundle == nil {
		return nil
	}
	var out []string
	for _, c := range r.Bundle.Conditions {
		out = append(out, TrustLine(c))
	}
	return out
}

// TrustLine is one condition's line of Trust.
func TrustLine(c bundle.ConditionRow) string {
	s := fmt.Sprintf("%s/%s/%s: %d/%d verified, %d/%d lag-trusted", c.API, c.Mode, c.Reader, c.RunsVerified, c.Runs, c.RunsTrusted, c.Runs)
	if c.RunsSuperseded > 0 {
		s += fmt.Sprintf(", %d redone", c.RunsSuperseded)
	}
	if c.RunsNoisy > 0 {
		s += fmt.Sprintf(", %d on a noisy host", c.RunsNoisy)
	}
	if c.RunsTrusted < c.Runs {
		s += "; STILL UNTRUSTED RUNS"
	}
	switch p99, lag := float64(c.P99Ms), float64(c.SendLagP99MaxMs); {
	case math.IsNaN(p99):
	case c.P99Resolved:
		s += fmt.Sprintf("; p99 %s ms resolved (send-lag p99 at most %s ms)", number3(p99), number3(lag))
	default:
		s += fmt.Sprintf("; p99 %s ms NOT resolved (under %g x the send-lag p99 of %s ms)", number3(p99), bundle.ResolutionFactor, number3(lag))
	}
	return s
}

func number3(f float64) string {
	if math.IsNaN(f) {
		return "-"
	}
	return strconv.FormatFloat(f, 'g', 3, 64)
}

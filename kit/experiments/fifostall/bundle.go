package fifostall

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/results/reference"
)

func measured(run experiment.Run) bool {
	var res contract.Result
	return run.Pod.Result != nil && json.Unmarshal(run.Pod.Result, &res) == nil && res.LoadStart != 0
}

// Record is the run's record: what the conductor measured, and why it is not data if
// it is not.
func Record(run experiment.Run, maxLag float64) RunRecord {
	c := condOf(run.Condition)
	rec := RunRecord{RunID: run.ID, API: c.API, Mode: contract.LogMode(c.Mode), Reader: c.Reader, Round: run.Round, Position: run.Position, Attempt: run.Attempt,
		Started: run.Started, Exits: run.Pod.Exits, Wall: run.Wall, MaxSendLagP99: durationMs(maxLag)}
	resultFailure := ""
	if run.Pod.Result != nil {
		if err := json.Unmarshal(run.Pod.Result, &rec.Result); err != nil {
			resultFailure = "unreadable result: " + err.Error()
		} else {
			resultFailure = rec.Result.Failure
		}
	}
	rec.Failure = experiment.JoinFailures(run.Failure, resultFailure)
	return rec
}

// condOf is a run's condition as this experiment names it, whether a plan of the
// table-driven kit's (its cells) or the calibration's made it.
func condOf(c experiment.Condition) Cond {
	if cell, ok := c.(tabular.Cell); ok && len(cell) == 3 {
		return Cond{API: cell[0], Mode: cell[1], Reader: cell[2]}
	}
	cond, _ := c.(Cond)
	return cond
}

// summary is every condition's figures beside the published ones and the model's, and
// how far the runs can be trusted: reproduce's and verify's closing table.
func summary(b *TabularBundle, w io.Writer) error {
	if err := Published(b, articleFigures).Write(w, "text"); err != nil {
		return err
	}
	fmt.Fprintf(w, "\npublished: %s; model: the FIFO/reader arithmetic (pipe capacity from the kernel)\n", reference.Source)
	for _, l := range PublishedLegend {
		fmt.Fprintln(w, l)
	}
	fmt.Fprintln(w, TrustSummary(b))
	if d := UnlikePublished(*b.Params()); len(d) > 0 {
		fmt.Fprintf(w, "NOTE: this protocol is not the published one (%s): the pub columns are not like for like\n", strings.Join(d, ", "))
	}
	return nil
}

// TrustSummary says in one line how far the runs can be trusted: the send-lag bound,
// runs lag-trusted, attempts redone, conditions that still have untrusted runs, runs on
// a noisy host, and p99s not resolved.
func TrustSummary(b *TabularBundle) string {
	p := *b.Params()
	// The conditions count every run of the bundle, each in its own: their counts
	// summed are the bundle's.
	var counting, trusted, redone, noisy int
	var untrusted, unresolved []string
	for _, c := range Conditions(b) {
		counting += c.Runs
		trusted += c.RunsTrusted
		redone += c.RunsSuperseded
		noisy += c.RunsNoisy
		if c.RunsTrusted < c.RunsVerified {
			untrusted = append(untrusted, c.API+"/"+c.Mode+"/"+c.Reader)
		}
		if !c.P99Resolved && c.P99Ms == c.P99Ms {
			unresolved = append(unresolved, c.API+"/"+c.Mode+"/"+c.Reader)
		}
	}
	s := fmt.Sprintf("trust: %d of %d runs lag-trusted (send-lag p99 within %g ms); %d attempts redone (--retries %d); %d runs on a noisy host",
		trusted, counting, p.MaxSendLagP99Ms, redone, p.Retries, noisy)
	if len(untrusted) > 0 {
		s += fmt.Sprintf("\nSTILL UNTRUSTED after retries: %s", strings.Join(untrusted, ", "))
	}
	if len(unresolved) > 0 {
		s += fmt.Sprintf("\nNOT RESOLVED (p99 of the pooled requests under %g x the send lag): %s", ResolutionFactor, strings.Join(unresolved, ", "))
	}
	return s + fmt.Sprintf("\nclient topology: %s", TopologyOf(p))
}

// UnlikePublished lists where p departs from the published setup (its parameters, in
// the manifest's own keys: results/reference/fifo-stall/setup.json).
func UnlikePublished(p Params) []string {
	have := compare.Flatten(map[string]any{"parameters": p})
	want := reference.MustSetup(Name).FlatParameters()
	var d []string
	for _, key := range slices.Sorted(maps.Keys(want)) {
		if have[key] != want[key] {
			d = append(d, fmt.Sprintf("%s %s, published %s", strings.TrimPrefix(key, "parameters."), cmp.Or(have[key], "(none)"), want[key]))
		}
	}
	return d
}

// Ms formats milliseconds for a progress line.
func Ms(v float64) string {
	if v != v {
		return "-"
	}
	if v >= 1000 {
		return fmt.Sprintf("%.3f s", v/1000)
	}
	return fmt.Sprintf("%.2f ms", v)
}

package fifostall

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/logbench/logbench/kit/experiments/fifostall/schema"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/results/reference"
)

// Bundle is this experiment's bundle as a matrix fills it.
type Bundle struct {
	B *schema.Bundle
	// Last is the rows of the run added last.
	Last schema.Rows
}

var _ experiment.Bundle = (*Bundle)(nil)

func (b *Bundle) Common() *bundle.Common { return &b.B.Manifest.Common }

// Measured: the conductor got as far as the first scheduled send.
func (b *Bundle) Measured(run experiment.Run) bool {
	var res contract.Result
	return run.Pod.Result != nil && jsonUnmarshal(run.Pod.Result, &res) == nil && res.LoadStart != 0
}

// Record is the run's record: what the conductor measured, and why it is not data if
// it is not.
func Record(run experiment.Run, maxLag float64) schema.RunRecord {
	c := run.Condition.(Cond)
	rec := schema.RunRecord{RunID: run.ID, API: c.API, Mode: contract.LogMode(c.Mode), Reader: c.Reader, Round: run.Round, Position: run.Position, Attempt: run.Attempt,
		Started: run.Started, Exits: run.Pod.Exits, Wall: run.Wall, MaxSendLagP99: durationMs(maxLag)}
	resultFailure := ""
	if run.Pod.Result != nil {
		if err := jsonUnmarshal(run.Pod.Result, &rec.Result); err != nil {
			resultFailure = "unreadable result: " + err.Error()
		} else {
			resultFailure = rec.Result.Failure
		}
	}
	rec.Failure = experiment.JoinFailures(run.Failure, resultFailure)
	return rec
}

func (b *Bundle) Add(run experiment.Run) (string, bool) {
	rec := Record(run, b.B.Manifest.Parameters.MaxSendLagP99Ms)
	rec.Failure = experiment.JoinFailures(rec.Failure, LimitsFailure(rec.Result, b.B.Manifest.Parameters))
	rows := schema.Derive(rec)
	b.B.Runs = append(b.B.Runs, rows)
	b.Last = rows
	r := rows.Run
	state := "verified"
	switch {
	case !r.Verified:
		state = "FAILED: " + r.Failure
	case !r.SendLagTrusted:
		state = fmt.Sprintf("verified, NOT lag-trusted (send lag p99 over %g ms)", b.B.Manifest.Parameters.MaxSendLagP99Ms)
	}
	if r.HostNoisy {
		state += fmt.Sprintf("; noisy host (steal %s%%, CPU pressure %s%%)", pct(r.HostStealPct), pct(r.HostCPUPressurePct))
	}
	return fmt.Sprintf("%-28s p99 %-10s lag p99 %-9s drain %6.2f s  overhead %.2f s  %s",
		r.API+"/"+r.Mode+"/"+r.Reader, Ms(float64(r.P99Ms)), Ms(float64(r.SendLagP99Ms)), r.DrainS, r.OverheadS, state), r.Verified
}

func pct(o bundle.Opt) string {
	if o != o {
		return "-"
	}
	return fmt.Sprintf("%.1f", float64(o))
}

// Retry redoes a verified run whose send lag was over the bound, up to the plan's
// retries (parameters.retries): the run is marked superseded and kept. A failed run is
// not redone (it is kept as failed), nor is one whose retries are spent: it stays the
// round's run, counted as not lag-trusted.
func (b *Bundle) Retry(run experiment.Run) bool {
	if len(b.B.Runs) == 0 {
		return false
	}
	last := &b.B.Runs[len(b.B.Runs)-1].Run
	if last.RunID != run.ID || !last.Verified || last.SendLagTrusted || run.Attempt > b.B.Manifest.Parameters.Retries {
		return false
	}
	last.Superseded = true
	b.Last.Run.Superseded = true
	return true
}

// Attempts counts the bundle's attempts of cond in round.
func (b *Bundle) Attempts(cond experiment.Condition, round int) int {
	n := 0
	for _, r := range b.B.Runs {
		if experiment.Key(condOf(r.Run), r.Run.Round) == experiment.Key(cond, round) {
			n++
		}
	}
	return n
}

// Has says whether the bundle holds the round's run of cond: a superseded attempt is
// not it.
func (b *Bundle) Has(cond experiment.Condition, round int) bool {
	for _, r := range b.B.Runs {
		if !r.Run.Superseded && experiment.Key(condOf(r.Run), r.Run.Round) == experiment.Key(cond, round) {
			return true
		}
	}
	return false
}

func condOf(r schema.RunRow) Cond { return Cond{r.API, r.Mode, r.Reader} }

func (b *Bundle) Files() (map[string][]byte, error) { return b.B.Files() }

// Summary is every condition's figures beside the published ones and the model's.
func (b *Bundle) Summary(w io.Writer) error {
	pub, err := reference.Load()
	if err != nil {
		return err
	}
	if err := Published(b.B, pub).Write(w, "text"); err != nil {
		return err
	}
	fmt.Fprintf(w, "\npublished: %s; model: the FIFO/reader arithmetic (pipe capacity from the kernel)\n", reference.Source)
	for _, l := range PublishedLegend {
		fmt.Fprintln(w, l)
	}
	fmt.Fprintln(w, b.TrustSummary())
	if d := UnlikePublished(b.B.Manifest.Parameters); len(d) > 0 {
		fmt.Fprintf(w, "NOTE: this protocol is not the published one (%s): the pub columns are not like for like\n", strings.Join(d, ", "))
	}
	return nil
}

// TrustSummary says in one line how far the runs can be trusted: the send-lag bound,
// runs lag-trusted, attempts redone, conditions that still have untrusted runs, runs on
// a noisy host, and p99s not resolved.
func (b *Bundle) TrustSummary() string {
	p := b.B.Manifest.Parameters
	var counting, trusted, redone, noisy int
	for _, r := range b.B.Runs {
		switch {
		case r.Run.Superseded:
			redone++
		default:
			counting++
			if r.Run.Verified && r.Run.SendLagTrusted {
				trusted++
			}
			if r.Run.Verified && r.Run.HostNoisy {
				noisy++
			}
		}
	}
	var untrusted, unresolved []string
	for _, c := range b.B.Conditions {
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
		s += fmt.Sprintf("\nNOT RESOLVED (p99 of the pooled requests under %g x the send lag): %s", schema.ResolutionFactor, strings.Join(unresolved, ", "))
	}
	return s + fmt.Sprintf("\nclient topology: %s", TopologyOf(p))
}

// UnlikePublished lists where p departs from the published setup (its parameters, in
// the manifest's own keys: results/reference/fifo-stall/setup.json).
func UnlikePublished(p schema.Params) []string {
	have := map[string]string{}
	if body, err := json.Marshal(map[string]any{"parameters": p}); err == nil {
		var generic map[string]any
		if json.Unmarshal(body, &generic) == nil {
			flatten("", generic, have)
		}
	}
	want := reference.MustSetup(Name).FlatParameters()
	var d []string
	for _, key := range sortedKeys(want) {
		if have[key] != want[key] {
			d = append(d, fmt.Sprintf("%s %s, published %s", strings.TrimPrefix(key, "parameters."), orNone(have[key]), want[key]))
		}
	}
	return d
}

func flatten(path string, v any, out map[string]string) {
	if m, ok := v.(map[string]any); ok {
		for k, x := range m {
			p := k
			if path != "" {
				p = path + "." + k
			}
			flatten(p, x, out)
		}
		return
	}
	b, _ := json.Marshal(v)
	out[path] = string(b)
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
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

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

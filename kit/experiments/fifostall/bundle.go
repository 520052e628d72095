package fifostall

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/incontainer/logmode"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/results/reference"
)

// Bundle is this experiment's bundle as a matrix fills it.
type Bundle struct {
	B *bundle.Bundle
	// Last is the rows of the run added last.
	Last bundle.Rows
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
func Record(run experiment.Run, maxLag float64) bundle.RunRecord {
	c := run.Condition
	rec := bundle.RunRecord{RunID: run.ID, API: c[0], Mode: logmode.Mode(c[1]), Reader: c[2], Round: run.Round, Position: run.Position,
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
	rows := bundle.Derive(Record(run, b.B.Manifest.Parameters.MaxSendLagP99Ms))
	b.B.Runs = append(b.B.Runs, rows)
	b.Last = rows
	r := rows.Run
	state := "verified"
	if !r.Verified {
		state = "FAILED: " + r.Failure
	}
	return fmt.Sprintf("%-28s p99 %-10s drain %6.2f s  overhead %.2f s  %s",
		r.API+"/"+r.Mode+"/"+r.Reader, Ms(float64(r.P99Ms)), r.DrainS, r.OverheadS, state), r.Verified
}

func (b *Bundle) Has(cond experiment.Condition, round int) bool {
	for _, r := range b.B.Runs {
		if (experiment.Condition{r.Run.API, r.Run.Mode, r.Run.Reader}).Key(r.Run.Round) == cond.Key(round) {
			return true
		}
	}
	return false
}

func (b *Bundle) Files() (map[string][]byte, error) { return b.B.Files() }

// Summary is every condition's figures beside the published ones and the model's.
func (b *Bundle) Summary(w io.Writer) error {
	pub, err := reference.Load()
	if err != nil {
		return err
	}
	if err := compare.Published(b.B.Conditions, pub).Write(w, "text"); err != nil {
		return err
	}
	fmt.Fprintf(w, "\npublished: %s; model: the FIFO/reader arithmetic (pipe capacity from the kernel)\n", reference.Source)
	if d := UnlikePublished(b.B.Manifest.Parameters); len(d) > 0 {
		fmt.Fprintf(w, "NOTE: this protocol is not the published one (%s): the pub columns are not like for like\n", strings.Join(d, ", "))
	}
	return nil
}

// UnlikePublished lists where p departs from the published setup (its parameters, in
// the manifest's own keys: results/reference/fifo-stall/setup.json).
func UnlikePublished(p bundle.Params) []string {
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

package schema

import (
	"bytes"
	"encoding/json"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/verify"
)

// Tabular is a fifo-stall bundle as the kit's table-driven bundle holds it.
type Tabular = tabular.Bundle[*Params, RunRow]

// Declaration is what the kit needs to read, write and verify a fifo-stall bundle: its
// tables, the derivation of every run's figures from its own rows (RunFigures) and of
// the conditions from the runs (DeriveConditions), its rules and its figures. observe
// gives a run's rows in every file (nil: the declaration reads bundles and performs no
// run); package fifostall adds the plan and pods. Each call is a fresh declaration.
func Declaration(observe func(p *Params, run experiment.Run) Rows) *tabular.Experiment[*Params, RunRow] {
	if observe == nil {
		observe = func(*Params, experiment.Run) Rows { return Rows{} }
	}
	return &tabular.Experiment[*Params, RunRow]{
		About:      experiment.Info{Name: Name},
		Axes:       []string{"api", "mode", "reader"},
		Conditions: func(p *Params) []tabular.Cell { return tabular.Product(p.APIs, p.Modes, p.Readers) },
		Judge: func(p *Params, r *RunRow, own tabular.Rows) {
			*r = RunFigures(*r, tabular.Of[RequestRow](own, RequestsFile), tabular.Of[ContainerRow](own, ContainersFile),
				tabular.Of[TimelineRow](own, TimelineFile), p.SendLagBound())
		},
		Runs: Declared(RunsFile),
		Tables: []tabular.Table[*Params]{
			tabular.PerRun(Declared(RequestsFile), func(p *Params, run experiment.Run) []RequestRow { return observe(p, run).Requests }),
			tabular.PerRun(Declared(ContainersFile), func(p *Params, run experiment.Run) []ContainerRow { return observe(p, run).Containers }),
			tabular.PerRun(Declared(TimelineFile), func(p *Params, run experiment.Run) []TimelineRow { return observe(p, run).Timeline }),
			tabular.Modelled(tabular.Derived(Declared(ConditionsFile), func(p *Params, runs []RunRow, rows tabular.Rows) []ConditionRow {
				return DeriveConditions(runs, rows, *p)
			}), modelColumns...),
		},
		Manifest: func() tabular.Manifest[*Params] { return &Manifest{} },
		Rules:    rules,
		Own: tabular.Own[*Params, RunRow]{
			Figures:  func(b *Tabular) []compare.Row { return Figures(b.Runs, b.Rows, Conditions(b)) },
			Later:    AddedLater,
			Respell:  namedManifest,
			Describe: describe,
			// A verified run whose send lag was over the bound is redone, up to the
			// parameters' retries; a failed one is kept as failed.
			Retry: func(p *Params, r RunRow) bool { return r.Verified && !r.SendLagTrusted && r.Attempt <= p.Retries },
		},
	}
}

// offline is the declaration verify reads bundles with.
var offline = Declaration(nil)

// Verify checks everything a fifo-stall bundle's files say about each other (see
// ../README.md, "What verify checks"): the kit's checks of every table-driven bundle
// (tabular), then fifo-stall's rules. Its Own is a *Tabular.
func Verify(f *bundle.Files) *verify.Result { return offline.Verify(f) }

// SendLagBound is the send-lag p99 a run's latencies are trusted within: the manifest's,
// or the default where a bundle of an earlier kit recorded none (0).
func (p *Params) SendLagBound() float64 {
	if p.MaxSendLagP99Ms == 0 {
		return DefaultMaxSendLagP99Ms
	}
	return p.MaxSendLagP99Ms
}

// ManifestOf is a bundle's manifest as fifo-stall's (Declaration's Manifest).
func ManifestOf(b *Tabular) *Manifest { return b.M.(*Manifest) }

// Conditions are a bundle's conditions as derived from its runs and their rows, whatever
// its conditions.csv claims.
func Conditions(b *Tabular) []ConditionRow { return DeriveConditions(b.Runs, b.Rows, *b.Params()) }

// namedManifest gives a manifest that names no experiment as naming this one: it was
// written before the kit had several experiments, when every bundle was fifo-stall's.
// The name goes in on the manifest's first line, so that every line a problem names is
// the file's own.
func namedManifest(file string, body []byte) []byte {
	var head struct{ Experiment *string }
	open := bytes.IndexByte(body, '{')
	if file != bundle.ManifestFile || open < 0 || json.Unmarshal(body, &head) != nil || head.Experiment != nil ||
		!bytes.Contains(body[open+1:], []byte(":")) {
		return body
	}
	named := append(append([]byte{}, body[:open+1]...), []byte(`"experiment": "`+Name+`", `)...)
	return append(named, body[open+1:]...)
}

// modelColumns are conditions.csv's columns that come from the model, not from the
// runs: a newer kit's model may say otherwise, which is a note, not a problem
// (tabular.Modelled).
var modelColumns = []string{"offered_bytes_per_s", "reader_bound_bytes_per_s", "predicted_drain_s",
	"predicted_rps_to_last_response", "predicted_rps_to_logs_read", "predicted_backlog_max_bytes"}

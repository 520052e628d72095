package fifostall

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/report"
	"github.com/logbench/logbench/results/reference"
)

// Tabular is fifo-stall declared on the kit's table-driven bundle: its tables, the
// derivation of every run's figures from its own rows (RunFigures) and of the
// conditions from the runs (DeriveConditions), its rules and figures; its plan, pods and
// runs (each run's rows as the conductor measured them, the instrument calibrated first,
// a run over its send-lag bound redone); its comparison and its report.
var Tabular = &tabular.Experiment[*Params, RunRow]{
	About: experiment.Info{Name: Name,
		Summary:  "a slow log reader stalls an API: 7 logging modes x fast/throttled FIFO reader, open-loop load, p99, drain, no byte lost",
		Source:   reference.Source,
		Question: "What does a slow reader behind a synchronous log do to p99, against no logging?"},
	Defaults:   reproduceParams,
	Axes:       []string{"api", "mode", "reader"},
	Conditions: func(p *Params) []tabular.Cell { return tabular.Product(p.APIs, p.Modes, p.Readers) },
	Images:     []string{ImageOf(GoAPI), ImageOf(PythonAPI), "reader", "loadgen"},
	Needs:      func(p *Params) []string { return SettingsOf(*p).Images(p.APIs) },
	Pod: func(p *Params, c tabular.Cell, runID string, images map[string]string) experiment.PodSpec {
		return SettingsOf(*p).Pod(Cond{API: c[0], Mode: c[1], Reader: c[2]}, runID, images)
	},
	Target: func(p *Params, env experiment.Env) error {
		p.Platform = env.Platform
		return nil
	},
	Notes: func(p *Params) []string {
		if p.Calibrate {
			return nil
		}
		return []string{"the instrument is not calibrated first (--calibrate=false): the manifest will record no send lag, reader rate or capacity measured on this engine"}
	},
	Observe: func(p *Params, run experiment.Run) RunRow { return observe(p, run).Run },
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
	Metrics:   Metrics,
	Manifest:  func() tabular.Manifest[*Params] { return &Manifest{} },
	Rules:     rules,
	Published: published,
	Drawings:  func(ds []TabularDrawn) []report.Section { return pageOf(ds).drawings() },
	Own: tabular.Own[*Params, RunRow]{
		Figures:  func(b *TabularBundle) []compare.Row { return Figures(b.Runs, b.Rows, Conditions(b)) },
		Later:    AddedLater,
		Respell:  namedManifest,
		Describe: describe,
		Summary:  summary,
		Legend:   func(*TabularBundle) []string { return compareLegend },
		Host: func(b *TabularBundle) []compare.KV {
			return []compare.KV{{Key: "runtime", Value: runtimes(*ManifestOf(b))}}
		},
		Prepare: prepare, Measured: measured, Progress: progress,
		Charted: charted, Drawn: drawnOf,
		Answer:           func(ds []TabularDrawn) ([]string, int) { return answer(pageOf(ds).bs), 0 },
		AnswerChart:      func(ds []TabularDrawn) report.Figure { return pageOf(ds).answerChart() },
		PublishedMetrics: publishedMetrics(),
		// A verified run whose send lag was over the bound is redone, up to the
		// parameters' retries; a failed one is kept as failed.
		Retry: func(p *Params, r RunRow) bool { return r.Verified && !r.SendLagTrusted && r.Attempt <= p.Retries },
	},
}

// TabularBundle is a fifo-stall bundle as the table-driven kit holds it, and
// TabularDrawn one as the kit's report draws it.
type (
	TabularBundle = tabular.Bundle[*Params, RunRow]
	TabularDrawn  = tabular.Drawn[*Params, RunRow]
)

// observe is a run's rows in every file: what the conductor measured, the limits the
// containers read held to the ones set, and the figures derived from them.
func observe(p *Params, run experiment.Run) Rows {
	rec := Record(run, p.MaxSendLagP99Ms)
	l := p.Limits
	rec.Failure = experiment.JoinFailures(rec.Failure, experiment.ResultNotApplied(rec.Result, l.PidsLimit, l.APICPUs, l.APIMemoryBytes))
	return Derive(rec)
}

// prepare calibrates the instrument when the plan asks for it (--calibrate), and
// records the calibration and how long the images took in the manifest; a calibration
// that fails is a warning, not a stop.
func prepare(ctx context.Context, p *Params, pods experiment.Pods, images map[string]string, imageBuild time.Duration, out io.Writer) error {
	if !p.Calibrate {
		return nil
	}
	fmt.Fprintln(out, "calibrating the instrument on this engine (about a minute)")
	cal, err := Calibrate(ctx, pods, SettingsOf(*p), images, CalibrateDefaults)
	cal.ImageBuildS = imageBuild.Seconds()
	if err != nil {
		if ctx.Err() != nil {
			return err
		}
		fmt.Fprintf(out, "WARNING: calibration failed, the manifest will have none: %v\n", err)
		return nil
	}
	p.Calibrated(&cal)
	fmt.Fprintf(out, "send lag p99 %.3f ms at %g req/s; slow reader %.0f B/s (bound %d); load generator capacity %s; overhead %.2f s/run\n",
		cal.SendLagP99Ms, cal.RateRPS, cal.ReaderAchievedBytesPerS, cal.ReaderBoundBytesPerS, capacityText(&cal), cal.RunOverheadS)
	return nil
}

// progress is the line after each run: its p99, send lag, drain and overhead, and
// whether it is data and can be trusted.
func progress(p *Params, r RunRow) string {
	state := tabular.Verdict(r.Verified, r.Failure)
	if r.Verified && !r.SendLagTrusted {
		state += fmt.Sprintf(", NOT lag-trusted (send lag p99 over %g ms)", p.MaxSendLagP99Ms)
	}
	if r.HostNoisy {
		state += fmt.Sprintf("; noisy host (steal %s%%, CPU pressure %s%%)", r.HostStealPct.Fixed(1), r.HostCPUPressurePct.Fixed(1))
	}
	return fmt.Sprintf("%-28s p99 %-10s lag p99 %-9s drain %6.2f s  overhead %.2f s  %s",
		r.API+"/"+r.Mode+"/"+r.Reader, Ms(float64(r.P99Ms)), Ms(float64(r.SendLagP99Ms)), r.DrainS, r.OverheadS, state)
}

// SendLagBound is the send-lag p99 a run's latencies are trusted within: the manifest's,
// or the default where a bundle of an earlier kit recorded none (0).
func (p *Params) SendLagBound() float64 {
	if p.MaxSendLagP99Ms == 0 {
		return DefaultMaxSendLagP99Ms
	}
	return p.MaxSendLagP99Ms
}

// ManifestOf is a bundle's manifest as fifo-stall's (Tabular's Manifest).
func ManifestOf(b *TabularBundle) *Manifest { return b.M.(*Manifest) }

// Conditions are a bundle's conditions as derived from its runs and their rows, whatever
// its conditions.csv claims.
func Conditions(b *TabularBundle) []ConditionRow {
	return DeriveConditions(b.Runs, b.Rows, *b.Params())
}

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

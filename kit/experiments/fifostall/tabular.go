package fifostall

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/experiments/fifostall/schema"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/report"
	"github.com/logbench/logbench/results/reference"
)

// Tabular is fifo-stall declared on the kit's table-driven bundle: the bundle as its
// schema declares it (schema.Declaration: the tables, the derivation of every run's
// figures and of the conditions, the rules, the figures), and the plan, pods and runs:
// each run's rows as the conductor measured them, the instrument calibrated first, a run
// over its send-lag bound redone.
var Tabular = declared()

func declared() *tabular.Experiment[*schema.Params, schema.RunRow] {
	t := schema.Declaration(observe)
	t.About = experiment.Info{Name: Name,
		Summary:  "a slow log reader stalls an API: 7 logging modes x fast/throttled FIFO reader, open-loop load, p99, drain, no byte lost",
		Source:   reference.Source,
		Question: "What does a slow reader behind a synchronous log do to p99, against no logging?"}
	t.Defaults = func() *schema.Params { return reproduceParams() }
	t.Images = []string{ImageOf(schema.GoAPI), ImageOf(schema.PythonAPI), "reader", "loadgen"}
	t.Needs = func(p *schema.Params) []string { return SettingsOf(*p).Images(p.APIs) }
	t.Pod = func(p *schema.Params, c tabular.Cell, runID string, images map[string]string) experiment.PodSpec {
		return SettingsOf(*p).Pod(Cond{API: c[0], Mode: c[1], Reader: c[2]}, runID, images)
	}
	t.Target = func(p *schema.Params, env experiment.Env) error {
		p.Platform = env.Platform
		return nil
	}
	t.Notes = func(p *schema.Params) []string {
		if p.Calibrate {
			return nil
		}
		return []string{"the instrument is not calibrated first (--calibrate=false): the manifest will record no send lag, reader rate or capacity measured on this engine"}
	}
	t.Observe = func(p *schema.Params, run experiment.Run) schema.RunRow { return observe(p, run).Run }
	t.Metrics, t.Published, t.Own.PublishedMetrics = Metrics, published, publishedMetrics()
	t.Own.Summary = summary
	t.Own.Legend = func(*TabularBundle) []string { return compareLegend }
	t.Own.Host = func(b *TabularBundle) []compare.KV {
		return []compare.KV{{Key: "runtime", Value: runtimes(*schema.ManifestOf(b))}}
	}
	t.Own.Prepare, t.Own.Measured, t.Own.Progress = prepare, measured, progress
	t.Own.Charted, t.Own.Drawn = charted, drawnOf
	t.Own.Answer = func(ds []TabularDrawn) ([]string, int) { return answer(pageOf(ds).bs), 0 }
	t.Own.AnswerChart = func(ds []TabularDrawn) report.Figure { return pageOf(ds).answerChart() }
	t.Drawings = func(ds []TabularDrawn) []report.Section { return pageOf(ds).drawings() }
	return t
}

// TabularBundle is a fifo-stall bundle as the table-driven kit holds it, and
// TabularDrawn one as the kit's report draws it.
type (
	TabularBundle = tabular.Bundle[*schema.Params, schema.RunRow]
	TabularDrawn  = tabular.Drawn[*schema.Params, schema.RunRow]
)

// observe is a run's rows in every file: what the conductor measured, the limits the
// containers read held to the ones set, and the figures derived from them.
func observe(p *schema.Params, run experiment.Run) schema.Rows {
	rec := Record(run, p.MaxSendLagP99Ms)
	l := p.Limits
	rec.Failure = experiment.JoinFailures(rec.Failure, experiment.ResultNotApplied(rec.Result, l.PidsLimit, l.APICPUs, l.APIMemoryBytes))
	return schema.Derive(rec)
}

// prepare calibrates the instrument when the plan asks for it (--calibrate), and
// records the calibration and how long the images took in the manifest; a calibration
// that fails is a warning, not a stop.
func prepare(ctx context.Context, p *schema.Params, pods experiment.Pods, images map[string]string, imageBuild time.Duration, out io.Writer) error {
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
func progress(p *schema.Params, r schema.RunRow) string {
	state := tabular.Verdict(r.Verified, r.Failure)
	if r.Verified && !r.SendLagTrusted {
		state += fmt.Sprintf(", NOT lag-trusted (send lag p99 over %g ms)", p.MaxSendLagP99Ms)
	}
	if r.HostNoisy {
		state += fmt.Sprintf("; noisy host (steal %s%%, CPU pressure %s%%)", fixed(float64(r.HostStealPct), 1), fixed(float64(r.HostCPUPressurePct), 1))
	}
	return fmt.Sprintf("%-28s p99 %-10s lag p99 %-9s drain %6.2f s  overhead %.2f s  %s",
		r.API+"/"+r.Mode+"/"+r.Reader, Ms(float64(r.P99Ms)), Ms(float64(r.SendLagP99Ms)), r.DrainS, r.OverheadS, state)
}

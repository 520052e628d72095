package fifostall

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/logbench/logbench/kit/experiment"
)

var _ experiment.Calibrator = Experiment

// CalibrationIgnores are the run flags calibration has no use for: it measures the Go
// images with run lengths of its own.
var CalibrationIgnores = []string{"api", "duration"}

// calibrationParams are calibrate's parameters: those of every run (BindRun) but the
// ones calibration ignores, on the Go API.
type calibrationParams struct{ *Params }

// CalibrationParams are calibrate's parameters at their defaults.
func (plugin) CalibrationParams() experiment.Params {
	return calibrationParams{DefaultParams(GoAPI)}
}

// Bind declares the run flags calibration takes.
func (c calibrationParams) Bind(fs *flag.FlagSet) {
	all := flag.NewFlagSet("run", flag.ContinueOnError)
	c.BindRun(all, APIUsage)
	all.VisitAll(func(f *flag.Flag) {
		if !slices.Contains(CalibrationIgnores, f.Name) {
			fs.Var(f.Value, f.Name, f.Usage)
		}
	})
}

// PlanCalibration checks the flags as a run's (the ignored ones at their defaults) into
// the settings the instrument is measured in.
func (plugin) PlanCalibration(ps experiment.Params) (experiment.Calibration, error) {
	c, err := experiment.Own[calibrationParams](ps)
	if err != nil {
		return nil, err
	}
	if err := c.Check(); err != nil {
		return nil, err
	}
	return calibration{SettingsOf(*c.Params)}, nil
}

// calibration is the instrument measured in one run's settings.
type calibration struct{ settings Settings }

// Images are the Go images: the capacity sweep needs a server that keeps up.
func (calibration) Images() []string { return []string{ImageOf(GoAPI), "reader", "loadgen"} }

func (k calibration) Measure(ctx context.Context, pods experiment.Pods, images map[string]string, imageBuild time.Duration, out io.Writer) ([]experiment.Figure, error) {
	fmt.Fprintln(out, "calibrating (about a minute)")
	cal, err := Calibrate(ctx, pods, k.settings, images, CalibrateDefaults)
	if err != nil {
		return nil, err
	}
	cal.ImageBuildS = imageBuild.Seconds()
	return calibrationFigures(cal), nil
}

// calibrationFigures lists each figure with what it is.
func calibrationFigures(cal Calibration) []experiment.Figure {
	f := func(format string, v ...any) string { return fmt.Sprintf(format, v...) }
	var figs []experiment.Figure
	add := func(name, value, what string) {
		figs = append(figs, experiment.Figure{Name: name, Value: value, What: what})
	}
	add("send_lag_p50_ms", f("%.3f", cal.SendLagP50Ms), f("load generator: lateness of sends against schedule at %g req/s", cal.RateRPS))
	add("send_lag_p99_ms", f("%.3f", cal.SendLagP99Ms), "the same, p99 (every latency's error)")
	add("send_lag_max_ms", f("%.3f", cal.SendLagMaxMs), "the same, worst")
	add("clock_resolution_ns", f("%d", cal.ClockResolutionNs), "smallest step of the clock inside the load generator")
	add("sleep_overshoot_p99_us", f("%.0f", cal.SleepOvershootP99Us), "how late a 1 ms timer fires, p99")
	add("reader_achieved_bytes_per_s", f("%.0f", cal.ReaderAchievedBytesPerS), f("slow reader, saturated (bound %d, %.2f%% of it)", cal.ReaderBoundBytesPerS, 100*cal.ReaderAchievedBytesPerS/float64(max(cal.ReaderBoundBytesPerS, 1))))
	add("pipe_capacity_bytes", f("%d", cal.PipeCapacityBytes), "the FIFO's capacity (F_GETPIPE_SZ)")
	add("run_overhead_s", f("%.2f", cal.RunOverheadS), "the kit's own cost per run: create, start, stop, remove, copy out")
	add("image_build_s", f("%.2f", cal.ImageBuildS), "finding (or building) the images")
	add("capacity_rps", f("%.0f", cal.CapacityRPS), f("highest open-loop rate with send-lag p99 <= %g ms, %g CPU each for load generator and API", cal.CapacityLagBoundMs, cal.CapacityCPUs))
	for _, s := range cal.Sweep {
		lags := make([]string, len(s.LagP99Ms))
		for i, l := range s.LagP99Ms {
			lags[i] = f("%.3f", l)
		}
		add(f("sweep_%g_rps", s.RateRPS), "lag p99 "+strings.Join(lags, ", ")+" ms", f("held by most trials: %t, %d errors", s.Held, s.Errors))
	}
	return figs
}

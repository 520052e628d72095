package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/logbench/logbench/kit/experiments/fifostall/schema"

	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/experiments/fifostall"
	"github.com/logbench/logbench/kit/offline/compare"
)

func calibrateCommand() *cli.Command {
	return &cli.Command{
		Name:  "calibrate",
		Usage: "measure the instrument on this engine, inside the same limits: send lag, timers, reader pacing, pipe, overhead, capacity",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "format", Value: "text", Usage: "text, csv, json or markdown"},
		}, append(cliFlags(runFlags(fifostall.GoAPI), calibrateIgnores...), without(targetFlags(), "out", "speed-probe")...)...),
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("calibrate takes no arguments, got %q", c.Args().First())
			}
			format := c.String("format")
			if err := (compare.Table{}).Write(io.Discard, format); err != nil {
				return usagef("--format: %v", err)
			}
			fs := runFlags(fifostall.GoAPI)
			if err := parseFlags(c, fs); err != nil {
				return err
			}
			params, err := fifostall.ParamsFrom(fs)
			if err != nil {
				return err
			}
			t, err := connect(c)
			if err != nil {
				return err
			}
			defer t.engine.Close()
			if err := t.CheckPlatform(c.Bool("emulated")); err != nil {
				return err
			}
			start := time.Now()
			ids, _, err := t.BuildImages(c.Context, nil)
			if err != nil {
				return err
			}
			build := time.Since(start)
			say(c.App.Writer, "calibrating (about a minute)")
			cal, err := fifostall.Calibrate(c.Context, t.engine, fifostall.SettingsOf(params), ids, fifostall.CalibrateDefaults)
			cal.ImageBuildS = build.Seconds()
			if err != nil {
				return err
			}
			return calibrationTable(cal).Write(c.App.Writer, format)
		},
	}
}

// calibrateIgnores are the run flags calibration has no use for: it measures the Go
// images with its own run lengths.
var calibrateIgnores = []string{"api", "duration"}

// calibrationTable lists each figure with what it is.
func calibrationTable(cal schema.Calibration) compare.Table {
	f := func(format string, v ...any) string { return fmt.Sprintf(format, v...) }
	t := compare.Table{Header: []string{"figure", "value", "what"}}
	add := func(name, value, what string) { t.Rows = append(t.Rows, []string{name, value, what}) }
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
	return t
}

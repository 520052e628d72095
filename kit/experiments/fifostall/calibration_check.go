package fifostall

import (
	"fmt"
	"math"
	"slices"
	"strconv"
)

// positive, as a lower bound, is more than 0.
const positive = -1

// Bounds of a calibration's figures: what an instrument that ran could measure. Each is
// far past what a host shows (the archived calibrations: send lags under 5 ms, runs'
// overhead about a second, images found in seconds, a 64 KiB pipe).
const (
	// maxCalLagMs bounds a send lag or overshoot in ms: a minute, the longest
	// --max-send-lag, is already no load at all.
	maxCalLagMs = 60_000
	// maxCalRateRPS bounds a rate of the calibration: ten times the most --rate.
	maxCalRateRPS = 100_000
	// maxCalBytesPerS bounds the slow reader's bound and achieved rate: 1 TiB/s.
	maxCalBytesPerS = 1 << 40
	// Pipe capacities (F_GETPIPE_SZ) run from a page to the kernel's most, 2^31 bytes.
	minPipeBytes, maxPipeBytes = 4096, 1 << 31
	// maxCalClockNs bounds the clock's resolution: a second.
	maxCalClockNs = 1e9
	// maxCalRunOverheadS bounds the kit's cost per run, maxCalImageBuildS the images'.
	maxCalRunOverheadS = 3600
	maxCalImageBuildS  = 24 * 3600
	// maxCalCPUs is the most CPUs a limit gives (experiment.CPUsFlag).
	maxCalCPUs = 1024
)

// Check refuses a calibration no instrument measured: a figure not finite, negative, or
// past its bound; send-lag percentiles out of order; a capacity that is not a rate the
// sweep held. The problem is one line naming the field.
func (c Calibration) Check() error {
	num := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	within := func(name string, v, lo, hi float64, unit string) error {
		switch {
		case lo == positive && !(v > 0 && v <= hi):
			return fmt.Errorf("calibration.%s %v: want more than 0 and at most %s %s", name, v, num(hi), unit)
		case lo != positive && !(v >= lo && v <= hi): // NaN and ±Inf included
			return fmt.Errorf("calibration.%s %v: want %s to %s %s", name, v, num(lo), num(hi), unit)
		}
		return nil
	}
	checks := []error{
		within("rate_rps", c.RateRPS, positive, maxCalRateRPS, "requests per second"),
		within("send_lag_p50_ms", c.SendLagP50Ms, 0, maxCalLagMs, "ms"),
		within("send_lag_p99_ms", c.SendLagP99Ms, 0, maxCalLagMs, "ms"),
		within("send_lag_max_ms", c.SendLagMaxMs, 0, maxCalLagMs, "ms"),
		within("reader_bound_bytes_per_s", float64(c.ReaderBoundBytesPerS), 0, maxCalBytesPerS, "bytes per second"),
		within("reader_achieved_bytes_per_s", c.ReaderAchievedBytesPerS, 0, maxCalBytesPerS, "bytes per second"),
		within("pipe_capacity_bytes", float64(c.PipeCapacityBytes), minPipeBytes, maxPipeBytes, "bytes (F_GETPIPE_SZ: a page to the kernel's most)"),
		within("clock_resolution_ns", float64(c.ClockResolutionNs), 0, maxCalClockNs, "ns"),
		within("sleep_overshoot_p50_us", c.SleepOvershootP50Us, 0, maxCalLagMs*1e3, "µs"),
		within("sleep_overshoot_p99_us", c.SleepOvershootP99Us, 0, maxCalLagMs*1e3, "µs"),
		within("run_overhead_s", c.RunOverheadS, 0, maxCalRunOverheadS, "s"),
		within("image_build_s", c.ImageBuildS, 0, maxCalImageBuildS, "s"),
		within("capacity_rps", c.CapacityRPS, 0, maxCalRateRPS, "requests per second"),
		within("capacity_cpus", c.CapacityCPUs, 0.01, maxCalCPUs, "CPUs"),
		within("capacity_lag_bound_ms", c.CapacityLagBoundMs, 0, maxCalLagMs, "ms"),
	}
	for i, s := range c.Sweep {
		at := fmt.Sprintf("sweep[%d].", i)
		checks = append(checks, within(at+"rate_rps", s.RateRPS, positive, maxCalRateRPS, "requests per second"))
		checks = append(checks, within(at+"errors", float64(s.Errors), 0, math.MaxInt64, "errors"))
		for j, l := range s.LagP99Ms {
			checks = append(checks, within(fmt.Sprintf("%slag_p99_ms[%d]", at, j), l, 0, maxCalLagMs, "ms"))
		}
	}
	for _, err := range checks {
		if err != nil {
			return err
		}
	}
	switch {
	case c.SendLagP50Ms > c.SendLagP99Ms || c.SendLagP99Ms > c.SendLagMaxMs:
		return fmt.Errorf("calibration.send_lag_p50_ms %v, p99 %v, max %v: want p50 <= p99 <= max", c.SendLagP50Ms, c.SendLagP99Ms, c.SendLagMaxMs)
	case c.SleepOvershootP50Us > c.SleepOvershootP99Us:
		return fmt.Errorf("calibration.sleep_overshoot_p50_us %v: want at most the p99, %v", c.SleepOvershootP50Us, c.SleepOvershootP99Us)
	case c.CapacityRPS != 0 && !slices.ContainsFunc(c.Sweep, func(s SweepStepRow) bool { return s.Held && s.RateRPS == c.CapacityRPS }):
		return fmt.Errorf("calibration.capacity_rps %v: want 0 or the rate of a sweep step that held", c.CapacityRPS)
	}
	return nil
}

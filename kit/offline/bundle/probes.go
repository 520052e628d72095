package bundle

import (
	"errors"
	"io/fs"
	"math"
	"path/filepath"
	"reflect"
	"slices"
)

// ProbeFile is every bundle's table of the speed probe (kit/incontainer/speedprobe):
// the host's speed before and after each run, in the run's API limits.
const ProbeFile = "probes.csv"

// ProbeDrift is how far a run's probe may be from the bundle's median before the run
// is marked: a host more than 10% slower or faster than usual is not the same host.
const ProbeDrift = 0.10

// ProbeRow is one run's probes (probes.csv): the probe's speed before and after the
// run's load, from its thread CPU time, and how that compares with the bundle's median.
type ProbeRow struct {
	RunID     string `csv:"run_id"`
	Condition string `csv:"condition"`
	// BeforeMBPerS and AfterMBPerS are the probe's MB (10^6 bytes) hashed per second of
	// its thread's CPU time; absent when that probe did not run.
	BeforeMBPerS Opt `csv:"before_mb_per_s"`
	AfterMBPerS  Opt `csv:"after_mb_per_s"`
	// SpeedMBPerS is their mean (either alone when one is absent); Relative is it over
	// the bundle's median of them; Drifted says Relative is more than ProbeDrift off 1.
	SpeedMBPerS Opt  `csv:"speed_mb_per_s"`
	Relative    Opt  `csv:"relative_speed"`
	Drifted     bool `csv:"drifted"`
}

// ProbeSummary is the probe's spread over a bundle, for its manifest.
type ProbeSummary struct {
	Kernel       string  `json:"kernel"`
	Runs         int     `json:"runs"` // runs with a speed
	MedianMBPerS float64 `json:"median_mb_per_s"`
	MinMBPerS    float64 `json:"min_mb_per_s"`
	MaxMBPerS    float64 `json:"max_mb_per_s"`
	Drifted      int     `json:"drifted_runs"`
}

// DeriveProbes fills each row's speed, its speed relative to the bundle's median, and
// whether it drifted, and sums them up: the one derivation, for writing and verifying.
func DeriveProbes(rows []ProbeRow, kernel string) ([]ProbeRow, *ProbeSummary) {
	out := slices.Clone(rows)
	var speeds []float64
	for i, r := range out {
		b, a := float64(r.BeforeMBPerS), float64(r.AfterMBPerS)
		switch {
		case b > 0 && a > 0:
			out[i].SpeedMBPerS = Opt((a + b) / 2)
		case b > 0:
			out[i].SpeedMBPerS = Opt(b)
		case a > 0:
			out[i].SpeedMBPerS = Opt(a)
		default:
			out[i].SpeedMBPerS = None
		}
		if s := float64(out[i].SpeedMBPerS); s > 0 {
			speeds = append(speeds, s)
		}
	}
	if len(speeds) == 0 {
		for i := range out {
			out[i].Relative, out[i].Drifted = None, false
		}
		return out, nil
	}
	slices.Sort(speeds)
	median := speeds[len(speeds)/2]
	if len(speeds)%2 == 0 {
		median = (speeds[len(speeds)/2-1] + speeds[len(speeds)/2]) / 2
	}
	sum := &ProbeSummary{Kernel: kernel, Runs: len(speeds), MedianMBPerS: median, MinMBPerS: speeds[0], MaxMBPerS: speeds[len(speeds)-1]}
	for i := range out {
		s := float64(out[i].SpeedMBPerS)
		if !(s > 0) {
			out[i].Relative, out[i].Drifted = None, false
			continue
		}
		rel := s / median
		out[i].Relative, out[i].Drifted = Opt(rel), math.Abs(rel-1) > ProbeDrift
		if out[i].Drifted {
			sum.Drifted++
		}
	}
	return out, sum
}

// MBPerS is a probe result's speed: MB hashed per second of thread CPU time.
func MBPerS(bytes, cpuNanos int64) Opt {
	if bytes <= 0 || cpuNanos <= 0 {
		return None
	}
	return Opt(float64(bytes) / float64(cpuNanos) * 1e3)
}

// probeTable describes probes.csv in every bundle's data package.
var probeTable = Table{File: ProbeFile, Name: "probes", Row: reflect.TypeFor[ProbeRow](), Key: []string{"run_id"},
	Text: "One row per run the speed probe ran around (absent when it was off): the same fixed CPU-bound work, timed before and after the run's load in a container with the run's API limits. " +
		"A run whose speed is more than 10% off the bundle's median ran on another host than its neighbours, for all its figures can tell."}

var probeDocs = map[string]Doc{
	"run_id":          {Unit: "", Text: "The run, as runs.csv names it."},
	"condition":       {Unit: "", Text: "The run's condition, its axes joined by /."},
	"before_mb_per_s": {Unit: "MB/s", Text: "The probe's MB (10^6 bytes) of SHA-256 per second of its thread's CPU time, just before the run; missing when that probe failed."},
	"after_mb_per_s":  {Unit: "MB/s", Text: "The same just after the run."},
	"speed_mb_per_s":  {Unit: "MB/s", Text: "The mean of before and after (either alone when one is missing); missing when neither ran."},
	"relative_speed":  {Unit: "1", Text: "speed_mb_per_s over the bundle's median of it: above 1 a faster host than usual."},
	"drifted":         {Unit: "", Text: "relative_speed is more than 10% off 1: the host's speed drifted under this run."},
}

// EncodeProbes writes probes.csv.
func EncodeProbes(rows []ProbeRow) ([]byte, error) { return marshalCSV(&rows) }

// Layout is a bundle's files in the order an archive holds them: the experiment's data
// files, then the files every bundle may have (the data package, the probes), then
// SHA256SUMS.
func Layout(dataFiles ...string) []string {
	return append(append(slices.Clone(dataFiles), OptionalFiles...), SumsFile)
}

// ReadProbes reads the probes.csv of the bundle folder dir, for a matrix that goes on
// with it; none when the bundle has none.
func ReadProbes(dir string) ([]ProbeRow, error) {
	body, err := readLimited(filepath.Join(dir, ProbeFile), MaxFileBytes(ProbeFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	d := DecodeCSV[ProbeRow](ProbeFile, body, 1)
	if len(d.Errs) > 0 {
		return nil, d.Errs[0]
	}
	return d.Rows, nil
}

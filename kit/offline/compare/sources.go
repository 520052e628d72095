package compare

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/docker/go-units"

	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/results/reference"
)

// Side is one source of a comparison as an experiment hands it over: a bundle's rows
// and manifest, or a publication's figures.
type Side struct {
	Label string
	Rows  []Row
	// Common is the bundle's common manifest (engine, kit host, platform); nil for the
	// published figures.
	Common *bundle.Common
	// Manifest is the bundle's whole manifest, any value that encodes as JSON: every
	// field in which bundles differ is a warning, but times and run counts.
	Manifest any
	// Host are facts about where it was measured beyond the common manifest's (an API's
	// runtime); for the published figures, all of them (PublishedHost).
	Host []KV
}

// Input is a comparison as an experiment asks for it.
type Input struct {
	Experiment string
	// Sides are the sources, the baseline first (the published figures, when asked for).
	Sides   []Side
	Metrics []Metric
	// Published is the publication's setup when the first side is its figures: a
	// bundle parameter that differs from it is a warning.
	Published *reference.Setup
	// Warnings and Legend are the experiment's own: how its figures are to be read.
	Warnings []string
	Legend   []string
}

// PublishedLabel names the article's figures as a source.
const PublishedLabel = "published"

// InputError is a comparison the input cannot make (a --match key no condition has):
// bad input, not a failure.
type InputError struct{ Msg string }

func (e InputError) Error() string { return e.Msg }

// Write compares the sides with the engine and renders the result in format on out;
// warnings (every way the sources were not measured alike) go to warn, and into the
// JSON.
func Write(out, warn io.Writer, in Input, opt Options, format string, wide bool) error {
	if !slices.Contains(Formats, format) && format != "" {
		return InputError{fmt.Sprintf("unknown format %q (known: %s)", format, strings.Join(Formats, ", "))}
	}
	res, notes, err := Run(in, opt)
	if err != nil {
		return err
	}
	for _, w := range notes.Warnings {
		io.WriteString(warn, w+"\n")
	}
	if len(notes.Warnings) > 0 {
		io.WriteString(warn, "\n")
	}
	return res.Render(out, format, notes, wide, DefaultWidth)
}

// Run compares the sides: the engine's result, and the warnings and legend.
func Run(in Input, opt Options) (Result, Notes, error) {
	var srcs []Source
	for _, s := range in.Sides {
		host := s.Host
		if s.Common != nil {
			host = append(HostOf(s.Common), s.Host...)
		}
		srcs = append(srcs, Source{Label: s.Label, Rows: s.Rows, Host: host})
	}
	if len(opt.Match) == 0 && in.Published != nil && in.Published.API != "" {
		// The publication measured one API: set every bundle's against it.
		var keys []string
		for _, s := range in.Sides {
			for _, r := range s.Rows {
				for _, kv := range r.Condition {
					if kv.Key != "api" && !slices.Contains(keys, kv.Key) {
						keys = append(keys, kv.Key)
					}
				}
			}
		}
		opt.Match = keys
	}
	opt.Experiment = in.Experiment
	if len(opt.Metrics) == 0 {
		opt.Metrics = in.Metrics
	}
	res, err := Compare(srcs, opt)
	if err != nil {
		return res, Notes{}, InputError{err.Error()}
	}
	legend := slices.Clone(in.Legend)
	if in.Published != nil {
		legend = append(legend, PublishedLabel+": "+in.Published.Source+
			"; the published figures come without their runs, so a change against them is a one-sample t-test on the bundle's runs.")
	}
	return res, Notes{Warnings: append(append(Warnings(in), in.Warnings...), speedWarnings(in.Sides, res)...), Legend: legend}, nil
}

// speedWarnings say where the hosts' speeds (the speed probe's medians) differ by more
// than a change the comparison counts: that change may be the host's, not the logger's.
func speedWarnings(sides []Side, res Result) []string {
	speed := map[string]float64{}
	for _, s := range sides {
		if s.Common != nil && s.Common.SpeedProbe != nil && s.Common.SpeedProbe.MedianMBPerS > 0 {
			speed[s.Label] = s.Common.SpeedProbe.MedianMBPerS
		}
	}
	base, ok := speed[res.Sources[0]]
	if !ok {
		return nil
	}
	var out []string
	for _, label := range res.Sources[1:] {
		sp, ok := speed[label]
		if !ok {
			continue
		}
		diff := (sp/base - 1) * 100
		within := countedWithin(res, label, diff)
		if math.Abs(diff) >= 1 {
			out = append(out, fmt.Sprintf("WARNING: %s's host is %+.1f%% the speed of %s's (speed probe medians, %.0f against %.0f MB/s): %d counted changes are no larger than that, and may be the host's, not the logger's",
				label, diff, res.Sources[0], sp, base, within))
		}
	}
	return append(out, requestPathWarnings(sides, res)...)
}

// requestPathWarnings say where the hosts' request paths (the request-path probe's
// medians of CPU µs a loopback request) differ by more than bundle.ProbeDrift: a
// request, and so a rate or a request's CPU, costs that much more on one host than on
// the other before any logger is counted. The arithmetic's speed may be the same on
// both (it was, on hosts whose request path ran 2.6 times apart).
func requestPathWarnings(sides []Side, res Result) []string {
	cpu := map[string]float64{}
	for _, s := range sides {
		if s.Common != nil && s.Common.SpeedProbe != nil && s.Common.SpeedProbe.RequestPath != nil && s.Common.SpeedProbe.RequestPath.MedianCPUUs > 0 {
			cpu[s.Label] = s.Common.SpeedProbe.RequestPath.MedianCPUUs
		}
	}
	base, ok := cpu[res.Sources[0]]
	if !ok {
		return nil
	}
	var out []string
	for _, label := range res.Sources[1:] {
		us, ok := cpu[label]
		if !ok {
			continue
		}
		// A path that takes less CPU a request is a faster one: speed is 1 / CPU.
		if diff := (base/us - 1) * 100; math.Abs(diff) > bundle.ProbeDrift*100 {
			out = append(out, fmt.Sprintf("WARNING: %s's request path is %+.1f%% the speed of %s's (request-path probe medians, %.1f against %.1f µs of CPU a loopback request), more than %g%% apart: %d counted changes are no larger than that, and may be the host's, not the logger's",
				label, diff, res.Sources[0], us, base, bundle.ProbeDrift*100, countedWithin(res, label, diff)))
		}
	}
	return out
}

// countedWithin counts the changes the comparison counts in label's columns that are
// no larger than pct (either way).
func countedWithin(res Result, label string, pct float64) int {
	n := 0
	for _, m := range res.Metrics {
		for _, l := range m.Rows {
			for j, c := range l.Cells {
				if res.Columns[j].Source == label && c.Changed != nil && *c.Changed && math.Abs(c.ChangePct) <= math.Abs(pct) {
					n++
				}
			}
		}
	}
	return n
}

// PublishedHost is a publication's host, for the hosts table.
func PublishedHost(s reference.Setup) []KV {
	h := s.Host
	return []KV{{"host", h.Name}, {"arch", h.Architecture}, {"cpus", h.CPUs}, {"memory", h.Memory}, {"kernel", ""}, {"os", h.OS},
		{"engine", ""}, {"cgroup", ""}, {"platform", ""}, {"kit", ""}, {"kit_host", ""}, {"runtime", h.Runtime}}
}

// HostOf says where a bundle was measured, from its common manifest.
func HostOf(c *bundle.Common) []KV {
	e := c.Engine
	cgroup := ""
	if e.CgroupVersion != "" {
		cgroup = strings.TrimSpace("v" + e.CgroupVersion + " " + e.CgroupDriver)
	}
	memory := ""
	if e.MemoryBytes > 0 {
		memory = units.BytesSize(float64(e.MemoryBytes))
	}
	cpus := ""
	if e.CPUs > 0 {
		cpus = strconv.Itoa(e.CPUs)
	}
	platform := c.Platform
	if c.Emulated {
		platform += " (emulated on " + e.Platform + ")"
	}
	kit := strings.TrimSpace(c.KitVersion + " " + shortCommit(c.KitCommit))
	kitHost := strings.Trim(c.KitHost.OS+"/"+c.KitHost.Arch+" "+c.KitHost.GoVersion, "/ ")
	speed := "not recorded"
	if p := c.SpeedProbe; p != nil {
		speed = fmt.Sprintf("%.0f MB/s probe (%.0f-%.0f)", p.MedianMBPerS, p.MinMBPerS, p.MaxMBPerS)
		if r := p.RequestPath; r != nil && r.Runs > 0 {
			speed += fmt.Sprintf("; request path %.1f µs CPU (%.1f-%.1f), write %.0f ns", r.MedianCPUUs, r.MinCPUUs, r.MaxCPUUs, r.MedianSyscallNs)
		}
	}
	return []KV{{"host", e.Host}, {"speed", speed}, {"arch", e.Architecture}, {"cpus", cpus}, {"memory", memory}, {"kernel", e.Kernel},
		{"os", e.OS}, {"engine", e.EngineVersion}, {"cgroup", cgroup}, {"platform", platform}, {"kit", kit}, {"kit_host", kitHost}}
}

func shortCommit(s string) string {
	if dirty := strings.HasSuffix(s, "+dirty"); dirty && len(s) > 18 {
		return s[:12] + "+dirty"
	}
	if len(s) > 12 && !strings.Contains(s, "+") {
		return s[:12]
	}
	return s
}

// Warnings lists every difference in how the bundles were measured: incomplete
// bundles, failed runs, every manifest field that differs between them (but times and
// run counts), and every parameter unlike the publication's.
func Warnings(in Input) []string {
	var out []string
	var labels []string
	var flat []map[string]string
	for _, s := range in.Sides {
		if s.Common == nil {
			continue
		}
		m := s.Common
		if !m.Complete {
			out = append(out, fmt.Sprintf("WARNING: %s is incomplete: %d of %d planned runs", s.Label, m.RunsCompleted-m.RunsSuperseded, m.RunsPlanned))
		}
		if failed := m.RunsCompleted - m.RunsSuperseded - m.RunsVerified; failed > 0 {
			out = append(out, fmt.Sprintf("WARNING: %s: %d of %d runs failed; they count in no figure", s.Label, failed, m.RunsCompleted-m.RunsSuperseded))
		}
		labels = append(labels, s.Label)
		flat = append(flat, Flatten(s.Manifest))
	}
	// A set, not a list searched for each path: a manifest's keys are as many as its
	// writer liked (a map of versions), and a search per key grew with their square.
	seen := map[string]bool{}
	var paths []string
	for _, f := range flat {
		for p := range f {
			if !seen[p] {
				seen[p] = true
				paths = append(paths, p)
			}
		}
	}
	sort.Strings(paths)
	var published map[string]string
	if in.Published != nil {
		published = in.Published.FlatParameters()
	}
	for _, p := range paths {
		values := make([]string, len(flat))
		for i, f := range flat {
			v, ok := f[p]
			if !ok {
				v = "(none)"
			}
			values[i] = v
		}
		if want, ok := published[p]; ok {
			for i, v := range values {
				if v != want {
					out = append(out, fmt.Sprintf("WARNING: %s differs from the published setup: %s %s, published %s", p, labels[i], v, want))
				}
			}
		}
		if len(values) < 2 || allSame(values) {
			continue
		}
		var parts []string
		for i, v := range values {
			parts = append(parts, labels[i]+" "+v)
		}
		out = append(out, fmt.Sprintf("WARNING: bundles differ in %s: %s", p, strings.Join(parts, ", ")))
	}
	return out
}

func allSame(values []string) bool {
	for _, v := range values[1:] {
		if v != values[0] {
			return false
		}
	}
	return true
}

// unlike are the manifest fields that differ between any two bundles without making
// their figures unlike: when and how they were made, and how far they got (the
// warnings above say what matters of that). The engine, the kit host and the speed
// probe's spread are in the hosts table, and the probe's medians have warnings of their
// own (speedWarnings).
var unlike = []string{"schema_version", "command", "created_utc", "finished_utc", "runs_planned", "runs_completed", "runs_verified",
	"runs_superseded", "complete", "interrupted", "engine", "kit_host", "engine_context", "engine_endpoint", "calibration", "speed_probe"}

// Flatten lists a manifest's fields by dotted path ("parameters.limits.api_cpus") with
// their JSON values, but the fields in which any two bundles differ without their
// figures differing. An array of objects with a "role" is keyed by role
// ("images.api.binary_sha256"); digests are cut to 12 characters.
func Flatten(manifest any) map[string]string {
	out := map[string]string{}
	var doc any
	body, err := json.Marshal(manifest)
	if err != nil || json.Unmarshal(body, &doc) != nil {
		return out
	}
	top, ok := doc.(map[string]any)
	if !ok {
		return out
	}
	for k, v := range top {
		if !slices.Contains(unlike, k) {
			walk(k, v, out)
		}
	}
	return out
}

// imageFacts are the fields of a role's entry that name it or follow from another
// (an image's ID and size follow from its contents).
var imageFacts = []string{"role", "id", "tag", "size_bytes"}

func walk(path string, v any, out map[string]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			walk(path+"."+k, val, out)
		}
		return
	case []any:
		keyed := len(x) > 0
		for _, e := range x {
			m, ok := e.(map[string]any)
			if _, has := m["role"].(string); !ok || !has {
				keyed = false
			}
		}
		if keyed {
			for _, e := range x {
				m := e.(map[string]any)
				role := m["role"].(string)
				for k, val := range m {
					if !slices.Contains(imageFacts, k) {
						walk(path+"."+role+"."+k, val, out)
					}
				}
			}
			return
		}
	case string:
		if strings.HasSuffix(path, "sha256") && len(x) > 12 {
			x = x[:12]
		}
		body, _ := json.Marshal(x)
		out[path] = string(body)
		return
	}
	body, _ := json.Marshal(v)
	out[path] = string(body)
}

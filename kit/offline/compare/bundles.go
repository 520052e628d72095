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

// Labeled is a bundle and the name it goes by in a comparison (its folder's).
type Labeled struct {
	Label  string
	Bundle *bundle.Bundle
}

// BundleOptions tune a comparison of fifo-stall bundles; the zero value takes the
// defaults.
type BundleOptions struct {
	// Published, when set, puts the article's figures first, as the column every bundle
	// is measured against, under the API the article measured (its setup's "api").
	Published reference.Figures
	Resamples int    // bootstrap resamples per interval (DefaultResamples)
	Seed      uint64 // (DefaultSeed)
	// Match names the condition keys that must agree (api, mode, reader); empty: see
	// Compare.
	Match []string
}

// Comparison is several bundles side by side.
type Comparison struct {
	Result Result
	// Notes hold the warnings (every way the sources were not measured alike or are not
	// whole) and the legend.
	Notes Notes
}

// PublishedLabel names the article's figures as a source.
const PublishedLabel = "published"

// pubSetup is the fifo-stall publication's setup (results/reference): its host for the
// hosts table, its API for its rows, its parameters for the warnings.
var pubSetup = reference.MustSetup("fifo-stall")

// FifoStallMetrics are the fifo-stall experiment's metrics in the order compare shows
// them; the Wide ones only with --wide.
var FifoStallMetrics = []Metric{
	{Name: "p99_ms", Title: "p99 latency"},
	{Name: "p50_ms", Title: "median latency"},
	{Name: "drain_s", Title: "drain after the last response"},
	{Name: "rps_to_logs_read", Title: "throughput to the last log byte read"},
	{Name: "api_cpu_cores", Title: "API CPU"},
	{Name: "mean_ms", Title: "mean latency", Wide: true},
	{Name: "rps_to_last_response", Title: "throughput to the last response", Wide: true},
	{Name: "backlog_max_bytes", Title: "largest log backlog, mean over runs", Wide: true},
}

// Rows are a fifo-stall bundle's rows for the comparison engine: per condition, each
// verified run's request latencies (p99, p50, mean) and its per-run figures (drain,
// throughputs, backlog, CPU). The throughputs' values are conditions.csv's (requests
// over summed time); their intervals resample the per-run figures.
func Rows(b *bundle.Bundle) []Row {
	var out []Row
	for _, c := range bundle.DeriveConditions(b.Runs, b.Manifest.Parameters) {
		cond := []KV{{"api", c.API}, {"mode", c.Mode}, {"reader", c.Reader}}
		var lat [][]float64
		var drain, rpsA, rpsB, backlog, cpu [][]float64
		for _, r := range b.Runs {
			run := r.Run
			if !run.Verified || run.Superseded || run.API != c.API || run.Mode != c.Mode || run.Reader != c.Reader {
				continue
			}
			var l []float64
			for _, q := range r.Requests {
				l = append(l, q.LatencyMs)
			}
			lat = append(lat, l)
			drain = append(drain, []float64{run.DrainS})
			rpsA = append(rpsA, []float64{perSecond(run.Requests, run.ToLastResponseS)})
			rpsB = append(rpsB, []float64{perSecond(run.Requests, run.ToLogsReadS)})
			backlog = append(backlog, []float64{float64(run.BacklogMaxBytes)})
			cpu = append(cpu, []float64{run.APICPUCores})
		}
		p99 := Measured(cond, "p99_ms", "ms", Quantile(99), lat)
		p99.Requests = c.Requests
		p50 := Measured(cond, "p50_ms", "ms", Quantile(50), lat)
		mean := Measured(cond, "mean_ms", "ms", Mean{}, lat)
		a := Measured(cond, "rps_to_last_response", "req/s", Mean{}, rpsA)
		a.Value = float64(c.RPSToLastResponse)
		b := Measured(cond, "rps_to_logs_read", "req/s", Mean{}, rpsB)
		b.Value = float64(c.RPSToLogsRead)
		out = append(out, p99, p50, Measured(cond, "drain_s", "s", Mean{}, drain), b,
			Measured(cond, "api_cpu_cores", "cores", Mean{}, cpu), mean, a,
			Measured(cond, "backlog_max_bytes", "B", Mean{}, backlog))
	}
	return out
}

func perSecond(n int, s float64) float64 {
	if s <= 0 {
		return math.NaN()
	}
	return float64(n) / s
}

// PublishedRows are the article's figures as fixed rows, for every condition the
// bundles have, labelled with the API the article measured.
func PublishedRows(pub reference.Figures, sources []Labeled) []Row {
	metrics := []struct{ name, unit, published string }{
		{"p99_ms", "ms", "p99_pooled"}, {"drain_s", "s", "drain_mean"}, {"rps_to_logs_read", "req/s", "rps_to_logs_read"},
		{"api_cpu_cores", "cores", "cpu_cores_mean"}, {"rps_to_last_response", "req/s", "rps_to_last_response"},
	}
	type mr struct{ mode, reader string }
	var order []mr
	for _, s := range sources {
		for _, c := range s.Bundle.Manifest.Parameters.Modes {
			for _, r := range s.Bundle.Manifest.Parameters.Readers {
				if !slices.Contains(order, mr{c, r}) {
					order = append(order, mr{c, r})
				}
			}
		}
	}
	var out []Row
	for _, k := range order {
		cond := []KV{{"api", pubSetup.API}, {"mode", k.mode}, {"reader", k.reader}}
		for _, m := range metrics {
			if v, ok := pub.Lookup(k.mode, k.reader, m.published); ok {
				row := Fixed(cond, m.name, m.unit, v)
				if m.name == "p99_ms" {
					row.Requests = pubSetup.RequestsPerCondition
				}
				out = append(out, row)
			}
		}
	}
	return out
}

// Bundles compares bundles condition by condition with the engine (see Compare): the
// first source (the published figures with Options.Published, else the first bundle)
// is the baseline. With the published figures and no BundleOptions.Match, rows are matched
// by mode and reader: the article measured one API.
func Bundles(sources []Labeled, opt BundleOptions) (Comparison, error) {
	var srcs []Source
	published := opt.Published != nil
	match := opt.Match
	if published {
		srcs = append(srcs, Source{Label: PublishedLabel, Rows: PublishedRows(opt.Published, sources), Host: publishedHost()})
		if len(match) == 0 {
			match = []string{"mode", "reader"}
		}
	}
	for _, s := range sources {
		srcs = append(srcs, Source{Label: s.Label, Rows: Rows(s.Bundle), Host: hostOf(s.Bundle.Manifest)})
	}
	res, err := Compare(srcs, Options{Match: match, Resamples: opt.Resamples, Seed: opt.Seed, Metrics: FifoStallMetrics})
	if err != nil {
		return Comparison{}, err
	}
	var legend []string
	if published {
		legend = append(legend, "published: the article's figures ("+pubSetup.Source+"), api="+pubSetup.API+
			"; they come without their runs, so a change against them is judged by the bundle's resamples alone.")
	}
	return Comparison{Result: res, Notes: Notes{Warnings: warnings(sources, published), Legend: legend}}, nil
}

// Write renders the comparison (see Result.Render).
func (c Comparison) Write(w io.Writer, format string, wide bool) error {
	return c.Result.Render(w, format, c.Notes, wide, DefaultWidth)
}

func publishedHost() []KV {
	h := pubSetup.Host
	return []KV{{"host", h.Name}, {"arch", h.Architecture}, {"cpus", h.CPUs}, {"memory", h.Memory}, {"os", h.OS}, {"api_runtime", h.Runtime}}
}

// hostOf says where a bundle was measured.
func hostOf(m bundle.Manifest) []KV {
	e := m.Engine
	var runtimes []string
	for _, api := range m.Parameters.APIs {
		runtimes = append(runtimes, apiRuntime(api, m.Images))
	}
	cgroup := ""
	if e.CgroupVersion != "" {
		cgroup = strings.TrimSpace("v" + e.CgroupVersion + " " + e.CgroupDriver)
	}
	memory := ""
	if e.MemoryBytes > 0 {
		memory = units.BytesSize(float64(e.MemoryBytes))
	}
	return []KV{{"host", e.Host}, {"arch", e.Architecture}, {"cpus", strconv.Itoa(e.CPUs)}, {"memory", memory}, {"kernel", e.Kernel},
		{"os", e.OS}, {"engine", e.EngineVersion}, {"cgroup", cgroup}, {"api_runtime", strings.Join(runtimes, "; ")}}
}

// apiRuntime names an API with the runtime its image reported: the image of role
// "api-<name>", or of role "api" when its runtime names the API.
func apiRuntime(api string, images []bundle.Image) string {
	for _, img := range images {
		if img.Runtime == "" {
			continue
		}
		if img.Role == "api-"+api || img.Role == "api" && strings.HasPrefix(strings.ToLower(img.Runtime), strings.ToLower(api)) {
			if strings.HasPrefix(strings.ToLower(img.Runtime), strings.ToLower(api)) {
				return img.Runtime
			}
			return api + " (" + img.Runtime + ")"
		}
	}
	return api
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// warnings lists every difference in how the sources were measured.
func warnings(sources []Labeled, published bool) []string {
	var out []string
	for _, s := range sources {
		m := s.Bundle.Manifest
		if !m.Complete {
			out = append(out, fmt.Sprintf("WARNING: %s is incomplete: %d of %d planned runs", s.Label, m.RunsCompleted, m.RunsPlanned))
		}
		if failed := m.RunsCompleted - m.RunsVerified; failed > 0 {
			out = append(out, fmt.Sprintf("WARNING: %s: %d of %d runs failed; they count in runs, never in figures", s.Label, failed, m.RunsCompleted))
		}
	}
	flat := make([]map[string]string, len(sources))
	for i, s := range sources {
		flat[i] = flatten(s.Bundle.Manifest)
	}
	var paths []string
	union := map[string]bool{}
	for _, f := range flat {
		for p := range f {
			if !union[p] {
				union[p] = true
				paths = append(paths, p)
			}
		}
	}
	sort.Strings(paths)
	for _, p := range paths {
		values := make([]string, len(sources))
		for i, f := range flat {
			v, ok := f[p]
			if !ok {
				v = "(none)"
			}
			values[i] = v
		}
		if published {
			if want, ok := pubSetup.FlatParameters()[p]; ok {
				for i, v := range values {
					if v != want {
						out = append(out, fmt.Sprintf("WARNING: %s differs from the published setup: %s %s, published %s", p, sources[i].Label, v, want))
					}
				}
			}
		}
		if len(sources) < 2 || allSame(values) {
			continue
		}
		var parts []string
		for i, v := range values {
			parts = append(parts, sources[i].Label+" "+v)
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

// flatten lists what a comparison must hold equal: every parameter (limits included),
// the kit's version, and each image's binary digest and runtime, by a dotted path.
func flatten(m bundle.Manifest) map[string]string {
	out := map[string]string{"kit_version": m.KitVersion}
	var params any
	if body, err := json.Marshal(m.Parameters); err == nil && json.Unmarshal(body, &params) == nil {
		walk("parameters", params, out)
	}
	for _, img := range m.Images {
		out["images."+img.Role+".binary_sha256"] = shortDigest(img.BinarySHA256)
		if img.Runtime != "" {
			out["images."+img.Role+".runtime"] = img.Runtime
		}
	}
	return out
}

func walk(path string, v any, out map[string]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			walk(path+"."+k, val, out)
		}
	default:
		body, _ := json.Marshal(x)
		out[path] = string(body)
	}
}

func shortDigest(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return dash(s)
}

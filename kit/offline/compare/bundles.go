package compare

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
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

// Options tune a comparison; the zero value takes the defaults.
type Options struct {
	// Published, when set, puts the article's figures first, as the column every bundle
	// is measured against.
	Published reference.Figures
	Resamples int    // bootstrap resamples per p99 (DefaultResamples)
	Seed      uint64 // (DefaultSeed)
}

// Comparison is several bundles side by side.
type Comparison struct {
	// Conditions has one row per condition and source, grouped by condition.
	Conditions Table
	// Hosts has one row per source: where it was measured.
	Hosts Table
	// Warnings name every way the sources were not measured alike (parameters, limits,
	// images) or are not whole (failed runs, an incomplete matrix), one per line.
	Warnings []string
	// Legend says how to read the columns.
	Legend []string
}

// PublishedLabel names the article's figures as a source.
const PublishedLabel = "published"

// published is the fifo-stall publication's setup (results/reference): its host for the
// hosts table, its parameters for the warnings, its runs and requests per condition.
var pubSetup = reference.MustSetup("fifo-stall")

func publishedHost() []string {
	h := pubSetup.Host
	return []string{PublishedLabel, h.Name, h.Architecture, h.CPUs, h.Memory, "-", h.OS, "-", "-", h.Runtime}
}

// Bundles compares bundles condition by condition (api x mode x reader). The first
// source (the published figures with Options.Published, else the first bundle) is the
// baseline: each other source's p99 is given as a ratio to it and as a difference with
// a 95% bootstrap confidence interval, "beyond noise" when that interval excludes 0.
//
// A p99's interval resamples the condition's pooled per-request latencies (verified
// runs only, as conditions.csv pools them) with replacement, Options.Resamples times,
// and takes the nearest-rank p99 of each resample; the difference's interval pairs two
// bundles' resamples. The published figures come without their requests, so against
// them the difference's interval is the bundle's interval minus the published value.
// Resampling is seeded: the same bundles always give the same table.
func Bundles(sources []Labeled, opt Options) Comparison {
	if opt.Resamples <= 0 {
		opt.Resamples = DefaultResamples
	}
	if opt.Seed == 0 {
		opt.Seed = DefaultSeed
	}
	type key struct{ api, mode, reader string }
	type cell struct {
		cond bundle.ConditionRow
		lat  []float64
	}
	cells := make([]map[key]cell, len(sources))
	var order []key
	seen := map[key]bool{}
	for i, s := range sources {
		cells[i] = map[key]cell{}
		conds := bundle.DeriveConditions(s.Bundle.Runs, s.Bundle.Manifest.Parameters)
		for _, c := range conds {
			k := key{c.API, c.Mode, c.Reader}
			var lat []float64
			for _, r := range s.Bundle.Runs {
				if r.Run.Verified && r.Run.API == c.API && r.Run.Mode == c.Mode && r.Run.Reader == c.Reader {
					for _, q := range r.Requests {
						lat = append(lat, q.LatencyMs)
					}
				}
			}
			cells[i][k] = cell{c, lat}
			if !seen[k] {
				seen[k], order = true, append(order, k)
			}
		}
	}

	t := Table{Group: 3, Header: []string{
		"api", "mode", "reader", "source", "runs", "requests",
		"p99_ms", "p99_ci95_ms", "p99_runs_ms", "p99_x_first", "p99_diff_ci95_ms", "noise",
		"mean_ms", "drain_s", "rps_to_last_response", "rps_to_logs_read", "api_cpu_cores",
	}}
	published := opt.Published != nil
	for _, k := range order {
		name := k.api + "/" + k.mode + "/" + k.reader
		// The baseline: its p99 and, for a bundle, its resampled p99s.
		baseP99 := math.NaN()
		var baseBoot []float64
		if published {
			if v, ok := opt.Published.Lookup(k.mode, k.reader, "p99_pooled"); ok {
				baseP99 = v
			}
			t.Rows = append(t.Rows, publishedRow(k.api, k.mode, k.reader, opt.Published))
		}
		for i, s := range sources {
			c, ok := cells[i][k]
			if !ok {
				row := []string{k.api, k.mode, k.reader, s.Label}
				for len(row) < len(t.Header) {
					row = append(row, "-")
				}
				t.Rows = append(t.Rows, row)
				continue
			}
			boot := bootstrapP99(c.lat, opt.Resamples, rngFor(opt.Seed, name, i))
			lo, hi := interval(boot)
			p99 := float64(c.cond.P99Ms)
			var ratio, diff, noise string
			switch {
			case i == 0 && !published:
				baseP99, baseBoot = p99, boot
				ratio, noise = "1x", "baseline"
			case published && !math.IsNaN(baseP99) && len(boot) > 0:
				ratio = times(p99 / baseP99)
				dlo, dhi := lo-baseP99, hi-baseP99
				diff, noise = ci(dlo, dhi), beyond(dlo, dhi)
			case !published && len(baseBoot) > 0 && len(boot) > 0:
				ratio = times(p99 / baseP99)
				dlo, dhi := interval(differences(baseBoot, boot))
				diff, noise = ci(dlo, dhi), beyond(dlo, dhi)
			default:
				ratio, diff, noise = "-", "-", "-"
			}
			cd := c.cond
			t.Rows = append(t.Rows, []string{
				k.api, k.mode, k.reader, s.Label,
				fmt.Sprintf("%d/%d", cd.RunsVerified, cd.Runs), strconv.Itoa(cd.Requests),
				Figure(p99), ci(lo, hi), span(float64(cd.P99RunMinMs), float64(cd.P99RunMaxMs)), ratio, diff, noise,
				Figure(float64(cd.MeanMs)), Figure(float64(cd.DrainS)), Figure(float64(cd.RPSToLastResponse)), Figure(float64(cd.RPSToLogsRead)), Figure(float64(cd.APICPUCores)),
			})
		}
	}
	legend := []string{
		fmt.Sprintf("p99_ci95_ms: 95%% bootstrap confidence interval of the pooled p99 (%d resamples of the verified runs' requests).", opt.Resamples),
		`p99_x_first, p99_diff_ci95_ms: against the first source; "beyond noise" when the difference's interval excludes 0.`,
	}
	if published {
		legend = append(legend, "published: the article's figures ("+reference.Source+"), matched by mode and reader; they come without requests, "+
			"so a bundle is beyond noise when the published p99 lies outside the bundle's interval.")
	}
	return Comparison{Conditions: t, Hosts: hosts(sources, published), Warnings: warnings(sources, published), Legend: legend}
}

func publishedRow(api, mode, reader string, pub reference.Figures) []string {
	look := func(metric string) float64 {
		if v, ok := pub.Lookup(mode, reader, metric); ok {
			return v
		}
		return math.NaN()
	}
	p99 := look("p99_pooled")
	runs, requests := "-", "-"
	if !math.IsNaN(p99) {
		runs, requests = fmt.Sprintf("%d/%d", pubSetup.RunsPerCondition, pubSetup.RunsPerCondition), strconv.Itoa(pubSetup.RequestsPerCondition)
	}
	return []string{api, mode, reader, PublishedLabel, runs, requests,
		Figure(p99), "-", span(look("p99_run_min"), look("p99_run_max")), "1x", "", "baseline",
		"-", Figure(look("drain_mean")), Figure(look("rps_to_last_response")), Figure(look("rps_to_logs_read")), Figure(look("cpu_cores_mean"))}
}

func times(r float64) string {
	if math.IsNaN(r) || math.IsInf(r, 0) {
		return "-"
	}
	return Figure(r) + "x"
}

// ci writes an interval as [lo, hi].
func ci(lo, hi float64) string {
	if math.IsNaN(lo) || math.IsNaN(hi) {
		return "-"
	}
	return "[" + Figure(lo) + ", " + Figure(hi) + "]"
}

// beyond says whether a difference's interval excludes 0.
func beyond(lo, hi float64) string {
	switch {
	case math.IsNaN(lo) || math.IsNaN(hi):
		return "-"
	case lo > 0 || hi < 0:
		return "beyond noise"
	}
	return "within noise"
}

// hosts tabulates where each source was measured.
func hosts(sources []Labeled, published bool) Table {
	t := Table{Header: []string{"source", "host", "arch", "cpus", "memory", "kernel", "os", "engine", "cgroup", "api_runtime"}}
	if published {
		t.Rows = append(t.Rows, publishedHost())
	}
	for _, s := range sources {
		m := s.Bundle.Manifest
		e := m.Engine
		var runtimes []string
		for _, api := range m.Parameters.APIs {
			runtimes = append(runtimes, apiRuntime(api, m.Images))
		}
		runtime := dash(strings.Join(runtimes, "; "))
		cgroup := "-"
		if e.CgroupVersion != "" {
			cgroup = "v" + e.CgroupVersion
			if e.CgroupDriver != "" {
				cgroup += " " + e.CgroupDriver
			}
		}
		t.Rows = append(t.Rows, []string{s.Label, dash(e.Host), dash(e.Architecture), strconv.Itoa(e.CPUs),
			units.BytesSize(float64(e.MemoryBytes)), dash(e.Kernel), dash(e.OS), dash(e.EngineVersion), cgroup, runtime})
	}
	return t
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

// Write renders the comparison: text and markdown give the hosts, the conditions, the
// legend and (markdown) the warnings; csv only the conditions, one table being all CSV
// holds; json an object with all of them.
func (c Comparison) Write(w io.Writer, format string) error {
	switch format {
	case "text", "":
		if err := c.Hosts.Write(w, "text"); err != nil {
			return err
		}
		fmt.Fprintln(w)
		if err := c.Conditions.Write(w, "text"); err != nil {
			return err
		}
		fmt.Fprintln(w)
		_, err := fmt.Fprintln(w, strings.Join(c.Legend, "\n"))
		return err
	case "csv":
		return c.Conditions.Write(w, "csv")
	case "markdown":
		fmt.Fprintf(w, "### Hosts\n\n")
		c.Hosts.Write(w, "markdown")
		fmt.Fprintf(w, "\n### Conditions\n\n")
		c.Conditions.Write(w, "markdown")
		fmt.Fprintf(w, "\n%s\n", strings.Join(c.Legend, "\n\n"))
		if len(c.Warnings) > 0 {
			fmt.Fprintf(w, "\n### Warnings\n\n")
			for _, warn := range c.Warnings {
				fmt.Fprintf(w, "- %s\n", strings.TrimPrefix(warn, "WARNING: "))
			}
		}
		return nil
	case "json":
		doc := struct {
			Hosts      []map[string]string `json:"hosts"`
			Conditions []map[string]string `json:"conditions"`
			Warnings   []string            `json:"warnings"`
			Legend     []string            `json:"legend"`
		}{records(c.Hosts), records(c.Conditions), append([]string{}, c.Warnings...), c.Legend}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(doc)
	}
	return fmt.Errorf("unknown format %q (known: %s)", format, strings.Join(Formats, ", "))
}

func records(t Table) []map[string]string {
	out := make([]map[string]string, 0, len(t.Rows))
	for _, r := range t.Rows {
		m := map[string]string{}
		for i, h := range t.Header {
			if i < len(r) {
				m[h] = r[i]
			}
		}
		out = append(out, m)
	}
	return out
}

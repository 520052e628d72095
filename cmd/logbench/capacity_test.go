package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/host/engine"
	"github.com/logbench/logbench/kit/host/lab"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// kneeEngine is an engine whose service, in configuration LOG=name, holds a p99 of 2 ms
// up to capacity[name] req/s and 50 ms above it, answering every request it is sent;
// from lagFrom req/s on, the generator sends late (a send-lag p99 of 5 ms) and, its
// sends bunched, the p99 misses any target (50 ms). Its runs
// measure the whole planned 500 ms, as verify requires of a run that is data, and it
// takes 505 ms to answer, so that a run's wall time covers its measured interval. stopAfter, when set, interrupts the
// reproduction once that many runs have been performed.
type kneeEngine struct {
	fakeEngine
	capacity  map[string]float64
	knees     map[string][]float64 // with several searches: search n's capacity is knees[config][n-1], in place of capacity
	lagFrom   float64
	rates     map[string][]float64 // the rates each configuration was offered, in order
	arrivals  []string             // the arrivals each run was given
	stopAfter int
	cancel    context.CancelFunc
}

func (e *kneeEngine) ImageID(context.Context, string) (string, bool, error) {
	return "sha256:theirs", true, nil
}

func (e *kneeEngine) RunPod(ctx context.Context, spec experiment.PodSpec, _ io.Writer) (experiment.PodResult, error) {
	fs := flag.NewFlagSet("qpsload", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	gen := contract.DefaultQPSLoadArgs()
	gen.Bind(fs)
	if err := fs.Parse(spec.Containers[2].Cmd); err != nil {
		return experiment.PodResult{}, err
	}
	ready := contract.ForeignReady{OK: true, Probes: 1, AfterS: 0.001}
	exits := []contract.Exit{{Role: "api", Running: true}, {Role: "loadgen"}}
	if gen.ProbeOnly {
		body, _ := json.Marshal(contract.ForeignResult{Ready: ready})
		return experiment.PodResult{Result: body, Exits: exits}, nil
	}
	if e.stopAfter > 0 && e.pods >= e.stopAfter {
		e.cancel()
		return experiment.PodResult{}, ctx.Err()
	}
	e.pods++
	config := strings.TrimPrefix(strings.Join(spec.Containers[0].Env, ","), "LOG=")
	e.rates[config] = append(e.rates[config], gen.Rate)
	e.arrivals = append(e.arrivals, gen.Arrivals)
	time.Sleep(505 * time.Millisecond) // the run lasts at least its measured interval
	const measured = 0.5
	n := int64(gen.Rate * measured)
	p99, lag := 2.0, 0.1
	knee := e.capacity[config]
	if k := e.knees[config]; len(k) > 0 {
		search := 1
		if i := strings.Index(spec.RunID, "round"); i >= 0 {
			fmt.Sscanf(spec.RunID[i:], "round%d", &search)
		}
		knee = k[(search-1)%len(k)]
	}
	if gen.Rate > knee {
		p99 = 50
	}
	net := p99 - lag
	if e.lagFrom > 0 && gen.Rate >= e.lagFrom {
		lag, p99 = 5, 50
	}
	res := contract.ForeignResult{Ready: ready, SentTotal: n + 1,
		Open: &contract.OpenLoopResult{RateRPS: gen.Rate, DurationS: measured, StartUnixNs: 1, Scheduled: n, Status2xx: n, RequestsPerSecond: []int64{n},
			LatencyMeanMs: 1, LatencyP50Ms: 1, LatencyP90Ms: 1.5, LatencyP99Ms: p99, LatencyMaxMs: p99 + 1, SendLagP50Ms: lag / 2, SendLagP99Ms: lag, SendLagMaxMs: lag,
			NetLatencyP99Ms: net, GeneratorCPUS: 0.1 * measured}}
	body, _ := json.Marshal(res)
	return experiment.PodResult{Result: body, Exits: exits, Logs: map[string][]byte{"api": nil}}, nil
}

// withKnee has reproduce reach eng.
func withKnee(t *testing.T, eng *kneeEngine) {
	t.Helper()
	wasReach := reach
	reach = func(c *cli.Context, ep engine.Endpoint, out io.Writer) (*target, error) {
		return &target{Target: &lab.Target{Engine: eng, Facts: contract.EngineFacts{Host: "fake", Platform: "linux/amd64", CPUs: 2, LogDrivers: []string{"json-file"}},
			Platform: "linux/amd64", Images: fakeImages{}, Out: out}}, nil
	}
	t.Cleanup(func() { reach = wasReach })
}

var capacityArgs = []string{"reproduce", "your-api", "--image", "theirs:1", "--port", "8080", "--config", "none:LOG=none", "--config", "console:LOG=console",
	"--capacity", "--slo-p99", "10ms", "--duration", "500ms", "--warmup-time", "0s"}

// TestCapacityGrowsAStepAtATime: each configuration's search takes the rule's steps
// against a service whose p99 leaves the target at a known rate, one run each, the plan
// growing after each judged step; the bundle verifies, its counts hold, and the
// capacities and their headline are the fake's.
func TestCapacityGrowsAStepAtATime(t *testing.T) {
	eng := &kneeEngine{capacity: map[string]float64{"none": 3000, "console": 1200}, rates: map[string][]float64{}}
	withKnee(t, eng)
	dir := filepath.Join(t.TempDir(), "b")
	out, err := runApp(t, append(slices.Clone(capacityArgs), "--out", dir)...)
	if err != nil {
		t.Fatalf("reproduce: %v\n%s", err, out)
	}
	want := map[string][]float64{
		"none":    {100, 200, 400, 800, 1600, 3200, 2400, 2800, 3000},
		"console": {100, 200, 400, 800, 1600, 1200, 1400, 1300},
	}
	for config, rates := range want {
		if !slices.Equal(eng.rates[config], rates) {
			t.Errorf("%s offered %v, want %v", config, eng.rates[config], rates)
		}
	}
	for _, line := range []string{
		"CAPACITY none: 3,000 req/s (3,200 failed) at p99 ≤ 10ms",
		"CAPACITY console: 1,200 req/s (1,300 failed) at p99 ≤ 10ms against 3,000 for the baseline none (−60%)",
		"17/17 ",
	} {
		if !strings.Contains(out, line) {
			t.Errorf("the summary lacks %q:\n%s", line, out)
		}
	}
	var m struct {
		bundle.Common
		Parameters struct {
			Capacity struct {
				Steps []struct{} `json:"steps"`
			} `json:"capacity"`
		} `json:"parameters"`
	}
	body, err := os.ReadFile(filepath.Join(dir, bundle.ManifestFile))
	if err != nil || json.Unmarshal(body, &m) != nil {
		t.Fatalf("manifest: %v", err)
	}
	if m.RunsPlanned != 17 || m.RunsCompleted != 17 || !m.Complete || len(m.Parameters.Capacity.Steps) != 17 {
		t.Errorf("manifest: planned %d, completed %d, complete %v, %d steps", m.RunsPlanned, m.RunsCompleted, m.Complete, len(m.Parameters.Capacity.Steps))
	}
	vout, err := runApp(t, "verify", dir)
	if err != nil || !strings.Contains(vout, "capacity: none: 3,000 req/s (3,200 failed)") {
		t.Errorf("verify: %v\n%s", err, vout)
	}
	page := filepath.Join(t.TempDir(), "capacity.html")
	if rout, err := runApp(t, "report", dir, "--out", page); err != nil {
		t.Fatalf("report: %v\n%s", err, rout)
	}
	html, err := os.ReadFile(page)
	if err != nil || !strings.Contains(string(html), "Capacity at a latency target") || !strings.Contains(string(html), "console: 1,200 req/s (1,300 failed)") ||
		!strings.Contains(string(html), "p99 against the rate offered") || !strings.Contains(string(html), "console: 1,200 req/s</text>") {
		t.Errorf("the report lacks the search: %v", err)
	}
	// The capacities are the figures compared; the steps' rates, different step to
	// step, pool into no figure.
	if cout, err := runApp(t, "compare", dir); err != nil || !strings.Contains(cout, "capacity_at_p99_10ms") || strings.Contains(cout, "requests per second") {
		t.Errorf("compare: %v\n%s", err, cout)
	}
}

// TestCapacityInSearchesUntilSure: --precision with --capacity adds a search of every
// configuration until each capacity's interval over its searches is within the
// target: against a service whose capacity differs search to search (3,000 then 2,800
// req/s, found to 10%), two searches leave ±44%, a third ±9.78%, within 10%; the record
// says so, and verify holds it.
func TestCapacityInSearchesUntilSure(t *testing.T) {
	eng := &kneeEngine{knees: map[string][]float64{"none": {3000, 2800}, "console": {1200}}, rates: map[string][]float64{}}
	withKnee(t, eng)
	dir := filepath.Join(t.TempDir(), "b")
	out, err := runApp(t, append(slices.Clone(capacityArgs), "--capacity-start", "800", "--precision", "10%", "--reps", "2", "--max-reps", "5", "--out", dir)...)
	if err != nil {
		t.Fatalf("reproduce: %v\n%s", err, out)
	}
	for _, line := range []string{
		"CAPACITY none: 2,933 req/s [2,646, 3,220] over 3 searches (3,000, 2,800, 3,000) at p99 ≤ 10ms",
		"round 2/5: widest interval capacity_at_p99_10ms (config=none) 2900 req/s ±43.8%",
		"round 3/5: widest interval capacity_at_p99_10ms (config=none) 2933 req/s ±9.78%, target ±10%: reached",
	} {
		if !strings.Contains(out, line) {
			t.Errorf("the output lacks %q:\n%s", line, out)
		}
	}
	if n := len(eng.rates["console"]); n != 15 {
		t.Errorf("console offered %v, want 3 searches of 5 steps", eng.rates["console"])
	}
	if vout, err := runApp(t, "verify", dir); err != nil || !strings.Contains(vout, "reached after 3") {
		t.Errorf("verify: %v\n%s", err, vout)
	}
}

// TestAGeneratorLimitIsNoCapacity: a step whose sends were late is redone, then, late
// again, ends its search as the generator's limit, never as the service's capacity.
func TestAGeneratorLimitIsNoCapacity(t *testing.T) {
	eng := &kneeEngine{capacity: map[string]float64{"none": 1e9, "console": 600}, lagFrom: 1000, rates: map[string][]float64{}}
	withKnee(t, eng)
	dir := filepath.Join(t.TempDir(), "b")
	out, err := runApp(t, append(slices.Clone(capacityArgs), "--retries", "1", "--arrivals", "poisson", "--out", dir)...)
	if err != nil {
		t.Fatalf("reproduce: %v\n%s", err, out)
	}
	if slices.ContainsFunc(eng.arrivals, func(a string) bool { return a != "poisson" }) || !strings.Contains(out, "Poisson arrivals") {
		t.Errorf("the generator was given arrivals %v", eng.arrivals)
	}
	// 1,600 req/s is tried twice (redone once for its late sends).
	if have := eng.rates["none"]; !slices.Equal(have, []float64{100, 200, 400, 800, 1600, 1600}) {
		t.Errorf("none offered %v", have)
	}
	for _, line := range []string{"CAPACITY none: at least 800 req/s (limited by the generator at 1,600) at p99 ≤ 10ms",
		"against 800 for the baseline none (−25%, a bound, not a measurement)", "GENERATOR-LIMITED"} {
		if !strings.Contains(out, line) {
			t.Errorf("the summary lacks %q:\n%s", line, out)
		}
	}
	if vout, err := runApp(t, "verify", dir); err != nil {
		t.Errorf("verify: %v\n%s", err, vout)
	}
}

// TestAForgedCapacityIsRefused: a step's outcome changed in steps.csv, or its rate in
// the manifest and steps.csv alike, is caught by verify, however the checksums are
// made to match.
func TestAForgedCapacityIsRefused(t *testing.T) {
	eng := &kneeEngine{capacity: map[string]float64{"none": 3000, "console": 1200}, rates: map[string][]float64{}}
	withKnee(t, eng)
	dir := filepath.Join(t.TempDir(), "b")
	if out, err := runApp(t, append(slices.Clone(capacityArgs), "--out", dir)...); err != nil {
		t.Fatalf("reproduce: %v\n%s", err, out)
	}
	for name, forge := range map[string]func(t *testing.T, dir string){
		// console's step 5 at 1,600 failed: said held, the capacity would read higher.
		"a step said held": func(t *testing.T, dir string) {
			editCSV(t, filepath.Join(dir, "steps.csv"), func(row map[string]string) {
				if row["config"] == "console" && row["step"] == "5" {
					row["held"] = "true"
				}
			})
		},
		// A step's p99 without the send lags raised past its p99, in runs.csv and
		// steps.csv alike: no set of requests has that.
		"a net p99 above the p99": func(t *testing.T, dir string) {
			for _, file := range []string{"runs.csv", "steps.csv"} {
				editCSV(t, filepath.Join(dir, file), func(row map[string]string) {
					if row["config"] == "console" && (row["step"] == "step1" || row["step"] == "1") {
						row["net_p99_ms"] = "3"
					}
				})
			}
		},
		// The last held rate raised in the manifest and steps.csv together: not the
		// rule's rate, and more than the run carried.
		"a rate raised": func(t *testing.T, dir string) {
			editCSV(t, filepath.Join(dir, "steps.csv"), func(row map[string]string) {
				if row["config"] == "console" && row["step"] == "6" {
					row["rate_rps"] = "1250"
				}
			})
			body, _ := os.ReadFile(filepath.Join(dir, bundle.ManifestFile))
			body = []byte(strings.Replace(string(body), `"config": "console",
          "step": 6,
          "rate_rps": 1200`, `"config": "console",
          "step": 6,
          "rate_rps": 1250`, 1))
			if err := os.WriteFile(filepath.Join(dir, bundle.ManifestFile), body, 0o644); err != nil {
				t.Fatal(err)
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			forged := filepath.Join(t.TempDir(), "forged")
			if err := os.CopyFS(forged, os.DirFS(dir)); err != nil {
				t.Fatal(err)
			}
			forge(t, forged)
			resum(t, forged)
			out, err := runApp(t, "verify", forged)
			if err == nil || !strings.Contains(out, "steps.csv") || name == "a net p99 above the p99" && !strings.Contains(out, "cannot exceed") {
				t.Errorf("verify passes a forged search: %v\n%s", err, out)
			}
		})
	}
}

// editCSV rewrites a CSV file row by row.
func editCSV(t *testing.T, path string, edit func(map[string]string)) {
	t.Helper()
	f, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(string(f))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs[1:] {
		row := map[string]string{}
		for i, h := range recs[0] {
			row[h] = rec[i]
		}
		edit(row)
		for i, h := range recs[0] {
			rec[i] = row[h]
		}
	}
	var b strings.Builder
	w := csv.NewWriter(&b)
	if err := w.WriteAll(recs); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCapacityFlagMisuse: a setting of the search without it, a search of the closed
// load, a fixed rate or rounds beside it, are bad input: one line, exit status 2.
func TestCapacityFlagMisuse(t *testing.T) {
	base := []string{"reproduce", "your-api", "--image", "theirs:1", "--port", "8080", "--config", "none:LOG=none"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--slo-p99", "10ms"}, "--slo-p99: a setting of --capacity, which is not given"},
		{[]string{"--capacity-start", "50"}, "--capacity-start: a setting of --capacity"},
		{[]string{"--capacity", "--load", "closed"}, "--capacity needs --load open"},
		{[]string{"--capacity", "--load", "open", "--rate", "50"}, "--rate: --capacity searches the rate"},
		{[]string{"--capacity", "--precision", "2%", "--reps", "1"}, "--reps 1: --precision needs at least 2 rounds"},
		{[]string{"--capacity", "--capacity-resolution", "0"}, "--capacity-resolution 0%"},
		{[]string{"--capacity", "--capacity-max-steps", "1"}, "--capacity-max-steps 1"},
		{[]string{"--capacity", "--slo-p99", "0s"}, "--slo-p99"},
		{[]string{"--arrivals", "poisson"}, "--arrivals does nothing with --load closed"},
		{[]string{"--load", "open", "--arrivals", "bursty"}, `--arrivals "bursty": want constant or poisson`},
	} {
		_, err := runApp(t, append(slices.Clone(base), tc.args...)...)
		wantUsageError(t, err, tc.want)
	}
	_, err := runApp(t, "run", "your-api", "--image", "theirs:1", "--port", "8080", "--config", "none:LOG=none", "--capacity")
	wantUsageError(t, err, "use `logbench reproduce your-api`")
}

// TestAnInterruptedSearchVerifiesAndResumes: a search stopped mid-way leaves a bundle
// that verifies, its plan one step ahead of its runs at most; resumed, it takes the
// steps an uninterrupted search takes, and ends with the same capacities.
func TestAnInterruptedSearchVerifiesAndResumes(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	eng := &kneeEngine{capacity: map[string]float64{"none": 3000, "console": 1200}, rates: map[string][]float64{}, stopAfter: 7, cancel: cancel}
	withKnee(t, eng)
	dir := filepath.Join(t.TempDir(), "b")
	app := newApp()
	var buf strings.Builder
	app.Writer, app.ErrWriter = &buf, &buf
	err := app.RunContext(ctx, experimentAsFirstArgument(append([]string{"logbench"}, append(slices.Clone(capacityArgs), "--out", dir)...)))
	if err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("reproduce: %v, want interrupted\n%s", err, buf.String())
	}
	if out, err := runApp(t, "verify", dir); err != nil || !strings.Contains(out, "so far, after") {
		t.Fatalf("verify of the interrupted search: %v\n%s", err, out)
	}
	eng.stopAfter = 0
	out, err := runApp(t, "reproduce", "--resume", dir)
	if err != nil {
		t.Fatalf("resume: %v\n%s", err, out)
	}
	if have, want := eng.rates["none"], []float64{100, 200, 400, 800, 1600, 3200, 2400, 2800, 3000}; !slices.Equal(have, want) {
		t.Errorf("none offered %v, want %v", have, want)
	}
	if !strings.Contains(out, "CAPACITY console: 1,200 req/s (1,300 failed)") {
		t.Errorf("resumed summary:\n%s", out)
	}
	if vout, err := runApp(t, "verify", dir); err != nil {
		t.Errorf("verify: %v\n%s", err, vout)
	}
}

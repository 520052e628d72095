package qps

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// lines are n access-log lines as morgan writes them to the console.
func lines(n int, from int) []byte {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "[04:05:%02d.%03d] 127.0.0.1 - \"GET / HTTP/1.1\" 200 - 0.%03d ms\n", (from+i)/1000%60, (from+i)%1000, i%1000)
	}
	return []byte(b.String())
}

// fakeRun is what a pod of config would leave: warm lines before the reset, measured
// lines after, per second counts of series, and the engine's stdout read back as
// stdout (nil: as written).
type fakeRun struct {
	config       string
	warm, lines  int
	series       []int64
	stdout       []byte
	noLogs       bool
	errors       int64
	generatorCPU float64
	offsetLate   int // the reset's offset lies this many counted lines into the file
}

func (f fakeRun) run(id string, round int) experiment.Run {
	written := append(lines(f.warm, 0), lines(f.lines, f.warm)...)
	measured := lines(f.lines, f.warm)
	total := contract.CountStream(written)
	since := contract.CountStream(measured)
	var requests int64
	for _, n := range f.series {
		requests += n
	}
	res := contract.QPSResult{
		Warmup: contract.ClosedLoopResult{Requests: int64(f.warm)},
		Load: contract.ClosedLoopResult{StartUnixNs: 1, MeasuredS: float64(len(f.series)), Requests: requests, Status2xx: requests,
			Errors: f.errors, RequestsPerSecond: f.series, LatencyP50Ms: 2, LatencyP90Ms: 4, LatencyP99Ms: 5, LatencyMaxMs: 9,
			GeneratorCPUS: f.generatorCPU, GeneratorCPULimitCores: 1},
		API: &contract.AccessLogReport{Implementation: "node", Requests: requests, Sinks: map[string]contract.AccessLogSink{},
			Versions: map[string]string{"node": "18.19.0", "express": "4.18.2", "morgan": "1.10.0"}},
	}
	res.API.Usage.CPUUserUs, res.API.Usage.CPUSystemUs, res.API.Usage.SinceResetMs = 800000, 100000, 1000*float64(len(f.series))
	pod := experiment.PodResult{Exits: []contract.Exit{{Role: "api", Running: true}, {Role: "loadgen"}}}
	if hasConsole(f.config) {
		res.API.Sinks[Console] = contract.AccessLogSink{StreamCount: since, Total: total}
		if !f.noLogs {
			out := f.stdout
			if out == nil {
				out = written
			}
			pod.Logs = map[string][]byte{"api": out}
		}
	}
	if hasFile(f.config) {
		res.API.Sinks[File] = contract.AccessLogSink{StreamCount: since, Total: total, Path: "/run/logbench/logs/2026-11-30.log", StartOffsetBytes: total.Bytes - since.Bytes}
		res.File = &contract.FileReadback{Path: "/run/logbench/logs/2026-11-30.log", Whole: total, FromOffset: since}
		if f.offsetLate > 0 {
			res.File.FromOffset = contract.CountStream(lines(f.lines-f.offsetLate, f.warm+f.offsetLate))
		}
	}
	body, _ := json.Marshal(res)
	pod.Result = body
	// An ID as NewRunID gives the condition and round, its suffix from id.
	sum := sha256.Sum256([]byte(id))
	id = strings.ReplaceAll(Cond{NodeAPI, f.config}.String(), "/", "-") + fmt.Sprintf("-r%d-%x", round, sum[:3])
	return experiment.Run{ID: id, Condition: Cond{NodeAPI, f.config}, Round: round, Position: 1,
		Started: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC), Wall: 8 * time.Second, Pod: pod}
}

func testParams(configs ...string) Params {
	p := Params{APIs: []string{NodeAPI}, Configs: configs, Rounds: 2, Connections: 10, Pipelining: 1, DurationS: 3, WarmupS: 1,
		LogDriver: "json-file", Limits: Limits{APICPUs: 1, APIMemoryBytes: 512 << 20, LoadgenCPUs: 1, LoadgenMemoryBytes: 256 << 20, PidsLimit: 256}}
	p.MaxRunTimeS = p.maxRunTimeS() // as a plan records it
	return p
}

// fill adds runs to a fresh plan's bundle as the matrix does, and returns its files
// with SHA256SUMS.
func fill(t *testing.T, p Params, runs ...experiment.Run) (*Bundle, *bundle.Files) {
	t.Helper()
	// The plan's duration is what the fake runs measured (rule duration-as-planned).
	for _, r := range runs {
		var res contract.QPSResult
		if json.Unmarshal(r.Pod.Result, &res) == nil && res.Load.MeasuredS > 0 {
			p.DurationS = res.Load.MeasuredS
			p.MaxRunTimeS = p.maxRunTimeS()
			break
		}
	}
	plan := NewPlan(p)
	b := plan.QPS().Bundle
	c := b.Common()
	// Planned as reproduce plans it; the runs given may be fewer, as in a matrix stopped early.
	c.SchemaVersion, c.Command, c.RunsPlanned = bundle.SchemaVersion, "reproduce", len(experiment.Rotate(plan.Conditions(), plan.Rounds()))
	// Times as the matrix keeps them: the bundle created before its first run, the runs
	// one after the other, the bundle saved after the last.
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	c.CreatedUTC = at.Add(-time.Minute)
	for i := range runs {
		runs[i].Started = at
		at = at.Add(runs[i].Wall + time.Second)
	}
	c.FinishedUTC = at
	for _, r := range runs {
		if !b.Measured(r) {
			t.Fatalf("run %s: not measured", r.ID)
		}
		_, ok := b.Add(r)
		c.RunsCompleted++
		if ok {
			c.RunsVerified++
		}
	}
	c.Complete = c.RunsCompleted == c.RunsPlanned
	files, err := b.Files()
	if err != nil {
		t.Fatal(err)
	}
	return b, withSums(files)
}

func withSums(files map[string][]byte) *bundle.Files {
	var names []string
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	var sums strings.Builder
	out := &bundle.Files{Name: "test", Data: map[string][]byte{}}
	for _, name := range names {
		sum := sha256.Sum256(files[name])
		fmt.Fprintf(&sums, "%s  %s\n", hex.EncodeToString(sum[:]), name)
		out.Data[name] = files[name]
	}
	out.Data[SumsFile] = []byte(sums.String())
	return out
}

func mustVerify(t *testing.T, files *bundle.Files) {
	t.Helper()
	res := Experiment.Verify(files)
	for _, p := range res.Problems {
		t.Errorf("problem: %s", p)
	}
}

func TestEveryLineBackVerifiesAndTheFiguresFollow(t *testing.T) {
	p := testParams(ConsoleFile, NoLog)
	b, files := fill(t, p,
		fakeRun{config: ConsoleFile, warm: 50, lines: 3000, series: []int64{1000, 1100, 900}}.run("cf1", 1),
		fakeRun{config: ConsoleFile, warm: 50, lines: 3300, series: []int64{1100, 1100, 1100}}.run("cf2", 2),
		fakeRun{config: NoLog, series: []int64{4400, 4500, 4600}}.run("n1", 1),
		fakeRun{config: NoLog, series: []int64{4500, 4500, 4500}}.run("n2", 2),
	)
	mustVerify(t, files)
	r := b.Runs[0]
	if !r.Verified || r.ConsoleVerified != "equal" || r.FileVerified != "equal" {
		t.Fatalf("run 1: verified %v console %q file %q failure %q", r.Verified, r.ConsoleVerified, r.FileVerified, r.Failure)
	}
	if r.Requests != 3000 || r.RequestsPerS != 1000 || r.LogLinesWritten != 2*3050 || r.LogLinesRead != Opt(2*3050) || r.LogLinesDropped != 0 {
		t.Errorf("run 1: requests %d rps %v written %d read %v dropped %v", r.Requests, r.RequestsPerS, r.LogLinesWritten, r.LogLinesRead, r.LogLinesDropped)
	}
	cf, none := ConditionsOf(b)[0], ConditionsOf(b)[1]
	if cf.Config != ConsoleFile || cf.RequestsPerS != 1050 || none.RequestsPerS != 4500 {
		t.Fatalf("conditions %+v %+v", cf, none)
	}
	// Two runs: t(0.975, 1) = 12.706; sd of {1000, 1100} is 70.71; half-width 635.3.
	if lo := float64(cf.RequestsPerSCILow); lo < 1050-635.4 || lo > 1050-635.2 {
		t.Errorf("ci low %v, want 414.7", lo)
	}
	if none.RatioToConsoleFile != Opt(4500.0/1050) || cf.RatioToConsoleFile != 1 || cf.PublishedRatio != 1 {
		t.Errorf("ratios: none %v cf %v published %v", none.RatioToConsoleFile, cf.RatioToConsoleFile, cf.PublishedRatio)
	}
	if none.PublishedRatio < 4.09 || none.PublishedRatio > 4.1 {
		t.Errorf("published none/console+file %v, want 4500/1100", none.PublishedRatio)
	}
	// The API's CPU is the same per run, the requests differ: the cost per request is
	// console+file's microseconds per request over none's.
	wantCost := (900000.0/3000+900000.0/3300)/2 - 900000.0/13500
	if d := float64(cf.CostPerRequestUs) - wantCost; d > 1e-9 || d < -1e-9 {
		t.Errorf("cost per request %v, want %v", cf.CostPerRequestUs, wantCost)
	}
	if cf.CPUEngineCores.Present() {
		t.Errorf("engine_cpu_cores %v: not measured, must stay empty", cf.CPUEngineCores)
	}
}

func TestALostConsoleLineFailsABlockingRun(t *testing.T) {
	f := fakeRun{config: Console, warm: 10, lines: 100, series: []int64{100}}
	short := append(lines(f.warm, 0), lines(f.lines-1, f.warm)...)
	f.stdout = short
	b, files := fill(t, testParams(Console), f.run("c1", 1))
	mustVerify(t, files) // a failed run is kept, and the bundle still verifies
	r := b.Runs[0]
	if r.Verified || !strings.Contains(r.Failure, "console: differs: read 109 lines") {
		t.Fatalf("verified %v, failure %q", r.Verified, r.Failure)
	}
	if ConditionsOf(b)[0].RunsVerified != 0 || ConditionsOf(b)[0].RequestsPerS.Present() {
		t.Errorf("a failed run must not count: %+v", ConditionsOf(b)[0])
	}
}

func TestAFileCountedFromTheWrongOffsetFailsTheRun(t *testing.T) {
	// The whole file is as written, but a line counted after the reset lies before the
	// offset the API recorded: the API zeroed its counts and read the offset apart.
	f := fakeRun{config: File, warm: 10, lines: 100, series: []int64{100}, offsetLate: 1}
	b, files := fill(t, testParams(File), f.run("f1", 1))
	mustVerify(t, files)
	r := b.Runs[0]
	want := "file: differs from the reset's offset on: read 99 lines"
	if r.Verified || !strings.Contains(r.Failure, want) {
		t.Fatalf("verified %v, failure %q, want it to hold %q", r.Verified, r.Failure, want)
	}
}

func TestANonBlockingDropIsAFigure(t *testing.T) {
	f := fakeRun{config: Console, warm: 10, lines: 100, series: []int64{100}}
	f.stdout = append(lines(f.warm, 0), lines(f.lines-7, f.warm)...)
	p := testParams(Console)
	p.LogOpts, p.NonBlocking = map[string]string{"mode": "non-blocking"}, true
	b, files := fill(t, p, f.run("c1", 1))
	mustVerify(t, files)
	r := b.Runs[0]
	if !r.Verified || r.ConsoleVerified != "dropped 7" || r.LogLinesDropped != 7 || r.LogLinesRead != 103 {
		t.Fatalf("verified %v console %q dropped %v read %v failure %q", r.Verified, r.ConsoleVerified, r.LogLinesDropped, r.LogLinesRead, r.Failure)
	}
	if ConditionsOf(b)[0].LogLinesDropped != 7 {
		t.Errorf("condition dropped %v", ConditionsOf(b)[0].LogLinesDropped)
	}
}

func TestUnreadableOrWrongRunsFail(t *testing.T) {
	cases := map[string]struct {
		f    fakeRun
		want string
	}{
		"no stdout back":      {fakeRun{config: Console, lines: 10, series: []int64{10}, noLogs: true}, "could not be read back"},
		"errors":              {fakeRun{config: NoLog, series: []int64{10}, errors: 2}, "2 errors"},
		"generator saturated": {fakeRun{config: NoLog, series: []int64{10}, generatorCPU: 0.95}, "may have been the bottleneck"},
		"no request":          {fakeRun{config: NoLog, series: []int64{0}}, "no request completed"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			b, files := fill(t, testParams(tc.f.config), tc.f.run("x", 1))
			mustVerify(t, files)
			if r := b.Runs[0]; r.Verified || !strings.Contains(r.Failure, tc.want) {
				t.Fatalf("verified %v, failure %q, want %q", r.Verified, r.Failure, tc.want)
			}
		})
	}
}

func TestVerifyFindsEditedFigures(t *testing.T) {
	_, files := fill(t, testParams(ConsoleFile, NoLog),
		fakeRun{config: ConsoleFile, warm: 5, lines: 300, series: []int64{100, 100, 100}}.run("cf1", 1),
		fakeRun{config: NoLog, series: []int64{400, 400, 400}}.run("n1", 1))
	edit := func(name, old, new string) *bundle.Files {
		data := map[string][]byte{}
		for k, v := range files.Data {
			if k != SumsFile {
				data[k] = v
			}
		}
		if !strings.Contains(string(data[name]), old) {
			t.Fatalf("%s has no %q", name, old)
		}
		data[name] = []byte(strings.Replace(string(data[name]), old, new, 1))
		return withSums(data) // the checksums agree: only the figures can tell
	}
	cases := map[string]struct {
		files  *bundle.Files
		column string
	}{
		"a series count": {edit(SeriesFile, ",2,400\n", ",2,401\n"), "requests"},
		"a condition":    {edit(ConditionsFile, ",400,", ",401,"), "requests_per_s"},
		"a verdict":      {edit(RunsFile, ",equal,equal,true,", ",equal,equal,false,"), "verified"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			res := Experiment.Verify(tc.files)
			if res.OK() {
				t.Fatal("an edited bundle verified")
			}
			if tc.column != "" && !strings.Contains(fmt.Sprint(res.Problems), tc.column) {
				t.Errorf("problems %v do not name %s", res.Problems, tc.column)
			}
		})
	}
	flipped := map[string][]byte{}
	for k, v := range files.Data {
		flipped[k] = v
	}
	flipped[RunsFile] = append([]byte(nil), flipped[RunsFile]...)
	flipped[RunsFile][10] ^= 1
	if res := (Experiment).Verify(&bundle.Files{Name: "x", Data: flipped}); res.OK() || !strings.Contains(fmt.Sprint(res.Problems), "SHA-256") {
		t.Errorf("a flipped byte: %v", res.Problems)
	}
}

func TestThePodAsksForTheLogStreamBack(t *testing.T) {
	p := testParams(Configs...)
	plan := NewPlan(p)
	images := map[string]string{"api-node": "sha256:node", "qpsload": "sha256:load"}
	for _, cond := range plan.Conditions() {
		spec := plan.Pod(cond, "r", images)
		api := spec.Containers[0]
		if api.Image != "sha256:node" || api.LogDriver != "json-file" || api.NanoCPUs != 1e9 || api.MemoryBytes != 512<<20 {
			t.Errorf("%s: api container %+v", cond, api)
		}
		if want := hasConsole(cond.(Cond)[1]); (len(spec.CollectLogs) == 1) != want {
			t.Errorf("%s: collect logs %v", cond, spec.CollectLogs)
		}
		if spec.Conductor != "loadgen" || spec.Containers[1].Image != "sha256:load" {
			t.Errorf("%s: conductor %+v", cond, spec.Containers[1])
		}
	}
	if err := plan.Target(experiment.Env{Engine: contract.EngineFacts{LogDrivers: []string{"json-file", "local"}}}); err != nil {
		t.Errorf("json-file refused: %v", err)
	}
	p.LogDriver = "gelf"
	var ue experiment.UsageError
	if err := NewPlan(p).Target(experiment.Env{Engine: contract.EngineFacts{LogDrivers: []string{"json-file", "local"}}}); !errors.As(err, &ue) {
		t.Errorf("gelf on an engine without it: %v", err)
	}
}

func TestBadFlagsAreUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"--configs", "none,syslog"},
		{"--connections", "0"},
		{"--pipelining", "0"},
		{"--log-opt", "mode"},
		{"--log-opt", "mode=sometimes"},
		{"--log-driver", "none", "--log-opt", "max-size=1m"},
		{"--api-cpus", "0.001"},
		{"--api-memory", "1k"},
		{"--duration", "10ms"},
		{"--api", "rust"},
	} {
		_, err := parse(t, args...)
		var ue experiment.UsageError
		if !errors.As(err, &ue) {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
	p, err := parse(t)
	if err != nil {
		t.Fatal(err)
	}
	if p.APIs[0] != NodeAPI || len(p.Configs) != 4 || p.DurationS != 5 || p.Limits.APICPUs != 1 || p.Limits.LoadgenCPUs != 1 || p.LogDriver != "" {
		t.Errorf("defaults: %+v (the log driver is the engine's to choose)", p)
	}
	p, err = parse(t, "--api-cpus", "2", "--log-opt", "mode=non-blocking", "--log-opt", "max-buffer-size=1m")
	if err != nil || p.Limits.APICPUs != 2 || !p.NonBlocking || p.LogOpts["max-buffer-size"] != "1m" {
		t.Errorf("two CPUs, non-blocking: %+v %v", p, err)
	}
	if _, err := parse(t, "--api-cpus", "0"); err == nil {
		t.Error("--api-cpus 0 accepted: a CPU limit means the same in every experiment, 0.01 to 1024 CPUs")
	}
}

func parse(t *testing.T, args ...string) (Params, error) {
	t.Helper()
	p := DefaultParams()
	if err := experiment.FlagSet(Name, p).Parse(args); err != nil {
		return Params{}, experiment.Usagef("%v", err) // as the command line says it
	}
	p.Rounds = 3
	if err := p.Check(); err != nil {
		return *p, err
	}
	return p.settled(), nil
}

func TestTheEngineCPUIsAHelperAndAFigure(t *testing.T) {
	p := testParams(Console, NoLog)
	p.EngineCPU, p.EngineCPUHow = true, EngineHelper
	spec := NewPlan(p).Pod(Cond{NodeAPI, Console}, "r", map[string]string{"api-node": "n", "qpsload": "q"})
	if len(spec.Containers) != 3 || !spec.Containers[1].HostPIDs || spec.Containers[1].Role != "enginecpu" || spec.Containers[2].Role != spec.Conductor {
		t.Fatalf("containers %+v", spec.Containers)
	}
	if spec.Containers[0].HostPIDs || spec.Containers[2].HostPIDs {
		t.Error("only the helper may see the host's processes")
	}
	withEngine := func(f fakeRun, id string, cpu float64) experiment.Run {
		run := f.run(id, 1)
		var res contract.QPSResult
		json.Unmarshal(run.Pod.Result, &res)
		res.Engine = &contract.EngineCPU{IntervalS: 2, CPUS: cpu, ByComm: map[string]float64{"dockerd": cpu * 0.8}}
		res.Host, res.HostCPUs = &contract.HostSample{CPUBusyPct: 75}, 2
		run.Pod.Result, _ = json.Marshal(res)
		return run
	}
	b, files := fill(t, p,
		withEngine(fakeRun{config: Console, lines: 2000, series: []int64{1000, 1000}}, "c", 0.6),
		withEngine(fakeRun{config: NoLog, series: []int64{4000, 4000}}, "n", 0.02))
	mustVerify(t, files)
	c, n := ConditionsOf(b)[0], ConditionsOf(b)[1]
	if c.CPUEngineCores != 0.3 || c.CPUEngineUsPerReq != 300 || n.CPUEngineUsPerReq != 2.5 {
		t.Errorf("engine: %v cores, %v us/req; none %v us/req", c.CPUEngineCores, c.CPUEngineUsPerReq, n.CPUEngineUsPerReq)
	}
	if c.CostPerRequestEngineUs != 297.5 || c.CostPerRequestUs != c.CostPerRequestAPIUs+297.5 {
		t.Errorf("cost: engine %v, both %v, api %v", c.CostPerRequestEngineUs, c.CostPerRequestUs, c.CostPerRequestAPIUs)
	}
	// 75% of 2 CPUs busy: 1.5 cores, less the API's 0.45, the generator's 0 and the engine's 0.3.
	if r := b.Runs[0]; r.OtherCores < 0.7499 || r.OtherCores > 0.7501 {
		t.Errorf("other cores %v, want 0.75", r.OtherCores)
	}
	if !b.Runs[0].HostNoisy || c.RunsNoisy != 1 {
		t.Errorf("0.75 other cores: noisy %v, condition's noisy runs %d", b.Runs[0].HostNoisy, c.RunsNoisy)
	}
}

// refusing is an engine that refuses to create the API's container.
type refusing struct{ specs []experiment.PodSpec }

func (r *refusing) RunPod(_ context.Context, spec experiment.PodSpec, _ io.Writer) (experiment.PodResult, error) {
	r.specs = append(r.specs, spec)
	return experiment.PodResult{}, experiment.CreateError{Role: "api", Err: errors.New("Error response from daemon: gelf-address is a required parameter")}
}

func TestALogDriverTheEngineRefusesIsBadInputBeforeTheMatrix(t *testing.T) {
	p := testParams(Console)
	pods := &refusing{}
	if err := NewPlan(p).Prepare(context.Background(), pods, nil, 0, io.Discard); err != nil || len(pods.specs) != 0 {
		t.Fatalf("json-file without options needs no probe: %v, %d pods", err, len(pods.specs))
	}
	p.LogDriver = "gelf"
	err := NewPlan(p).Prepare(context.Background(), pods, nil, 0, io.Discard)
	var ue experiment.UsageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "gelf-address") || len(pods.specs) != 1 || pods.specs[0].Containers[0].LogDriver != "gelf" {
		t.Fatalf("err %v, pods %+v", err, pods.specs)
	}
}

// TestARunWithoutResponsesHasNoLatency: the generator reports 0 ms when nothing
// answered; the run's row holds no latency then, as fifo-stall's does, never 0.
func TestARunWithoutResponsesHasNoLatency(t *testing.T) {
	p := testParams(NoLog)
	if r, _ := record(fakeRun{config: NoLog}.run("n", 1), p); r.LatencyMeanMs.Present() || r.LatencyP50Ms.Present() || r.LatencyP90Ms.Present() || r.LatencyP99Ms.Present() || r.LatencyMaxMs.Present() {
		t.Errorf("no response: %+v", r)
	}
	if r, _ := record(fakeRun{config: NoLog, series: []int64{3}}.run("n", 1), p); r.LatencyP50Ms != 2 || r.LatencyP99Ms != 5 {
		t.Errorf("responses: p50 %v p99 %v", r.LatencyP50Ms, r.LatencyP99Ms)
	}
}

// TestWhatWasNotMeasuredIsEmpty: a run without the engine's sample, the host's, a wrk
// phase or a read-back leaves those columns empty, never 0, and still verifies; a run
// without the API's report is not data, and its counts are empty too.
func TestWhatWasNotMeasuredIsEmpty(t *testing.T) {
	p := testParams(File, NoLog)
	noReport := fakeRun{config: NoLog, series: []int64{500, 500}}.run("n", 1)
	var res contract.QPSResult
	json.Unmarshal(noReport.Pod.Result, &res)
	res.API = nil
	noReport.Pod.Result, _ = json.Marshal(res)
	unread := fakeRun{config: File, lines: 1000, series: []int64{500, 500}}.run("f", 1)
	json.Unmarshal(unread.Pod.Result, &res)
	res.File.Failure = "no such file"
	unread.Pod.Result, _ = json.Marshal(res)
	b, files := fill(t, p, unread, noReport)
	mustVerify(t, files)
	f, n := b.Runs[0], b.Runs[1]
	for name, o := range map[string]Opt{
		"engine_cpu_s": f.EngineCPUS, "engine_dockerd_cpu_s": f.EngineDockerdS, "engine_interval_s": f.EngineIntervalS, "host_cpus": f.HostCPUs,
		"wrk_requests": f.WrkRequests, "wrk_duration_s": f.WrkDurationS, "wrk_errors": f.WrkErrors,
		"console_lines_read": f.ConsoleReadLines, "console_bytes_read": f.ConsoleReadBytes, "file_lines_read": f.FileReadLines,
		"file_bytes_read": f.FileReadBytes, "file_lines_read_since_reset": f.FileTailLines, "file_bytes_read_since_reset": f.FileTailBytes,
		"api_requests (no report)": n.APIRequests, "api_interval_ms (no report)": n.APIIntervalMs,
		"api_cpu_user_us (no report)": n.APICPUUserUs, "api_cpu_system_us (no report)": n.APICPUSystemUs, "api_rss_bytes (no report)": n.APIRSSBytes,
		"api_cpu_cores (no report)": n.APICPUCores, "api_cpu_us_per_request (no report)": n.APICPUUsPerReq,
	} {
		if o.Present() {
			t.Errorf("%s: %v, want empty", name, o)
		}
	}
	if n.Verified || !strings.Contains(n.Failure, "no report") {
		t.Errorf("a run without the API's report: verified %v (%s)", n.Verified, n.Failure)
	}
	header, first, _ := strings.Cut(string(files.Data[RunsFile]), "\n")
	cols, cells := strings.Split(header, ","), strings.Split(strings.SplitN(first, "\n", 2)[0], ",")
	for i, c := range cols {
		if c == "engine_cpu_s" || c == "host_cpus" || c == "wrk_requests" || c == "file_lines_read" {
			if i >= len(cells) || cells[i] != "" {
				t.Errorf("runs.csv %s: %q, want empty", c, cells[i])
			}
		}
	}
}

// TestAnEarlierKitsZeroForNoIntervalStillVerifies: bundles written before wrote 0
// where a run had no measured interval; verify reads that 0 as the missing value it
// stood for, and says so.
func TestAnEarlierKitsZeroForNoIntervalStillVerifies(t *testing.T) {
	p := testParams(NoLog)
	run := fakeRun{config: NoLog}.run("n", 1)
	var res contract.QPSResult
	json.Unmarshal(run.Pod.Result, &res)
	res.Load.MeasuredS = 0
	run.Pod.Result, _ = json.Marshal(res)
	_, files := fill(t, p, run)
	mustVerify(t, files)
	body := string(files.Data[RunsFile])
	header, rest, _ := strings.Cut(body, "\n")
	cols := strings.Split(header, ",")
	cells := strings.Split(strings.TrimSuffix(rest, "\n"), ",")
	for i, c := range cols {
		switch c {
		case "requests_per_s", "requests_per_s_stdev", "requests_per_s_over_interval", "generator_cpu_cores":
			if cells[i] != "" {
				t.Fatalf("%s: %q, want empty", c, cells[i])
			}
			cells[i] = "0"
		}
	}
	files = withSums(map[string][]byte{bundle.ManifestFile: files.Data[bundle.ManifestFile], RunsFile: []byte(header + "\n" + strings.Join(cells, ",") + "\n"),
		SeriesFile: files.Data[SeriesFile], ConditionsFile: files.Data[ConditionsFile], bundle.DataPackageFile: files.Data[bundle.DataPackageFile]})
	v := Experiment.Verify(files)
	for _, p := range v.Problems {
		t.Errorf("problem: %s", p)
	}
	if len(v.Notes) == 0 || !strings.Contains(fmt.Sprint(v.Notes), "4 figures written 0 by an earlier kit") {
		t.Errorf("notes %v", v.Notes)
	}
}

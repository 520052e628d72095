package yourapi

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/verify"
)

// flags are your-api's parameters with args parsed, as reproduce parses them.
func flags(t *testing.T, args ...string) *Params {
	t.Helper()
	p := DefaultParams()
	if err := experiment.FlagSet(Name, p).Parse(args); err != nil {
		t.Fatal(err)
	}
	return p
}

var good = []string{"--image", "myorg/api:1.4", "--port", "8080", "--path", "/health",
	"--config", "none:LOG_LEVEL=off", "--config", "console:LOG_TARGET=stdout", "--config", "file:LOG_TARGET=file,LOG_DIR=/var/log/app", "--log-file", "/var/log/app"}

func TestTheIssuesCommandPlans(t *testing.T) {
	p, err := settledOf(flags(t, good...), 2)
	if err != nil {
		t.Fatal(err)
	}
	if p.Baseline != "none" || len(p.Configs) != 3 || p.Configs[2].Env[1] != "LOG_DIR=/var/log/app" || p.LogFile != "/var/log/app" || p.Load != "closed" {
		t.Errorf("%+v", p)
	}
	if h := p.Hardening; !h.ReadOnlyRoot || h.User != User || !h.NoNewPrivileges || len(h.Relaxed) != 0 {
		t.Errorf("hardening %+v", h)
	}
	p, err = settledOf(flags(t, append(good, "--keep-user", "--writable-root", "--cap-add", "net_bind_service", "--config-cmd", "console:--log stdout --v", "--baseline", "file")...), 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Hardening.Relaxed) != 3 || p.Hardening.CapAdd[0] != "NET_BIND_SERVICE" || strings.Join(p.Config("console").Cmd, "|") != "--log|stdout|--v" || p.Baseline != "file" {
		t.Errorf("%+v", p)
	}
}

func TestBadInputIsOneLine(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--port", "8080", "--config", "a"}, "--image"},
		{[]string{"--image", "x", "--config", "a"}, "--port 0"},
		{[]string{"--image", "x", "--port", "80"}, "at least one"},
		{[]string{"--image", "x", "--port", "80", "--config", "a:LOG_LEVEL"}, `"LOG_LEVEL" is not an assignment`},
		{[]string{"--image", "x", "--port", "80", "--config", "a:X=1", "--config", "a:X=2"}, "--config a: the name is given twice"},
		{[]string{"--image", "x", "--port", "80", "--config", "a:X=1,X=2"}, "assigned twice"},
		{[]string{"--image", "x", "--port", "80", "--config", "a", "--baseline", "b"}, "--baseline b"},
		{[]string{"--image", "x", "--port", "80", "--config", "a", "--config-cmd", "b:--x"}, "no --config of that name"},
		{[]string{"--image", "x", "--port", "80", "--config", "a", "--load", "half"}, "--load"},
		{[]string{"--image", "x", "--port", "80", "--config", "a", "--log-file", "var/log"}, "--log-file"},
		{[]string{"--image", "x", "--port", "80", "--config", "a", "--path", "health"}, "--path"},
	} {
		_, err := settledOf(flags(t, c.args...), 1)
		var u experiment.UsageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: %v, want one line with %q", c.args, err, c.want)
		}
	}
}

func TestTargetRefusesAnImageTheEngineLacks(t *testing.T) {
	p, err := Experiment.Plan(flags(t, good...), 1)
	if err != nil {
		t.Fatal(err)
	}
	env := experiment.Env{Image: func(string) (string, bool, error) { return "", false, nil }}
	err = p.Target(env)
	var u experiment.UsageError
	if !errors.As(err, &u) || !strings.Contains(err.Error(), "--image myorg/api:1.4: the engine has no such image") {
		t.Errorf("%v", err)
	}
	env.Image = func(string) (string, bool, error) { return "sha256:abc", true, nil }
	if err := p.Target(env); err != nil || p.Bundle().(*Bundle).Params().ImageID != "sha256:abc" {
		t.Errorf("%v", err)
	}
	spec := p.Pod(tabular.Cell{"file", ""}, "file-r1-abc", map[string]string{LoadImage: "sha256:load"})
	api := spec.Containers[0]
	if api.Image != "sha256:abc" || api.MountPath != "/var/log/app" || api.Env[0] != "LOG_TARGET=file" || api.Relax != nil || spec.CollectLogs[0] != "api" {
		t.Errorf("%+v", spec)
	}
	if gen, err := parseLoadArgs(spec.Containers[2].Cmd); err != nil || gen.Foreign != "closed" || gen.URL != "http://127.0.0.1:8080/health" || gen.LogDir != "/run/logbench" {
		t.Errorf("conductor %+v (%v)", gen, err)
	}
}

// fake is an engine whose service writes linesPerReq lines per request to its console
// (and, for a file configuration, to its log file), answers rps requests per second,
// and whose processes used cpuPerReq seconds per request.
type fake struct {
	perConfig map[string]float64 // lines per request
	rps       int64
	lag       []float64 // open loop: send-lag p99 of successive runs, ms
	runs      int
}

func (f *fake) RunPod(_ context.Context, spec experiment.PodSpec, _ io.Writer) (experiment.PodResult, error) {
	f.runs++
	api := spec.Containers[0]
	config := strings.TrimPrefix(strings.Join(api.Env, ","), "LOG=")
	lines := f.perConfig[config]
	// The load measures the duration it was given (rule duration-as-planned), whole seconds.
	gen, err := parseLoadArgs(spec.Containers[2].Cmd)
	seconds := int64(gen.Duration / time.Second)
	if err != nil || seconds < 1 {
		return experiment.PodResult{}, fmt.Errorf("the fake runs whole seconds of load: %v %v", gen.Duration, err)
	}
	requests := f.rps * seconds
	sent := requests + 100 + 1
	res := contract.ForeignResult{Ready: contract.ForeignReady{OK: true, Probes: 1, AfterS: 0.2}, SentTotal: sent,
		Engine: &contract.EngineCPU{IntervalS: float64(seconds), CPUS: 0.001 * lines * float64(requests) / 100, PodCPUS: float64(requests) * (50 + 10*lines) / 1e6,
			After: contract.EngineSample{Pod: []contract.EngineProcess{{PID: 1}}}}}
	series := make([]int64, seconds)
	for i := range series {
		series[i] = f.rps
	}
	if gen.Foreign == contract.LoadOpen {
		lag := 0.1
		if len(f.lag) > 0 {
			lag, f.lag = f.lag[0], f.lag[1:]
		}
		res.Open = &contract.OpenLoopResult{DurationS: float64(seconds), StartUnixNs: 1, Scheduled: requests, Status2xx: requests, RequestsPerSecond: series, LatencyP50Ms: 1, LatencyP90Ms: 2, LatencyP99Ms: 3, LatencyMaxMs: 4, SendLagP99Ms: lag}
	} else {
		res.Closed = &contract.ClosedLoopResult{StartUnixNs: 1, MeasuredS: float64(seconds), Status2xx: requests, RequestsPerSecond: series, LatencyP50Ms: 2, LatencyP90Ms: 4, LatencyP99Ms: 5, LatencyMaxMs: 7}
	}
	out := experiment.PodResult{Exits: []contract.Exit{{Role: "api", Running: true}, {Role: "loadgen"}}}
	console := strings.Repeat("GET /health 200\n", int(math.Round(lines*float64(sent))))
	if api.MountPath != "" && strings.Contains(config, "file") {
		res.Files = []contract.LogFile{{Path: "app.log", Lines: int64(len(console) / 16), Bytes: int64(len(console))}}
		console = ""
	} else if api.MountPath != "" {
		res.Files = []contract.LogFile{}
	}
	out.Logs = map[string][]byte{"api": []byte(console)}
	out.Result, _ = json.Marshal(res)
	return out, nil
}

func runMatrix(t *testing.T, pods experiment.Pods, rounds int, args ...string) (*Bundle, *verify.Result, string) {
	t.Helper()
	p, err := Experiment.Plan(flags(t, args...), rounds)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Target(experiment.Env{Image: func(string) (string, bool, error) { return "sha256:feed", true, nil }}); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "bundle")
	all := experiment.Rotate(p.Conditions(), p.Rounds())
	p.Bundle().Common().RunsPlanned = len(all)
	p.Bundle().Common().Command = "reproduce"
	p.Bundle().Common().SchemaVersion = bundle.SchemaVersion
	m := &experiment.Matrix{Pods: pods, Plan: p, Images: map[string]string{LoadImage: "sha256:load"}, Dir: dir, Save: realTimes(bundle.WriteFiles), Progress: io.Discard}
	if err := m.Run(context.Background(), all); err != nil {
		t.Fatal(err)
	}
	files, err := bundle.ReadFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	res := Experiment.Verify(files)
	if !res.OK() {
		t.Fatalf("the bundle does not verify: %v", res.Problems)
	}
	var sum bytes.Buffer
	if err := p.Bundle().Summary(&sum); err != nil {
		t.Fatal(err)
	}
	return p.Bundle().(*Bundle), res, sum.String()
}

// realTimes saves a bundle as save does, with the times a real engine's runs would have:
// the fake answers at once, but a run lasts its service's start, its warm-up and its
// measured interval, one run after the other, and the bundle is created before its first
// run and saved after its last; verify holds a bundle to that (verify.RuleTimes,
// verify.RuleWallParts).
func realTimes(save func(string, map[string][]byte) error) func(string, map[string][]byte) error {
	return func(dir string, files map[string][]byte) error {
		recs, err := csv.NewReader(bytes.NewReader(files[RunsFile])).ReadAll()
		if err != nil {
			return err
		}
		started, wall := slices.Index(recs[0], "started_utc"), slices.Index(recs[0], "wall_s")
		const runS = 10
		at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
		var m Manifest
		if err := json.Unmarshal(files[ManifestFile], &m); err != nil {
			return err
		}
		m.CreatedUTC = at.Add(-time.Minute)
		for _, rec := range recs[1:] {
			rec[started], rec[wall] = at.Format(time.RFC3339Nano), strconv.Itoa(runS)
			at = at.Add((runS + 1) * time.Second)
		}
		m.FinishedUTC = at
		var runs bytes.Buffer
		w := csv.NewWriter(&runs)
		if err := w.WriteAll(recs); err != nil {
			return err
		}
		body, err := json.MarshalIndent(m, "", "  ")
		if err != nil {
			return err
		}
		files[RunsFile], files[ManifestFile] = runs.Bytes(), append(body, '\n')
		return save(dir, files)
	}
}

var fakeArgs = []string{"--image", "theirs:1", "--port", "8080", "--path", "/health", "--config", "none:LOG=none", "--config", "one:LOG=one",
	"--config", "two:LOG=two", "--config", "file:LOG=file", "--log-file", "/var/log/app"}

func TestLinesAreCountedPerRequestAndCostsSetAgainstTheBaseline(t *testing.T) {
	b, _, sum := runMatrix(t, &fake{perConfig: map[string]float64{"none": 0, "one": 1, "two": 2, "file": 1}, rps: 1000}, 2, fakeArgs...)
	byName := map[string]ConditionRow{}
	for _, c := range conditionsOf(b) {
		byName[c.Config] = c
	}
	if c := byName["two"]; math.Abs(float64(c.LinesPerRequest)-2) > 1e-9 || c.RunsPooled != 2 || !c.LinesSteady {
		t.Errorf("two: %+v", c)
	}
	if c := byName["file"]; math.Abs(float64(c.FilePerReq)-1) > 1e-9 || math.Abs(float64(c.ConsolePerReq)) > 1e-9 {
		t.Errorf("file: %+v", c)
	}
	if c := byName["none"]; !c.Baseline || float64(c.CostPerRequestUs) != 0 || c.RequestsPerS != 1000 {
		t.Errorf("none: %+v", c)
	}
	// 10 us inside per line, and the fake engine's 10 us per line.
	if c := byName["two"]; math.Abs(float64(c.CostAPIUs)-20) > 1e-6 || math.Abs(float64(c.CostEngineUs)-20) > 1e-6 {
		t.Errorf("two's cost: %+v", c)
	}
	for _, want := range []string{"counted, not verified", "none (baseline)", "lines/req"} {
		if !strings.Contains(sum, want) {
			t.Errorf("summary lacks %q:\n%s", want, sum)
		}
	}
}

// shifting is a fake whose service writes one line and a half per request in its
// second run of "one", and one in the others.
type shifting struct {
	fake
	seen    int
	shifted float64 // lines per request of the shifted run (0: 1.5)
}

func (s *shifting) RunPod(ctx context.Context, spec experiment.PodSpec, w io.Writer) (experiment.PodResult, error) {
	if strings.Join(spec.Containers[0].Env, ",") == "LOG=one" {
		s.seen++
	}
	s.perConfig["one"] = 1
	if s.seen == 2 {
		s.perConfig["one"] = 1.5
		if s.shifted != 0 {
			s.perConfig["one"] = s.shifted
		}
	}
	return s.fake.RunPod(ctx, spec, w)
}

func TestARunWhoseLinesPerRequestMoveIsMarked(t *testing.T) {
	f := &shifting{fake: fake{perConfig: map[string]float64{"none": 0, "one": 1}, rps: 500}}
	b, _, sum := runMatrix(t, f, 3, "--image", "theirs:1", "--port", "80", "--config", "none:LOG=none", "--config", "one:LOG=one")
	marked := 0
	for _, r := range b.Runs {
		if r.Mark != "" {
			marked++
			if r.Config != "one" || !strings.Contains(r.Mark, "lines per request 1.500") || !r.Verified {
				t.Errorf("%+v", r)
			}
		}
	}
	if marked != 1 || !strings.Contains(sum, "MARKED: one: 1 run(s)") {
		t.Errorf("%d marked\n%s", marked, sum)
	}
}

func TestAnOpenLoopRunWithLateSendsIsRedone(t *testing.T) {
	f := &fake{perConfig: map[string]float64{"none": 0}, rps: 100, lag: []float64{5, 0.2}}
	b, res, _ := runMatrix(t, f, 1, "--image", "theirs:1", "--port", "80", "--config", "none:LOG=none", "--load", "open", "--rate", "100")
	if len(b.Runs) != 2 || !b.Runs[0].Superseded || b.Runs[1].Attempt != 2 || !b.Runs[1].Trusted || conditionsOf(b)[0].RunsPooled != 1 || res.Counts.Trusted != 1 {
		t.Errorf("%+v\n%+v", b.Runs, conditionsOf(b))
	}
}

func TestAContainerThatExitsIsAFailedRunKeptAsData(t *testing.T) {
	run := experiment.Run{ID: "one-r1-x", Condition: tabular.Cell{"one", ""}, Round: 1, Attempt: 1,
		Failure: "api container exited with code 1: panic: boom; api container exited during the run"}
	res := contract.ForeignResult{Ready: contract.ForeignReady{OK: true}, Closed: &contract.ClosedLoopResult{StartUnixNs: 1, MeasuredS: 0.4, Status2xx: 10, Errors: 3, RequestsPerSecond: []int64{10}}}
	run.Pod.Result, _ = json.Marshal(res)
	pl, err := Experiment.Plan(flags(t, "--image", "x", "--port", "80", "--config", "one"), 1)
	if err != nil {
		t.Fatal(err)
	}
	b := pl.Bundle().(*Bundle)
	if !b.Measured(run) {
		t.Fatal("a run that reached its load is measured")
	}
	line, verified := b.Add(run)
	if verified || !strings.Contains(line, "FAILED: api container exited with code 1: panic: boom") {
		t.Errorf("%v %s", verified, line)
	}
}

func TestCompareShowsAChangeWithItsSignificance(t *testing.T) {
	a, resA, _ := runMatrix(t, &fake{perConfig: map[string]float64{"none": 0, "one": 1}, rps: 1000}, 3, "--image", "theirs:1", "--port", "80", "--config", "none:LOG=none", "--config", "one:LOG=one")
	_, resB, _ := runMatrix(t, &fake{perConfig: map[string]float64{"none": 0, "one": 2}, rps: 1000}, 3, "--image", "theirs:1", "--port", "80", "--config", "none:LOG=none", "--config", "one:LOG=one")
	_ = a
	var out, warn bytes.Buffer
	err := Experiment.Compare(&out, &warn, []experiment.Source{{Label: "v1", Result: resA}, {Label: "v2", Result: resB}}, experiment.CompareOptions{Format: "csv"})
	if err != nil {
		t.Fatal(err)
	}
	text := out.String()
	if !strings.Contains(text, "lines_per_request") || !strings.Contains(text, "requests_per_s") || !strings.Contains(text, "cpu_us_per_request") {
		t.Errorf("compare:\n%s", text)
	}
	var html bytes.Buffer
	if err := (Experiment).Report(&html, []experiment.Source{{Label: resA.Name, Result: resA}}, "test"); err != nil || !strings.Contains(html.String(), "counted, not verified") {
		t.Errorf("report: %v", err)
	}
}

func TestPrepareSaysWhyTheServiceNeverAnswered(t *testing.T) {
	p, err := Experiment.Plan(flags(t, "--image", "theirs:1", "--port", "8080", "--path", "/nope", "--config", "a"), 1)
	if err != nil {
		t.Fatal(err)
	}
	p.Target(experiment.Env{Image: func(string) (string, bool, error) { return "sha256:1", true, nil }})
	for _, c := range []struct {
		res   contract.ForeignResult
		exits []contract.Exit
		want  string
	}{
		{contract.ForeignResult{Ready: contract.ForeignReady{LastStatus: 404}, Failure: "GET /nope answered 404 Not Found, not 2xx (for 30s)"}, nil, "--port 8080 --path /nope: GET /nope answered 404 Not Found"},
		{contract.ForeignResult{Failure: "nothing listened on 127.0.0.1:8080 within 30s"}, nil, "nothing listened on 127.0.0.1:8080"},
		{contract.ForeignResult{Failure: "nothing listened"}, []contract.Exit{{Role: "api", ExitCode: 3, LogTail: "starting\nno config"}}, "the container exited (code 3) before answering: no config"},
	} {
		body, _ := json.Marshal(c.res)
		pods := podsFunc(func(experiment.PodSpec) (experiment.PodResult, error) {
			return experiment.PodResult{Result: body, Exits: c.exits}, nil
		})
		err := p.(plan).Prepare(context.Background(), pods, map[string]string{}, 0, io.Discard)
		var u experiment.UsageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v, want %q", err, c.want)
		}
	}
}

type podsFunc func(experiment.PodSpec) (experiment.PodResult, error)

func (f podsFunc) RunPod(_ context.Context, spec experiment.PodSpec, _ io.Writer) (experiment.PodResult, error) {
	return f(spec)
}

func TestEveryColumnIsDescribed(t *testing.T) {
	if u := bundle.Undocumented(Experiment.DataPackage()); len(u) > 0 {
		t.Errorf("undocumented: %v", u)
	}
}

func TestConsoleLinesShortInNonBlockingModeAreMarkedAsDropped(t *testing.T) {
	f := &shifting{fake: fake{perConfig: map[string]float64{"one": 1}, rps: 500}}
	f.shifted = 0.8
	b, _, _ := runMatrix(t, f, 3, "--image", "theirs:1", "--port", "80", "--config", "one:LOG=one", "--log-opt", "mode=non-blocking")
	marked := 0
	for _, r := range b.Runs {
		if r.Mark != "" {
			marked++
			if !strings.Contains(r.Mark, "lines short of the configuration's fullest run: dropped by the driver in non-blocking mode") {
				t.Errorf("%s", r.Mark)
			}
		}
	}
	if marked != 1 || conditionsOf(b)[0].LinesSteady {
		t.Errorf("%d marked, %+v", marked, conditionsOf(b)[0])
	}
}

// stopping is a fake that is interrupted during its second run.
type stopping struct {
	fake
	cancel context.CancelFunc
}

func (s *stopping) RunPod(ctx context.Context, spec experiment.PodSpec, w io.Writer) (experiment.PodResult, error) {
	if s.runs == 1 {
		s.runs++
		s.cancel()
		return experiment.PodResult{Failure: "interrupted"}, ctx.Err()
	}
	return s.fake.RunPod(ctx, spec, w)
}

func TestAnInterruptedMatrixResumesWithItsImage(t *testing.T) {
	args := []string{"--image", "theirs:1", "--port", "80", "--config", "none:LOG=none", "--config", "one:LOG=one"}
	p, err := Experiment.Plan(flags(t, args...), 2)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Target(experiment.Env{Image: func(string) (string, bool, error) { return "sha256:feed", true, nil }}); err != nil {
		t.Fatal(err)
	}
	c := p.Bundle().Common()
	c.Command, c.SchemaVersion = "reproduce", bundle.SchemaVersion
	all := experiment.Rotate(p.Conditions(), p.Rounds())
	c.RunsPlanned = len(all)
	dir := filepath.Join(t.TempDir(), "bundle")
	ctx, cancel := context.WithCancel(context.Background())
	pods := &stopping{fake: fake{perConfig: map[string]float64{"none": 0, "one": 1}, rps: 100}, cancel: cancel}
	m := &experiment.Matrix{Pods: pods, Plan: p, Images: map[string]string{LoadImage: "sha256:load"}, Dir: dir, Save: realTimes(bundle.WriteFiles), Progress: io.Discard}
	if err := m.Run(ctx, all); !errors.Is(err, context.Canceled) {
		t.Fatalf("%v", err)
	}
	resumed, err := Experiment.Resume(dir)
	if err != nil {
		t.Fatal(err)
	}
	if missing := experiment.Missing(all, resumed.Bundle()); len(missing) != 3 {
		t.Errorf("%d runs missing, want 3", len(missing))
	}
	err = resumed.Target(experiment.Env{Image: func(string) (string, bool, error) { return "sha256:other", true, nil }})
	if !strings.Contains(fmt.Sprint(err), "the bundle ran sha256:feed") {
		t.Errorf("a retagged image: %v", err)
	}
	if err := resumed.Target(experiment.Env{Image: func(string) (string, bool, error) { return "sha256:feed", true, nil }}); err != nil {
		t.Error(err)
	}
}

// parseLoadArgs reads a conductor's command line as the program does.
func parseLoadArgs(cmd []string) (contract.QPSLoadArgs, error) {
	fs := flag.NewFlagSet("qpsload", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	a := contract.DefaultQPSLoadArgs()
	a.Bind(fs)
	return a, fs.Parse(cmd)
}

// TestAFigureNotMeasuredIsAnEmptyField: the closed load schedules nothing, so its runs'
// send_lag_p99_ms is an empty field, never 0; their latencies are figures.
func TestAFigureNotMeasuredIsAnEmptyField(t *testing.T) {
	b, _, _ := runMatrix(t, &fake{perConfig: map[string]float64{"none": 0, "one": 1, "two": 2, "file": 1}, rps: 1000}, 1, fakeArgs...)
	files, err := b.Files()
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(files[RunsFile])).ReadAll()
	if err != nil || len(recs) < 2 {
		t.Fatalf("%v: %d lines", err, len(recs))
	}
	col := func(name string) int { return slices.Index(recs[0], name) }
	lag, p99 := col("send_lag_p99_ms"), col("p99_ms")
	if lag < 0 || p99 < 0 {
		t.Fatalf("header %v", recs[0])
	}
	for _, rec := range recs[1:] {
		if rec[lag] != "" || rec[p99] == "" {
			t.Errorf("run %s: send_lag_p99_ms %q, p99_ms %q", rec[0], rec[lag], rec[p99])
		}
	}
}

// settledOf is the parameters a plan of rounds records, once they check.
func settledOf(p *Params, rounds int) (Params, error) {
	if err := p.Check(); err != nil {
		return *p, err
	}
	return p.settle(rounds), nil
}

// conditionsOf are the bundle's configurations as conditions.csv derives them.
func conditionsOf(b *Bundle) []ConditionRow { return DeriveConditions(b.Runs, *b.Params()) }

package logdriver

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/tabular"
)

// TestPodsCarryTheDriverToItsReceiver: a syslog run's receiver listens on the host's
// loopback and starts first, the API's driver dials it with the run's mode and buffer,
// the reader accounts for every line at the consumer's rate; a file driver's run has
// neither, and its lines are read back through the engine. Each has the engine helper,
// in the host's PID namespace, counting the engine's processes of the kind target
// recorded, started before the conductor that asks it.
func TestPodsCarryTheDriverToItsReceiver(t *testing.T) {
	p := DefaultParams()
	p.EngineKind = contract.EngineDocker
	ids := map[string]string{}
	for _, n := range Experiment.Images {
		ids[n] = "id-" + n
	}
	spec := pod(p, tabular.Cell{"go", SyslogTCP, "non-blocking", "1MiB", "slow", "rsyslog", "500"}, "r1", ids)
	var roles []string
	for _, c := range spec.Containers {
		roles = append(roles, c.Role)
	}
	if !slices.Equal(roles, []string{"receiver", "api", "reader", "engine", "loadgen"}) {
		t.Fatalf("roles %v", roles)
	}
	recv, api, reader, engine, loadgen := spec.Containers[0], spec.Containers[1], spec.Containers[2], spec.Containers[3], spec.Containers[4]
	want := map[string]string{"mode": "non-blocking", "max-buffer-size": "1MiB", "syslog-address": "tcp://127.0.0.1:" + strconv.Itoa(port("r1")),
		"syslog-format": "rfc5424", "tag": "logbench"}
	if !recv.HostNetwork || recv.Image != "id-rsyslog" || api.LogDriver != "syslog" || !maps.Equal(api.LogOpts, want) {
		t.Errorf("receiver %+v; api driver %s %v, want syslog %v", recv, api.LogDriver, api.LogOpts, want)
	}
	if !slices.Contains(recv.Env, "LOGBENCH_SYSLOG_PORT="+strconv.Itoa(port("r1"))) || !slices.Contains(reader.Cmd, "-account=true") ||
		!slices.Contains(reader.Cmd, "-rate-bytes="+strconv.FormatInt(p.ConsumerRate, 10)) || !slices.Equal(spec.MeasureUsage, []string{"receiver"}) {
		t.Errorf("receiver env %v, reader %v, usage %v", recv.Env, reader.Cmd, spec.MeasureUsage)
	}
	if !slices.Contains(api.Cmd, "-mode=numbered") || !slices.Contains(api.Cmd, "-fifo=-") {
		t.Errorf("api %v", api.Cmd)
	}
	if !engine.HostPIDs || engine.HostNetwork || engine.Image != "id-qpsload" || !slices.Contains(engine.Cmd, "-engine-cpu-server=127.0.0.1:9003") ||
		!slices.Contains(engine.Cmd, "-engine-kind=docker") || engine.NanoCPUs != 100_000_000 || !slices.Contains(loadgen.Cmd, "-engine-cpu-url=http://127.0.0.1:9003/sample") {
		t.Errorf("engine helper %+v, conductor %v", engine, loadgen.Cmd)
	}

	file := pod(p, tabular.Cell{"python", JSONFile, "blocking", noBuffer, engineFile, noReceiver, "500"}, "r2", ids)
	if len(file.Containers) != 3 || file.Containers[0].Image != "id-api-python" || file.Containers[0].LogDriver != JSONFile || !slices.Equal(file.CollectLogs, []string{"api"}) ||
		file.Containers[1].Role != "engine" || !slices.Contains(file.Containers[2].Cmd, "-no-reader=true") || len(file.Containers[0].LogOpts) != 1 {
		t.Errorf("json-file pod %+v", file)
	}

	// An engine whose processes the kit cannot identify: no helper, nothing asked of one.
	p.EngineKind = ""
	file = pod(p, tabular.Cell{"go", JSONFile, "blocking", noBuffer, engineFile, noReceiver, "500"}, "r3", ids)
	if len(file.Containers) != 2 || slices.ContainsFunc(file.Containers[1].Cmd, func(a string) bool { return strings.HasPrefix(a, "-engine-cpu-url=h") }) ||
		slices.Contains(needs(p), "qpsload") {
		t.Errorf("unmeasured engine: pod %+v, images %v", file, needs(p))
	}
}

// TestTheMatrixHasNoMeaninglessCell: a blocking driver has no buffer axis, a file
// driver no consumer or receiver.
func TestTheMatrixHasNoMeaninglessCell(t *testing.T) {
	p := DefaultParams()
	p.Drivers, p.BufferSizes, p.Receivers = []string{JSONFile, SyslogUDP}, []int64{64 << 10, 1 << 20}, []string{"rsyslog", "syslog-ng"}
	var got []string
	for _, c := range conditions(p) {
		got = append(got, c.String())
	}
	want := []string{
		"go/json-file/blocking/-/engine/-/500", "go/json-file/non-blocking/64KiB/engine/-/500", "go/json-file/non-blocking/1MiB/engine/-/500",
	}
	for _, m := range []string{"blocking/-", "non-blocking/64KiB", "non-blocking/1MiB"} {
		for _, c := range []string{"fast", "slow"} {
			for _, r := range []string{"rsyslog", "syslog-ng"} {
				want = append(want, "go/syslog-udp/"+m+"/"+c+"/"+r+"/500")
			}
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("cells\n%v\nwant\n%v", got, want)
	}
}

// TestAConsumerThatDropsKnownLinesIsAccountedFor: the lines read back from a file
// driver lack 10-19 and 50, have 30 twice and 61 changed; the row names the ranges,
// the tail no line reached, and the run is not data because a line came back changed.
func TestAConsumerThatDropsKnownLinesIsAccountedFor(t *testing.T) {
	p := DefaultParams()
	p.DurationS, p.Rates = 1, []float64{100}
	var logs []byte
	for seq := int64(0); seq < 90; seq++ {
		switch {
		case seq >= 10 && seq <= 19, seq == 50:
			continue
		case seq == 61:
			line := contract.NumberedLine(seq)
			line[20] = 'X'
			logs = append(logs, line...)
			continue
		}
		logs = append(logs, contract.NumberedLine(seq)...)
		if seq == 30 {
			logs = append(logs, contract.NumberedLine(seq)...)
		}
	}
	var res contract.Result
	res.API.Counters.Written.Lines = 100
	for i := range 100 {
		res.Requests = append(res.Requests, contract.Observation{Seq: int64(i), Scheduled: 1, Sent: 2, Done: 1_000_001, Status: 200})
	}
	body, _ := json.Marshal(res)
	run := experiment.Run{ID: "r", Round: 1, Condition: tabular.Cell{"python", JSONFile, "non-blocking", "1MiB", engineFile, noReceiver, "100"},
		Pod: experiment.PodResult{Result: body, Logs: map[string][]byte{"api": logs}}}
	r := observe(p, run)
	judge(p, &r, nil)
	if r.LinesReceived != 78 || r.LinesLost != 22 || r.LinesDuplicated != 1 || r.LinesCorrupted != 1 {
		t.Errorf("received %d lost %d duplicated %d corrupted %d, want 78, 22, 1, 1", r.LinesReceived, r.LinesLost, r.LinesDuplicated, r.LinesCorrupted)
	}
	if r.LostRanges != "10-19 50 61 90-99" {
		t.Errorf("lost ranges %q", r.LostRanges)
	}
	if r.Verified || !strings.Contains(r.Failure, "1 lines came back changed") {
		t.Errorf("verified %v, failure %q", r.Verified, r.Failure)
	}
	if r.LatencyP99Ms != 1 || r.Requests != 100 {
		t.Errorf("p99 %v ms of %d requests", r.LatencyP99Ms, r.Requests)
	}
}

// TestTheEngineIsMeasuredWhereTheKitKnowsItsProcesses: target records the engine's
// kind in the parameters (the manifest), which the pods' helper counts and verify
// checks; an unknown kind is measured nowhere, and a bundle is not resumed on another.
func TestTheEngineIsMeasuredWhereTheKitKnowsItsProcesses(t *testing.T) {
	p := DefaultParams()
	if err := target(p, experiment.Env{Engine: contract.EngineFacts{Kind: contract.EngineDocker}}); err != nil || p.EngineKind != "docker" || !slices.Contains(needs(p), "qpsload") {
		t.Fatalf("docker: %v, engine kind %q, images %v", err, p.EngineKind, needs(p))
	}
	if err := p.Check(); err != nil {
		t.Fatal(err)
	}
	err := target(p, experiment.Env{Engine: contract.EngineFacts{Kind: "", KindEvidence: "a daemon of no known name"}})
	if err == nil || !strings.HasPrefix(err.Error(), "--resume: the bundle's runs counted the processes of docker") {
		t.Errorf("resumed on an unknown engine: %v", err)
	}
	unknown := DefaultParams()
	if err := target(unknown, experiment.Env{}); err != nil || unknown.EngineKind != "" || slices.Contains(needs(unknown), "qpsload") ||
		!slices.ContainsFunc(notes(unknown), func(n string) bool { return strings.Contains(n, "engine's own CPU and memory are not measured") }) {
		t.Errorf("unknown engine: %v, kind %q, images %v, notes %v", err, unknown.EngineKind, needs(unknown), notes(unknown))
	}
	p.EngineKind = "kubelet"
	if err := p.Check(); err == nil || !strings.Contains(err.Error(), `engine_kind "kubelet"`) {
		t.Errorf("a manifest's engine kind the kit does not know: %v", err)
	}
}

// TestTheEnginesCostIsARunsColumnsNotItsVerdict: the engine's CPU between the samples
// in cores and the daemon's peak memory; a sample that failed leaves them empty and
// says why, and the run is data all the same.
func TestTheEnginesCostIsARunsColumnsNotItsVerdict(t *testing.T) {
	p := DefaultParams()
	p.DurationS, p.Rates, p.EngineKind = 1, []float64{10}, contract.EngineDocker
	row := func(res contract.Result) Row {
		t.Helper()
		res.API.Counters.Written.Lines = 10
		for i := range 10 {
			res.Requests = append(res.Requests, contract.Observation{Seq: int64(i), Scheduled: 1, Sent: 2, Done: 1_000_001, Status: 200})
		}
		var logs []byte
		for seq := range int64(10) {
			logs = append(logs, contract.NumberedLine(seq)...)
		}
		body, _ := json.Marshal(res)
		r := observe(p, experiment.Run{ID: "r", Round: 1, Condition: tabular.Cell{"go", JSONFile, "blocking", noBuffer, engineFile, noReceiver, "10"},
			Pod: experiment.PodResult{Result: body, Logs: map[string][]byte{"api": logs}}})
		judge(p, &r, nil)
		return r
	}
	r := row(contract.Result{Engine: &contract.EngineCPU{CPUS: 0.6, IntervalS: 4}, EngineRSSPeakBytes: 90 << 20, EngineSamples: 5})
	if !r.Verified || r.EngineCPUCores != 0.15 || r.EngineRSSPeak != 90<<20 || r.EngineSamples != 5 || r.EngineFailure != "" {
		t.Errorf("measured: verified %v (%s), %v cores, peak %v of %d samples, %q", r.Verified, r.Failure, r.EngineCPUCores, r.EngineRSSPeak, r.EngineSamples, r.EngineFailure)
	}
	r = row(contract.Result{Engine: &contract.EngineCPU{Failure: "engine sample at the drain's end: GET: 500"}, EngineRSSPeakBytes: 90 << 20, EngineSamples: 3})
	if !r.Verified || r.EngineCPUCores.Present() || r.EngineCPUS.Present() || r.EngineRSSPeak.Present() || r.EngineFailure != "engine sample at the drain's end: GET: 500" {
		t.Errorf("failed sample: verified %v (%s), %v cores, %v s, peak %v, %q", r.Verified, r.Failure, r.EngineCPUCores, r.EngineCPUS, r.EngineRSSPeak, r.EngineFailure)
	}
	p.EngineKind = ""
	if r = row(contract.Result{}); !r.Verified || r.EngineCPUCores.Present() || !strings.Contains(r.EngineFailure, "cannot identify") {
		t.Errorf("unknown engine: verified %v, %v cores, %q", r.Verified, r.EngineCPUCores, r.EngineFailure)
	}
	// An engine that ignored the API's CPU limit, as its container read it: not data.
	if r = row(contract.Result{APIAtLastResponse: contract.CgroupSnapshot{UnixNano: 1, CPULimitCores: 0, MemoryLimitBytes: p.Limits.APIMemoryBytes}}); r.Verified ||
		!strings.Contains(r.Failure, "did not apply the limits") || !strings.Contains(r.Failure, "CPU limit is 0 cores") {
		t.Errorf("limit not applied: verified %v, %q", r.Verified, r.Failure)
	}
}

// TestEachEngineIsRefusedTheDriversItLacks, in one line before anything starts.
func TestEachEngineIsRefusedTheDriversItLacks(t *testing.T) {
	podman, docker := experiment.Env{Engine: contract.EngineFacts{Kind: contract.EnginePodman}}, experiment.Env{Engine: contract.EngineFacts{Kind: contract.EngineDocker}}
	for _, c := range []struct {
		drivers []string
		env     experiment.Env
		want    string
	}{
		{DefaultParams().Drivers, podman, "--drivers json-file: Podman has no json-file driver; of these it offers k8s-file"},
		{[]string{K8sFile, SyslogUDP}, podman, "--drivers syslog-udp: Podman has no syslog-udp driver"},
		{[]string{K8sFile}, podman, "--driver-modes non-blocking: Podman's drivers have no non-blocking mode"},
		{[]string{JSONFile, K8sFile}, docker, "--drivers k8s-file: Docker has no k8s-file driver"},
		{Drivers[:2], docker, ""},
		{Drivers[:2], experiment.Env{Engine: contract.EngineFacts{Kind: contract.EngineKubernetes}}, "log-driver measures an engine's logging drivers, and a Kubernetes node has one console path"},
	} {
		p := DefaultParams()
		p.Drivers = c.drivers
		err := target(p, c.env)
		if p.Modes = []string{"blocking"}; c.want == "" && err == nil {
			err = target(p, c.env)
		}
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)) {
			t.Errorf("%v on %s: %v, want %q", c.drivers, c.env.Engine.Kind, err, c.want)
		}
	}
}

// TestLongLinesReachTheAPIAndTheReader: --line-bytes is the API's line and the reader's,
// and the model's; the usual length adds nothing to the API's command.
func TestLongLinesReachTheAPIAndTheReader(t *testing.T) {
	p := DefaultParams()
	p.LineBytes = 4096
	ids := map[string]string{}
	for _, n := range Experiment.Images {
		ids[n] = "id-" + n
	}
	spec := pod(p, tabular.Cell{"node", SyslogTCP, "blocking", noBuffer, "slow", "rsyslog", "400"}, "r1", ids)
	if api, reader := spec.Containers[1], spec.Containers[2]; !slices.Contains(api.Cmd, "-line-bytes=4096") || !slices.Contains(reader.Cmd, "-line-bytes=4096") {
		t.Errorf("api %v, reader %v", api.Cmd, reader.Cmd)
	}
	r := Row{Driver: SyslogTCP, Mode: "blocking", Buffer: noBuffer, Consumer: "slow", RateRPS: "400"}
	if m := modelOf(p, &r); m.LineBytes != 4096 || m.BufferBytes != Buffer(SyslogTCP, p.QueueMessages, 0, 4096) {
		t.Errorf("model %+v", m)
	}
	p.LineBytes = contract.NumberedLineBytes
	spec = pod(p, tabular.Cell{"go", SyslogTCP, "blocking", noBuffer, "slow", "rsyslog", "400"}, "r1", ids)
	if slices.ContainsFunc(spec.Containers[1].Cmd, func(a string) bool { return strings.HasPrefix(a, "-line-bytes") }) {
		t.Errorf("api %v", spec.Containers[1].Cmd)
	}
}

// TestLineBytesBeyondWhatTheDriversCarryWholeIsRefused: 128 to 64 KiB, and no more than
// every driver chosen carries in one piece.
func TestLineBytesBeyondWhatTheDriversCarryWholeIsRefused(t *testing.T) {
	for _, c := range []struct {
		drivers []string
		line    int
		want    string
	}{
		{[]string{JSONFile, SyslogTCP}, 16384, ""},
		{[]string{JSONFile, SyslogTCP}, 16385, "the syslog-tcp driver carries lines of at most 16384 bytes whole"},
		{[]string{JSONFile, Local}, 20000, "the local driver carries lines of at most 16384"},
		{[]string{SyslogUDP}, 16385, "syslog-udp driver carries lines of at most 16384"},
		{[]string{JSONFile}, 65536, ""},
		{[]string{JSONFile}, 65537, "--line-bytes 65537: want 128 to 65536"},
		{[]string{JSONFile}, 127, "--line-bytes 127: want 128 to 65536"},
		{[]string{JSONFile}, 0, ""}, // a manifest's from before lines had a length
	} {
		p := DefaultParams()
		p.Drivers, p.LineBytes = c.drivers, c.line
		err := p.Check()
		if (c.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%v, %d bytes: %v, want %q", c.drivers, c.line, err, c.want)
		}
	}
	p := DefaultParams()
	p.LineBytes, p.ConsumerRate = 4096, 4095
	if err := p.Check(); err == nil || !strings.Contains(err.Error(), "--consumer-rate 4095: want 4096 bytes (a line)") {
		t.Errorf("a consumer slower than a line a second: %v", err)
	}
	p.Drivers = []string{JSONFile} // no consumer to slow
	if err := p.Check(); err != nil {
		t.Errorf("json-file, 4 KiB lines, --consumer-rate 4095: %v", err)
	}
}

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
// neither, and its lines are read back through the engine.
func TestPodsCarryTheDriverToItsReceiver(t *testing.T) {
	p := DefaultParams()
	ids := map[string]string{}
	for _, n := range Experiment.Images {
		ids[n] = "id-" + n
	}
	spec := pod(p, tabular.Cell{"go", SyslogTCP, "non-blocking", "1MiB", "slow", "rsyslog", "500"}, "r1", ids)
	var roles []string
	for _, c := range spec.Containers {
		roles = append(roles, c.Role)
	}
	if !slices.Equal(roles, []string{"receiver", "api", "reader", "loadgen"}) {
		t.Fatalf("roles %v", roles)
	}
	recv, api, reader := spec.Containers[0], spec.Containers[1], spec.Containers[2]
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

	file := pod(p, tabular.Cell{"python", JSONFile, "blocking", noBuffer, engineFile, noReceiver, "500"}, "r2", ids)
	if len(file.Containers) != 2 || file.Containers[0].Image != "id-api-python" || file.Containers[0].LogDriver != JSONFile || !slices.Equal(file.CollectLogs, []string{"api"}) ||
		!slices.Contains(file.Containers[1].Cmd, "-no-reader=true") || len(file.Containers[0].LogOpts) != 1 {
		t.Errorf("json-file pod %+v", file)
	}
}

// TestTheMatrixHasNoMeaninglessCell: a blocking driver has no buffer axis, a file
// driver no consumer or receiver.
func TestTheMatrixHasNoMeaninglessCell(t *testing.T) {
	p := DefaultParams()
	p.Drivers, p.BufferSizes, p.Receivers = []string{JSONFile, SyslogUDP}, Sizes{64 << 10, 1 << 20}, []string{"rsyslog", "syslog-ng"}
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
	p.DurationS, p.Rates = 1, Rates{100}
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
	judge(p, &r)
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

package fifostall

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// resultWithLag is a verified run's result whose every send is lag late.
func resultWithLag(t *testing.T, lag time.Duration) []byte {
	t.Helper()
	start := time.Now().UnixNano()
	res := contract.Result{Params: contract.RunParams{Rate: 20, Duration: time.Second}, WarmupStart: start - 1e8, LoadStart: start}
	for i := range 20 {
		at := start + int64(i)*5e7
		res.Requests = append(res.Requests, contract.Observation{Seq: int64(i), Scheduled: at, Sent: at + int64(lag), Done: at + int64(lag) + 2e6, Status: 200})
	}
	res.LastResponse = res.Requests[19].Done
	res.LogsRead = res.LastResponse
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFIFOStallRedoesARunOverItsBound: a verified run over the bound is redone while
// retries remain, and marked superseded; one within it, or out of retries, is kept.
func TestFIFOStallRedoesARunOverItsBound(t *testing.T) {
	params := DefaultParams(GoAPI)
	params.Modes, params.Readers, params.DurationS, params.MaxSendLagP99Ms, params.Retries = []string{"none"}, []string{FastReader}, 1, 1, 1
	p, err := Tabular.Plan(params, 1)
	if err != nil {
		t.Fatal(err)
	}
	b := p.Bundle().(*TabularBundle)
	cond := p.Conditions()[0]
	add := func(id string, attempt int, lag time.Duration) experiment.Run {
		run := experiment.Run{ID: id, Condition: cond, Round: 1, Position: 1, Attempt: attempt, Pod: experiment.PodResult{Result: resultWithLag(t, lag)}}
		if _, verified := b.Add(run); !verified {
			t.Fatalf("run %s not verified: %s", id, b.Runs[len(b.Runs)-1].Failure)
		}
		return run
	}
	if r := add("late", 1, 3*time.Millisecond); !b.Retry(r) || !b.Runs[0].Superseded {
		t.Fatal("a run 3 ms late against a 1 ms bound, attempt 1 of 2, is redone")
	}
	if b.Has(cond, 1) || b.Attempts(cond, 1) != 1 {
		t.Fatal("a superseded attempt is not the round's run, but is counted as an attempt")
	}
	if r := add("late-again", 2, 3*time.Millisecond); b.Retry(r) {
		t.Fatal("no retry is left for attempt 2")
	}
	if !b.Has(cond, 1) || b.Runs[1].Superseded || b.Runs[1].Attempt != 2 {
		t.Fatalf("the last attempt is kept as the round's run: %+v", b.Runs[1])
	}
	files, err := b.Files()
	if err != nil {
		t.Fatal(err)
	}
	d := bundle.DecodeCSV[ConditionRow](ConditionsFile, files[ConditionsFile], 5)
	if c := d.Rows[0]; c.Runs != 1 || c.RunsSuperseded != 1 || c.RunsTrusted != 0 {
		t.Fatalf("condition %+v", c)
	}
	s := TrustSummary(b)
	for _, want := range []string{"0 of 1 runs lag-trusted (send-lag p99 within 1 ms); 1 attempts redone (--retries 1)", "STILL UNTRUSTED after retries: go/none/fast"} {
		if !strings.Contains(s, want) {
			t.Errorf("trust summary %q lacks %q", s, want)
		}
	}
}

// TestTheSharedTopologyIsOneClientContainer: shared runs the reader inside the load
// generator's container under its limits; split keeps three containers.
func TestTheSharedTopologyIsOneClientContainer(t *testing.T) {
	params := Params{APIs: []string{GoAPI}, RateRPS: 20, DurationS: 1, MaxRunTimeS: 60,
		Limits: Limits{Limits: experiment.Limits{APICPUs: 0.25, LoadgenCPUs: 0.25, LoadgenMemoryBytes: 256 << 20}, ReaderCPUs: 0.5}}
	cond := Cond{GoAPI, "none", SlowReader}
	for _, tc := range []struct {
		topology string
		roles    []string
		images   []string
	}{
		{SharedClient, []string{"api", "loadgen"}, []string{"api", "loadgen"}},
		{SplitClient, []string{"api", "reader", "loadgen"}, []string{"api", "reader", "loadgen"}},
		{"", []string{"api", "reader", "loadgen"}, []string{"api", "reader", "loadgen"}}, // a bundle from before: split
	} {
		params.ClientTopology = tc.topology
		settings := SettingsOf(params)
		spec := settings.Pod(cond, "r", map[string]string{"api": "A", "reader": "R", "loadgen": "L"})
		var roles []string
		for _, c := range spec.Containers {
			roles = append(roles, c.Role)
		}
		if !slices.Equal(roles, tc.roles) || !slices.Equal(settings.Images(params.APIs), tc.images) {
			t.Errorf("%q: roles %v, images %v", tc.topology, roles, settings.Images(params.APIs))
		}
		client := spec.Containers[len(spec.Containers)-1]
		if tc.topology == SharedClient && (client.NanoCPUs != 250_000_000 || !loadgenArgs(t, client.Cmd).WithReader || loadgenArgs(t, client.Cmd).ReaderRate != 262144) {
			t.Errorf("shared client %+v", client)
		}
	}
}

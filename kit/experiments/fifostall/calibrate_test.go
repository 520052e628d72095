package fifostall

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"strings"
	"testing"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
)

// calibrationPods answers the three pods of a calibration with made-up but consistent
// results: a send-lag run whose lags are 0.1..1.0 ms, a saturated slow reader at exactly
// its bound, and a sweep held up to 2000 req/s.
type calibrationPods struct {
	specs []experiment.PodSpec
	fail  string // the role of the run to fail ("lag", "reader", "sweep")
}

func (p *calibrationPods) RunPod(_ context.Context, spec experiment.PodSpec, _ io.Writer) (experiment.PodResult, error) {
	p.specs = append(p.specs, spec)
	var body any
	switch {
	case strings.Contains(spec.RunID, "sweep"):
		if p.fail == "sweep" {
			return experiment.PodResult{}, errors.New("engine went away")
		}
		body = contract.SweepResult{CapacityRPS: 2000, Rates: []contract.SweepRate{
			{RateRPS: 2000, Held: true, Trials: []contract.SweepStep{{LagP99Ms: 0.2}, {LagP99Ms: 0.3, Errors: 1}}},
			{RateRPS: 4000, Held: false, Trials: []contract.SweepStep{{LagP99Ms: 5}}},
		}}
	case strings.Contains(spec.RunID, "lag"):
		res := contract.Result{LoadStart: 1e9, WarmupStart: 5e8, LastResponse: 2e9, LogsRead: 2e9,
			Timer: &contract.TimerFacts{ClockResolutionNs: 30, SleepOvershootP50Us: 100, SleepOvershootP99Us: 200}}
		for i := range 10 {
			s := int64(1e9 + i*1e8)
			res.Requests = append(res.Requests, contract.Observation{Seq: int64(i), Scheduled: s, Sent: s + int64(i+1)*1e5, Done: s + 2e6, Status: 200})
		}
		if p.fail == "lag" {
			res.Failure = "api wrote 10 bytes but reader read 9"
		}
		body = res
	default:
		read := []contract.Sample{{UnixNano: 1e9, Bytes: 0}, {UnixNano: 3e9, Bytes: 2 * 262144}}
		body = contract.Result{LoadStart: 1e9, Reader: contract.ReaderReport{ReaderStatus: contract.ReaderStatus{PipeCapacityBytes: 65536}, Read: read}}
	}
	b, _ := json.Marshal(body)
	return experiment.PodResult{Result: b}, nil
}

func calibrationSettings() Settings {
	return SettingsOf(Params{RateRPS: 20, DurationS: 8, WarmupRequests: 2, MaxRunTimeS: 120, MaxLogBytes: 1 << 20, MaxSendLagP99Ms: 1,
		Limits: Limits{Limits: experiment.Limits{APICPUs: 0.25, APIMemoryBytes: 128 << 20, LoadgenCPUs: 0.25, LoadgenMemoryBytes: 256 << 20, PidsLimit: 128}, ReaderCPUs: 0.25, ReaderMemoryBytes: 256 << 20}})
}

func TestCalibrateReadsEachFigureFromItsRun(t *testing.T) {
	pods := &calibrationPods{}
	images := map[string]string{"api": "A", "reader": "R", "loadgen": "L"}
	c, err := Calibrate(context.Background(), pods, calibrationSettings(), images, CalibrateDefaults)
	if err != nil {
		t.Fatal(err)
	}
	if c.SendLagP50Ms != 0.5 || c.SendLagP99Ms != 1.0 || c.SendLagMaxMs != 1.0 || c.ClockResolutionNs != 30 || c.SleepOvershootP99Us != 200 {
		t.Errorf("send lag and timer: %+v", c)
	}
	if c.ReaderAchievedBytesPerS != 262144 || c.ReaderBoundBytesPerS != 262144 || c.PipeCapacityBytes != 65536 {
		t.Errorf("reader: %+v", c)
	}
	if c.CapacityRPS != 2000 || len(c.Sweep) != 2 || c.Sweep[0].Errors != 1 || len(c.Sweep[0].LagP99Ms) != 2 || c.Sweep[1].Held {
		t.Errorf("sweep: %+v", c.Sweep)
	}
	if len(pods.specs) != 3 {
		t.Fatalf("%d pods, want 3", len(pods.specs))
	}
	// The lag run measures the timers; the sweep gives the API and the load generator
	// the capacity's CPUs, and one Go processor per CPU.
	if !loadgenArgs(t, pods.specs[0].Containers[2].Cmd).Run.MeasureTimer {
		t.Errorf("lag run: %v", pods.specs[0].Containers[2].Cmd)
	}
	sweep := pods.specs[2]
	if sweep.Containers[0].NanoCPUs != 1e9 || sweep.Containers[2].NanoCPUs != 1e9 || loadgenArgs(t, sweep.Containers[2].Cmd).GOMAXPROCS != 1 {
		t.Errorf("sweep pod: %+v", sweep.Containers)
	}
}

// TestAnInstrumentThatCannotCalibrateIsNotTrusted: a failed run or an engine error is an
// error, never a calibration of zeros.
func TestAnInstrumentThatCannotCalibrateIsNotTrusted(t *testing.T) {
	images := map[string]string{"api": "A", "reader": "R", "loadgen": "L"}
	for _, fail := range []string{"lag", "sweep"} {
		_, err := Calibrate(context.Background(), &calibrationPods{fail: fail}, calibrationSettings(), images, CalibrateDefaults)
		if err == nil {
			t.Errorf("%s failing: no error", fail)
		}
	}
}

// loadgenArgs reads a load generator's command line as the program does.
func loadgenArgs(t *testing.T, cmd []string) contract.LoadgenArgs {
	t.Helper()
	fs := flag.NewFlagSet("loadgen", flag.ContinueOnError)
	a := contract.DefaultLoadgenArgs()
	a.Bind(fs)
	if err := fs.Parse(cmd); err != nil {
		t.Fatalf("%v: %v", cmd, err)
	}
	return a
}

// A sweep in which no rate held has no capacity: it says so and names the lowest rate
// tried, never "0 req/s".
func TestACapacitySweepWithNothingHeldSaysSo(t *testing.T) {
	none := &Calibration{CapacityCPUs: 1, CapacityLagBoundMs: 1, Sweep: []SweepStepRow{{RateRPS: 2000}, {RateRPS: 4000}}}
	got := capacityText(none)
	if strings.HasPrefix(got, "0 req/s") || !strings.Contains(got, "lowest tried: 2000 req/s") {
		t.Errorf("capacity with no rate held: %q", got)
	}
	held := &Calibration{CapacityRPS: 4000, CapacityCPUs: 1, CapacityLagBoundMs: 1}
	if got := capacityText(held); !strings.HasPrefix(got, "4000 req/s on 1 CPU") {
		t.Errorf("capacity held: %q", got)
	}
}

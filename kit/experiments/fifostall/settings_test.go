package fifostall

import (
	"flag"
	"strings"
	"testing"
	"time"

	"github.com/logbench/logbench/kit/experiment"
)

// TestSettingsFollowTheRecordedParameters: what runs is what the manifest records, the
// send-lag bound included (it was once written as 0, and every resumed run became
// untrusted).
func TestSettingsFollowTheRecordedParameters(t *testing.T) {
	params := *DefaultParams(GoAPI)
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	params.BindRun(fs, APIUsage)
	if err := fs.Parse([]string{"--max-send-lag", "2.5ms", "--rate", "40", "--duration", "3s"}); err != nil {
		t.Fatal(err)
	}
	if err := params.Check(); err != nil {
		t.Fatal(err)
	}
	if params.MaxSendLagP99Ms != 2.5 {
		t.Errorf("manifest max_send_lag_p99_ms %v, want 2.5", params.MaxSendLagP99Ms)
	}
	s := SettingsOf(params)
	if s.MaxSendLagP99 != 2500*time.Microsecond || s.Protocol.Rate != 40 || s.Protocol.Duration != 3*time.Second {
		t.Errorf("settings %+v", s)
	}
}

// TestOneRunIsTheConditionItsFlagsName: run's flags plan one condition and one round,
// on the Go API unless told; calibration takes the run flags but the API and the
// duration, which it chooses itself.
func TestOneRunIsTheConditionItsFlagsName(t *testing.T) {
	run := Experiment.SingleRunParams()
	if err := experiment.FlagSet("run", run).Parse([]string{"--mode", "none", "--rate", "10"}); err != nil {
		t.Fatal(err)
	}
	p, err := Experiment.PlanSingleRun(run)
	if err != nil {
		t.Fatal(err)
	}
	if conds := p.Conditions(); len(conds) != 1 || conds[0].String() != "go/none/slow" || p.Rounds() != 1 {
		t.Fatalf("conditions %v x %d rounds", conds, p.Rounds())
	}
	if have := p.(experiment.RunReporter).RunHeader(); have != "run go/none/slow: 80 requests at 10 req/s after 2 warm-up" {
		t.Errorf("header %q", have)
	}
	all := Experiment.SingleRunParams()
	if err := experiment.FlagSet("run", all).Parse([]string{"--api", "all"}); err != nil {
		t.Fatal(err)
	}
	if _, err := (Experiment).PlanSingleRun(all); err == nil || !strings.Contains(err.Error(), "one run has one API") {
		t.Errorf("--api all: %v", err)
	}
	// The API's numbered mode is the log-driver experiment's, not one fifo-stall
	// publishes.
	numbered := Experiment.SingleRunParams()
	if err := experiment.FlagSet("run", numbered).Parse([]string{"--mode", "numbered"}); err != nil {
		t.Fatal(err)
	}
	if _, err := (Experiment).PlanSingleRun(numbered); err == nil || !strings.Contains(err.Error(), `unknown logging mode "numbered"`) {
		t.Errorf("--mode numbered: %v", err)
	}

	cal := Experiment.CalibrationParams()
	calFlags := experiment.FlagSet("calibrate", cal)
	for _, ignored := range CalibrationIgnores {
		if calFlags.Lookup(ignored) != nil {
			t.Errorf("calibration declares --%s, which it ignores", ignored)
		}
	}
	if err := calFlags.Parse([]string{"--rate", "40"}); err != nil {
		t.Fatal(err)
	}
	measurement, err := Experiment.PlanCalibration(cal)
	if err != nil {
		t.Fatal(err)
	}
	if s := measurement.(calibration).settings; s.Protocol.Rate != 40 || s.Protocol.Duration != 8*time.Second {
		t.Errorf("calibration settings %+v", s.Protocol)
	}
}

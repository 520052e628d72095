package main

import (
	"testing"
	"time"

	"github.com/logbench/logbench/kit/experiments/fifostall"
)

// TestSettingsFollowTheRecordedParameters: what runs is what the manifest records, the
// send-lag bound included (it was once written as 0, and every resumed run became
// untrusted).
func TestSettingsFollowTheRecordedParameters(t *testing.T) {
	fs := runFlags(fifostall.GoAPI)
	if err := fs.Set.Parse([]string{"--max-send-lag", "2.5ms", "--rate", "40", "--duration", "3s"}); err != nil {
		t.Fatal(err)
	}
	params, err := fifostall.ParamsFrom(fs)
	if err != nil {
		t.Fatal(err)
	}
	if params.MaxSendLagP99Ms != 2.5 {
		t.Errorf("manifest max_send_lag_p99_ms %v, want 2.5", params.MaxSendLagP99Ms)
	}
	s := fifostall.SettingsOf(params)
	if s.MaxSendLagP99 != 2500*time.Microsecond || s.Protocol.Rate != 40 || s.Protocol.Duration != 3*time.Second {
		t.Errorf("settings %+v", s)
	}
}

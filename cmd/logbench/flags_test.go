package main

import (
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/experiments/fifostall"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// TestSettingsFollowTheRecordedParameters: what runs is what the manifest records, the
// send-lag bound included (it was once written as 0, and every resumed run became
// untrusted).
func TestSettingsFollowTheRecordedParameters(t *testing.T) {
	var params bundle.Params
	app := &cli.App{
		Flags: fifostall.RunFlags(fifostall.GoAPI),
		Action: func(c *cli.Context) error {
			var err error
			params, err = fifostall.ParamsFrom(c)
			return err
		},
	}
	if err := app.Run([]string{"logbench", "--max-send-lag", "2.5ms", "--rate", "40", "--duration", "3s"}); err != nil {
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

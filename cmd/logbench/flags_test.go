package main

import (
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/host/bench"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// TestSettingsFollowTheRecordedParameters: what runs is what the manifest records, the
// send-lag bound included (it was once written as 0, and every resumed run became
// untrusted).
func TestSettingsFollowTheRecordedParameters(t *testing.T) {
	var settings bench.Settings
	var params bundle.Params
	app := &cli.App{
		Flags: runFlags(bench.GoAPI),
		Action: func(c *cli.Context) error {
			var err error
			settings, params, err = settingsFrom(c)
			return err
		},
	}
	if err := app.Run([]string{"logbench", "--max-send-lag", "2.5ms", "--rate", "40", "--duration", "3s"}); err != nil {
		t.Fatal(err)
	}
	if params.MaxSendLagP99Ms != 2.5 {
		t.Errorf("manifest max_send_lag_p99_ms %v, want 2.5", params.MaxSendLagP99Ms)
	}
	if settings.MaxSendLagP99 != 2500*time.Microsecond {
		t.Errorf("settings bound %v, want 2.5ms", settings.MaxSendLagP99)
	}
	if resumed := settingsOf(params); resumed != settings {
		t.Errorf("a resumed run's settings %+v differ from the first invocation's %+v", resumed, settings)
	}
}

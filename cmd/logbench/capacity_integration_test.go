package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/logbench/logbench/internal/enginetest"
	"github.com/logbench/logbench/kit/experiments/yourapi"
	"github.com/logbench/logbench/kit/host/images"
)

// TestCapacityOfTheGoAPI searches, briefly, the capacity at p99 ≤ 10 ms of the kit's
// own Go API run as a foreign image, without logs and with its access log on the
// console: 2 s steps from 200 req/s, at most 4 a configuration. Every step is a kept
// run, the bundle verifies (the search replayed from its rows), and the summary says
// each configuration's capacity, or the bound the steps reached.
func TestCapacityOfTheGoAPI(t *testing.T) {
	eng := enginetest.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	builder, platform := enginetest.Builder(t, eng, testWriter{t})
	built, err := builder.Build(ctx, platform)
	if err != nil {
		t.Fatal(err)
	}
	api, ok := built["api"]
	if !ok {
		t.Fatalf("no api image among %v", images.Roles)
	}
	dir := filepath.Join(t.TempDir(), "capacity")
	out, err := runApp(t, "reproduce", "your-api", "--image", api.ID, "--port", "8080", "--path", "/",
		"--config", "none", "--config-cmd", "none:-access-log none", "--config", "console", "--config-cmd", "console:-access-log console",
		"--capacity", "--slo-p99", "10ms", "--capacity-start", "200", "--capacity-max-steps", "4",
		"--duration", "2s", "--warmup-time", "500ms", "--out", dir)
	t.Log(out)
	if err != nil {
		t.Fatalf("reproduce: %v", err)
	}
	b := yourAPIBundle(t, dir)
	kept := yourapi.Search.Steps(b.Params(), b.Runs)
	steps := map[string][]float64{}
	for _, s := range kept {
		if !s.Superseded {
			steps[s.Config] = append(steps[s.Config], s.RateRPS)
		}
	}
	for _, config := range []string{"none", "console"} {
		rates := steps[config]
		if len(rates) == 0 || len(rates) > 4 || rates[0] != 200 {
			t.Errorf("%s's steps %v: want 1 to 4, from 200 req/s", config, rates)
		}
		if !strings.Contains(out, "CAPACITY "+config+": ") {
			t.Errorf("the summary says nothing of %s's capacity", config)
		}
	}
	if len(b.Runs) != len(kept) || b.M.Head().RunsPlanned != len(b.Params().Capacity.Steps) {
		t.Errorf("%d runs, %d steps kept; %d runs planned for %d steps", len(b.Runs), len(kept), b.M.Head().RunsPlanned, len(b.Params().Capacity.Steps))
	}
	vout, err := runApp(t, "verify", dir)
	if err != nil || !strings.Contains(vout, "capacity: none: ") {
		t.Errorf("verify: %v\n%s", err, vout)
	}
}

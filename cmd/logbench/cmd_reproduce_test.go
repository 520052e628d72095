package main

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/logbench/logbench/internal/fifostalltest"
	"github.com/logbench/logbench/kit/experiments/fifostall"

	"github.com/google/go-cmp/cmp"

	"github.com/logbench/logbench/internal/enginetest"
	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiments"
	"github.com/logbench/logbench/kit/offline/bundle"
)

func TestReproduceRejectsBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"reproduce", "--modes", "none,loud"}, "--modes"},
		{[]string{"reproduce", "--readers", "fast,turbo"}, "--readers"},
		{[]string{"reproduce", "--modes", ","}, "--modes"},
		{[]string{"reproduce", "--reps", "0"}, "--reps"},
		{[]string{"reproduce", "--duration", "-1s"}, "--duration"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			_, err := runApp(t, tc.args...)
			var usage usageError
			if !errors.As(err, &usage) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want a usage error naming %s", err, tc.want)
			}
		})
	}
}

func TestReproduceSmallMatrixOnTheEngine(t *testing.T) {
	enginetest.Require(t)
	dir := filepath.Join(t.TempDir(), "bundle")
	out, err := runApp(t, "reproduce", "--modes", "short1,json-queue", "--readers", "fast,slow", "--reps", "1", "--duration", "2s", "--api", "go", "--calibrate=false", "--retries", "0", "--out", dir)
	if err != nil {
		t.Fatalf("reproduce failed: %v\n%s", err, out)
	}
	b, err := fifostalltest.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Runs) != 4 || b.Manifest.RunsVerified != 4 || !b.Manifest.Complete || len(b.Conditions) != 4 {
		t.Fatalf("manifest %+v, %d conditions", b.Manifest, len(b.Conditions))
	}
	// The bundle agrees with itself: conditions.csv as written is what runs.csv and
	// requests.csv give, recomputed.
	files, err := bundle.ReadFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	written := bundle.DecodeCSV[fifostall.ConditionRow](fifostall.ConditionsFile, files.Data[fifostall.ConditionsFile], 5)
	if diff := cmp.Diff(written.Rows, fifostalltest.Derived(b.Runs, b.Manifest.Parameters), equateOpt); len(written.Errs) > 0 || diff != "" {
		t.Fatalf("conditions.csv does not follow from the runs (-file +recomputed):\n%s", diff)
	}
	for _, c := range b.Conditions {
		if c.Requests != 40 || c.Errors != 0 {
			t.Errorf("%s/%s: %d requests, %d errors", c.Mode, c.Reader, c.Requests, c.Errors)
		}
		if c.Mode == "json-queue" && c.Reader == "slow" {
			// 640 KiB at 256 KiB/s: the model says a drain of 0.55 s and 16 req/s to all logs
			// read. 256 KiB/s is the reader's upper bound, so the drain cannot be much
			// shorter on any host; it is longer when the host starves the reader, which the
			// kit measures (host_noisy): the upper bound holds only on a quiet host.
			d, p := float64(c.DrainS), float64(c.PredictedDrainS)
			if d < 0.8*p || (c.RunsNoisy == 0 && d > 1.3*p) {
				t.Errorf("json-queue/slow drain %.3f s, model %.3f s", d, p)
			} else if d > 1.3*p {
				t.Logf("json-queue/slow drain %.3f s, model %.3f s, on a noisy host (%d runs)", d, p, c.RunsNoisy)
			}
		}
	}
	if !strings.Contains(out, "rps_to_logs_read") || !strings.Contains(out, "json-queue  slow") {
		t.Errorf("no comparison table in the output:\n%s", out)
	}
}

// equateOpt treats two absent figures as equal.
var equateOpt = cmp.Comparer(func(a, b bundle.Opt) bool { return a == b || a != a && b != b })

// yourAPIPartialBundle writes an interrupted your-api bundle (no run done yet) planned
// from args, its image found as sha256:feed, as someone else's partial bundle would be.
func yourAPIPartialBundle(t *testing.T, args ...string) string {
	t.Helper()
	return yourAPIPartialBundleOn(t, contract.EngineFacts{}, args...)
}

// yourAPIPartialBundleOn is yourAPIPartialBundle begun on the engine facts say.
func yourAPIPartialBundleOn(t *testing.T, facts contract.EngineFacts, args ...string) string {
	t.Helper()
	exp, err := experiments.Lookup("your-api")
	if err != nil {
		t.Fatal(err)
	}
	params := exp.Params()
	if err := experiment.FlagSet(exp.Info().Name, params).Parse(append([]string{"--image", "theirs:1", "--port", "80", "--config", "none:LOG=none"}, args...)); err != nil {
		t.Fatal(err)
	}
	p, err := exp.Plan(params, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Target(experiment.Env{Image: func(string) (string, bool, error) { return "sha256:feed", true, nil }}); err != nil {
		t.Fatal(err)
	}
	c := p.Bundle().Common()
	all := experiment.Rotate(p.Conditions(), p.Rounds())
	c.Command, c.SchemaVersion, c.RunsPlanned = "reproduce", bundle.SchemaVersion, len(all)
	c.CreatedUTC = time.Now().UTC().Add(-time.Minute) // as reproduce records it
	if facts.Kind != "" {
		c.Engine = facts
	}
	dir := filepath.Join(t.TempDir(), "theirs")
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // interrupted before its first run
	m := &experiment.Matrix{Plan: p, Dir: dir, Save: bundle.WriteFiles, Progress: io.Discard}
	if err := m.Run(ctx, all); !errors.Is(err, context.Canceled) {
		t.Fatalf("%v", err)
	}
	return dir
}

// reproduce --resume on someone else's your-api bundle that relaxed the service's
// hardening is refused in one line naming the flags, before the engine is reached;
// with the same flags it goes on (here to an engine that is not there).
func TestResumeAsksTheCommandLineForTheBundlesRelaxations(t *testing.T) {
	dir := yourAPIPartialBundle(t, "--writable-root", "--cap-add", "NET_ADMIN", "--cap-add", "NET_RAW", "--new-privileges")
	t.Setenv("DOCKER_HOST", "tcp://127.0.0.1:1")
	t.Setenv("DOCKER_CONTEXT", "")
	want := "reproduce your-api --resume " + dir + ": the bundle ran its service with relaxed hardening (writable root file system (--writable-root), capability NET_ADMIN (--cap-add), capability NET_RAW (--cap-add), new privileges (--new-privileges)), which only the command line grants, never a bundle: resume it with --writable-root --cap-add NET_ADMIN --cap-add NET_RAW --new-privileges if you mean to"
	for _, args := range [][]string{
		{"reproduce", "--resume", dir},
		{"reproduce", "your-api", "--resume", dir},
		{"reproduce", "your-api", "--resume", dir, "--writable-root", "--cap-add", "NET_ADMIN"},
	} {
		_, err := runApp(t, args...)
		var usage usageError
		if !errors.As(err, &usage) || err.Error() != want {
			t.Errorf("%v:\n got %v\nwant %s", args, err, want)
		}
	}
	_, err := runApp(t, "reproduce", "your-api", "--resume", dir, "--writable-root", "--cap-add", "NET_ADMIN", "--cap-add", "NET_RAW", "--new-privileges", "--keep-user")
	wantUsageError(t, err, "--keep-user: the bundle ran its service without it")
	_, err = runApp(t, "reproduce", "your-api", "--resume", dir, "--port", "81")
	wantUsageError(t, err, "--port: --resume takes every parameter from the bundle")
	_, err = runApp(t, "reproduce", "your-api", "--resume", dir, "--new-privileges", "--cap-add", "NET_RAW", "--cap-add", "NET_ADMIN", "--writable-root")
	if err == nil || !strings.Contains(err.Error(), "cannot reach the Docker Engine at tcp://127.0.0.1:1") {
		t.Errorf("with the bundle's flags, resume goes on to the engine: %v", err)
	}
}

// --resume of a bundle begun on a cluster goes back to the context, namespace and node
// its manifest names (here a context the kubeconfig lacks: refused in one line, before
// any engine); --registry is refused beside a bundle that did not run on a cluster.
func TestResumeGoesBackToTheBundlesCluster(t *testing.T) {
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(kubeconfig, []byte("apiVersion: v1\nkind: Config\nclusters: []\ncontexts: []\nusers: []\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KUBECONFIG", kubeconfig)
	t.Setenv("DOCKER_HOST", "tcp://127.0.0.1:1")
	t.Setenv("DOCKER_CONTEXT", "")
	onCluster := yourAPIPartialBundleOn(t, contract.EngineFacts{Kind: contract.EngineKubernetes, Platform: "linux/amd64",
		Kubernetes: &contract.KubeFacts{Context: "lab", Server: "https://192.0.2.9:6443", Namespace: "logbench", Node: "n1"}})
	_, err := runApp(t, "reproduce", "--resume", onCluster)
	wantUsageError(t, err, "--resume: the bundle's cluster (context lab): ")
	onDocker := yourAPIPartialBundle(t)
	_, err = runApp(t, "reproduce", "--resume", onDocker, "--registry", "127.0.0.1:5000/lab")
	wantUsageError(t, err, "--registry is for a bundle whose runs ran on Kubernetes")
}

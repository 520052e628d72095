//go:build kube

// The Kubernetes tests are built only with -tags kube: they need a cluster, which
// .ci/run builds and brings up (scripts/kube-up) after the engine tests, and the
// README's test command, which needs only Go and an engine, must not meet a test that
// cannot run there.

package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-containerregistry/pkg/registry"

	"github.com/logbench/logbench/internal/fifostalltest"
	"github.com/logbench/logbench/kit/experiments/qps"
	"github.com/logbench/logbench/kit/host/kube"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// kubeconfig is the cluster the Kubernetes tests run on, named by LOGBENCH_KUBECONFIG
// (scripts/kube-up prints one); without it they fail: they bring no cluster up
// themselves.
func kubeconfig(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("needs a Kubernetes cluster; not in -short mode")
	}
	kc := os.Getenv("LOGBENCH_KUBECONFIG")
	if kc == "" {
		t.Fatal("needs a Kubernetes cluster: LOGBENCH_KUBECONFIG=$(scripts/kube-up), after scripts/kube-images")
	}
	t.Setenv("KUBECONFIG", kc)
}

// nodeBundles are the bundle folders a reproduce on a cluster wrote under root, one a
// node.
func nodeBundles(t *testing.T, root, out string) []string {
	t.Helper()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), "k8s_") {
			dirs = append(dirs, filepath.Join(root, e.Name()))
		}
	}
	if len(dirs) == 0 {
		t.Fatalf("no node's bundle under %s:\n%s", root, out)
	}
	return dirs
}

// runSpan is when a bundle's runs began and ended: from the first run's start to the
// latest end, read from runs.csv's started_utc and wall_s.
func runSpan(t *testing.T, files *bundle.Files) (first, last time.Time) {
	t.Helper()
	rows, err := csv.NewReader(bytes.NewReader(files.Data["runs.csv"])).ReadAll()
	if err != nil || len(rows) < 2 {
		t.Fatalf("runs.csv: %v (%d rows)", err, len(rows))
	}
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	for _, r := range rows[1:] {
		start, err := time.Parse(time.RFC3339Nano, r[col["started_utc"]])
		wall, werr := strconv.ParseFloat(r[col["wall_s"]], 64)
		if err != nil || werr != nil {
			t.Fatalf("runs.csv: started_utc %q, wall_s %q", r[col["started_utc"]], r[col["wall_s"]])
		}
		end := start.Add(time.Duration(wall * float64(time.Second)))
		if first.IsZero() || start.Before(first) {
			first = start
		}
		if end.After(last) {
			last = end
		}
	}
	return first, last
}

// A tiny fifo-stall on the cluster: the Go API, no logging and a fast reader, one run
// a node; every run verifies, with the limits the containers read back, and the bundle
// verifies and records the cluster and the node. Every usable node gives its own
// bundle, and the nodes run at the same time: on a cluster of several nodes, the spans
// of their runs overlap.
func TestReproduceFIFOStallOnKubernetes(t *testing.T) {
	kubeconfig(t)
	root := filepath.Join(t.TempDir(), "fifo")
	out, err := runApp(t, "reproduce", "--engine", "k8s:", "--modes", "none,json-sync", "--readers", "fast", "--reps", "1", "--duration", "1s",
		"--api", "go", "--calibrate=false", "--retries", "0", "--out", root)
	if err != nil {
		t.Fatalf("reproduce on the cluster: %v\n%s", err, out)
	}
	client, err := kube.Dial(context.Background(), kube.Options{})
	if err != nil {
		t.Fatal(err)
	}
	nodes, err := client.Nodes(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	dirs := nodeBundles(t, root, out)
	if len(dirs) != len(nodes) {
		t.Fatalf("%d bundles for the %d nodes %v:\n%s", len(dirs), len(nodes), nodes, out)
	}
	var latestStart, earliestEnd time.Time
	for _, dir := range dirs {
		if vout, err := runApp(t, "verify", dir); err != nil || !strings.Contains(vout, "2 runs (2 verified") {
			t.Errorf("verify %s: %v\n%s", dir, err, vout)
		}
		files, err := bundle.ReadFolder(dir)
		if err != nil {
			t.Fatal(err)
		}
		manifest := string(files.Data[bundle.ManifestFile])
		for _, want := range []string{`"kind": "kubernetes"`, `"kubelet_version"`, `"container_runtime"`, `"default_log_driver": "cri"`} {
			if !strings.Contains(manifest, want) {
				t.Errorf("%s: the manifest lacks %s", dir, want)
			}
		}
		// Each run's Pod as the API server returned it: Guaranteed, with its UID.
		pods := string(files.Data[bundle.PodFile])
		if !strings.Contains(pods, ",Guaranteed,") || strings.Count(pods, ",api,") != 2 {
			t.Errorf("%s: pods.csv does not record both runs' Guaranteed Pods:\n%s", dir, pods)
		}
		first, last := runSpan(t, files)
		if first.After(latestStart) {
			latestStart = first
		}
		if earliestEnd.IsZero() || last.Before(earliestEnd) {
			earliestEnd = last
		}
	}
	if len(dirs) > 1 && !latestStart.Before(earliestEnd) {
		t.Errorf("the %d nodes ran one after another, not at once: the last began at %v, after the first ended at %v", len(dirs), latestStart, earliestEnd)
	}
}

// A tiny qps on the cluster: the Go API without a log and with its console, whose
// every line comes back through the Pod log API (the kubelet's CRI log) equal to what
// the API wrote.
func TestReproduceQPSOnKubernetes(t *testing.T) {
	kubeconfig(t)
	root := filepath.Join(t.TempDir(), "qps")
	out, err := runApp(t, "reproduce", "qps", "--engine", "k8s:", "--api", "go", "--configs", "none,console", "--reps", "1", "--duration", "1s",
		"--warmup-time", "500ms", "--wrk=false", "--out", root)
	if err != nil {
		t.Fatalf("reproduce on the cluster: %v\n%s", err, out)
	}
	for _, dir := range nodeBundles(t, root, out) {
		if vout, err := runApp(t, "verify", dir); err != nil {
			t.Errorf("verify %s: %v\n%s", dir, err, vout)
		}
		files, err := bundle.ReadFolder(dir)
		if err != nil {
			t.Fatal(err)
		}
		runs := string(files.Data[qps.RunsFile])
		if !strings.Contains(runs, ",console,") || !strings.Contains(runs, ",equal,") || !strings.Contains(runs, ",cri,") {
			t.Errorf("%s: no console run read back equal through the CRI log:\n%s", dir, runs)
		}
	}
}

// Ctrl-C on a cluster, as on Docker: the kit deletes the running Pod, keeps the runs it
// completed in a valid partial bundle and exits 130, leaving no Pod in the namespace;
// --resume then reaches the node the manifest names and performs only the missing runs.
func TestInterruptAndResumeOnKubernetes(t *testing.T) {
	kubeconfig(t)
	bin := buildKit(t)
	root := filepath.Join(t.TempDir(), "fifo")
	cmd := exec.Command(bin, "reproduce", "--engine", "k8s:", "--modes", "none,short1", "--readers", "fast", "--reps", "2", "--duration", "2s",
		"--api", "go", "--calibrate=false", "--retries", "0", "--out", root)
	// As on Docker, the progress stream drives the interrupt: the first run's line is
	// printed once it is saved, and the second run's Pod starts at once.
	out, drained := startUntil(t, cmd, func(l string) bool { return strings.Contains(l, " 1/4 ") })
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	<-drained
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 130 {
		t.Fatalf("exit %v, want status 130\n%s", err, out())
	}
	client, err := kube.Dial(context.Background(), kube.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Clean without --force removes what is not running and names what is: both
	// must be empty, the kit having deleted its Pod and waited for it to go.
	if removed, left, err := client.Clean(context.Background(), false); err != nil || len(removed)+len(left) > 0 {
		t.Fatalf("Pods left in the namespace after Ctrl-C: removed %v, left %v, %v", removed, left, err)
	}
	// On a cluster of several nodes each node leaves its own partial bundle: every one
	// must be intact, and the test resumes one that kept a run.
	var dir string
	var b *fifostalltest.Bundle
	for _, d := range nodeBundles(t, root, out()) {
		nb, err := fifostalltest.Load(d)
		if err != nil {
			t.Fatalf("the partial bundle %s is not intact: %v\n%s", d, err, out())
		}
		if b == nil || len(nb.Runs) > len(b.Runs) {
			dir, b = d, nb
		}
	}
	kept := len(b.Runs)
	var node string
	if k := b.Manifest.Engine.Kubernetes; k != nil {
		node = k.Node
	}
	if b.Manifest.Complete || !b.Manifest.Interrupted || kept == 0 || kept >= 4 {
		t.Fatalf("partial manifest %+v with %d runs", b.Manifest, kept)
	}
	if !strings.Contains(out(), "reproduce --resume "+dir) {
		t.Errorf("the message does not say how to resume:\n%s", out())
	}

	res, err := exec.Command(bin, "reproduce", "--resume", dir).CombinedOutput()
	if err != nil {
		t.Fatalf("resume on the cluster: %v\n%s", err, res)
	}
	if b, err = fifostalltest.Load(dir); err != nil {
		t.Fatal(err)
	}
	if !b.Manifest.Complete || b.Manifest.Interrupted || len(b.Runs) != 4 || b.Manifest.RunsVerified != 4 {
		t.Fatalf("resumed manifest %+v with %d runs\n%s", b.Manifest, len(b.Runs), res)
	}
	if vout, err := runApp(t, "verify", dir); err != nil {
		t.Errorf("verify %s: %v\n%s", dir, err, vout)
	}
	if k := b.Manifest.Engine.Kubernetes; b.Manifest.Engine.Kind != "kubernetes" || k == nil || k.Node != node {
		t.Errorf("the resumed bundle's engine is %+v, want the node %s it began on", b.Manifest.Engine, node)
	}
}

// A tiny fifo-stall through a registry: the kit pushes its images to a registry on the
// node's loopback (go-containerregistry's, speaking the distribution API), and the Pods
// pull each by digest, as a cluster without the images would; every image of the
// bundle records the reference it was pulled by, and the runs verify. It runs last: the
// pull leaves the node's runtime a further name for each image, and a node's status
// lists at most five names an image, digests first, so that a test after it could find
// the tags the kit checks unlisted (scripts/kube-images removes such names).
func TestReproduceThroughARegistryOnKubernetes(t *testing.T) {
	kubeconfig(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: registry.New(registry.Logger(log.New(io.Discard, "", 0)))}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	reg := ln.Addr().String() + "/lab"
	root := filepath.Join(t.TempDir(), "fifo")
	out, err := runApp(t, "reproduce", "--engine", "k8s:", "--registry", reg, "--modes", "none", "--readers", "fast", "--reps", "1", "--duration", "1s",
		"--api", "go", "--calibrate=false", "--retries", "0", "--out", root)
	if err != nil {
		t.Fatalf("reproduce on the cluster: %v\n%s", err, out)
	}
	for _, dir := range nodeBundles(t, root, out) {
		if vout, err := runApp(t, "verify", dir); err != nil || !strings.Contains(vout, "1 runs (1 verified") {
			t.Errorf("verify %s: %v\n%s", dir, err, vout)
		}
		files, err := bundle.ReadFolder(dir)
		if err != nil {
			t.Fatal(err)
		}
		var m struct {
			Images []bundle.Image `json:"images"`
		}
		if err := json.Unmarshal(files.Data[bundle.ManifestFile], &m); err != nil || len(m.Images) == 0 {
			t.Fatalf("%s: the manifest's images: %v", dir, err)
		}
		for _, img := range m.Images {
			if !strings.HasPrefix(img.Pulled, reg+"/") || !strings.Contains(img.Pulled, "@sha256:") {
				t.Errorf("%s: image %s (%s) pulled by %q, want by digest from %s", dir, img.Role, img.Tag, img.Pulled, reg)
			}
		}
	}
}

package main

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/logbench/logbench/internal/fakeengine"
	"github.com/logbench/logbench/kit/host/engine"
)

// The engine, faked: a running postgres-prod and a pgdata volume carrying the
// label, beside a stopped pod the kit left and a running one. clean removes the
// stopped pod and its volume, and names everything it left and why; --force adds the
// kit's running pod, and never postgres-prod or pgdata.
func TestCleanSaysWhatItRemovedAndWhatItLeft(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	fake, host := fakeengine.Start(t)
	t.Setenv("DOCKER_HOST", host)
	t.Setenv("DOCKER_CONTEXT", "")
	eng, err := engine.Connect(context.Background(), engine.Choice{Getenv: os.Getenv, Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	kit := func(runID, role, state string) fakeengine.Container {
		name := "logbench-" + runID + "-" + role
		labels, err := eng.OwnLabels(engine.KindContainer, name, runID)
		if err != nil {
			t.Fatal(err)
		}
		return fakeengine.Container{ID: "0123456789abcdef-" + name, Name: name, State: state, Labels: labels, Volumes: []string{"logbench-" + runID}}
	}
	volume := func(runID string) fakeengine.Volume {
		labels, err := eng.OwnLabels(engine.KindVolume, "logbench-"+runID, runID)
		if err != nil {
			t.Fatal(err)
		}
		return fakeengine.Volume{Name: "logbench-" + runID, Labels: labels}
	}
	fake.Add([]fakeengine.Container{
		{ID: "fedcba9876543210", Name: "postgres-prod", State: "running", Labels: map[string]string{engine.Label: "x"}, Volumes: []string{"pgdata"}},
		kit("crashed", "api", "exited"),
		kit("alive", "api", "running"),
	}, []fakeengine.Volume{{Name: "pgdata", Labels: map[string]string{engine.Label: "x"}}, volume("crashed"), volume("alive")})

	out, err := runApp(t, "clean")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{
		"removed container 0123456789ab (logbench-crashed-api)\n",
		"removed volume logbench-crashed\n",
		"left container fedcba987654 (postgres-prod): not made by this kit on this host: no io.logbench.mark label\n",
		"left volume pgdata: not made by this kit on this host: no io.logbench.mark label\n",
		"left container 0123456789ab (logbench-alive-api): running: clean --force stops and removes the kit's running containers\n",
		"left volume logbench-alive: in use: container logbench-alive-api\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("clean does not say %q:\n%s", want, out)
		}
	}
	out, err = runApp(t, "clean", "--force")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := []string{"container logbench-crashed-api", "volume logbench-crashed", "container logbench-alive-api", "volume logbench-alive"}
	if got := fake.Removed(); !slices.Equal(got, want) || !fake.Has("postgres-prod") || !fake.Has("pgdata") {
		t.Errorf("removed %v, want %v\n%s", got, want, out)
	}
	if !strings.Contains(out, "left container fedcba987654 (postgres-prod)") {
		t.Errorf("clean --force does not say it left postgres-prod:\n%s", out)
	}
}

package engine

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/logbench/logbench/internal/fakeengine"
)

// fakeEngine connects to a fake engine holding containers and volumes, the kit's
// marks made with key.
func fakeEngine(t *testing.T, key []byte, containers []fakeengine.Container, volumes []fakeengine.Volume) (*Engine, *fakeengine.Engine) {
	t.Helper()
	fake, host := fakeengine.Start(t)
	fake.Add(containers, volumes)
	env := map[string]string{"DOCKER_HOST": host}
	e, err := Connect(context.Background(), Choice{Getenv: func(k string) string { return env[k] }, Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	e.mark = marker{key: key}
	return e, fake
}

var (
	thisHost  = []byte("0123456789abcdef0123456789abcdef")
	otherHost = []byte("fedcba9876543210fedcba9876543210")
)

// kitMade is a container as RunPod creates it, marked with key.
func kitMade(key []byte, runID, role, state string, joiner bool) fakeengine.Container {
	name := "logbench-" + runID + "-" + role
	c := fakeengine.Container{ID: "id-" + name, Name: name, State: state, Labels: marker{key}.labels(KindContainer, name, runID),
		Volumes: []string{"logbench-" + runID}}
	if joiner {
		c.NetworkMode = "container:id-logbench-" + runID + "-api"
	}
	return c
}

func kitVolume(key []byte, runID string) fakeengine.Volume {
	name := "logbench-" + runID
	return fakeengine.Volume{Name: name, Labels: marker{key}.labels(KindVolume, name, runID)}
}

// The engine the issue describes: a running postgres-prod and a pgdata volume carrying
// the label, beside what the kit really left, and imitations of it.
func hostileEngine(t *testing.T) (*Engine, *fakeengine.Engine) {
	crashed := kitMade(thisHost, "crashed-1a2b3c", "api", "exited", false)
	copied := maps(crashed.Labels)
	return fakeEngine(t, thisHost, []fakeengine.Container{
		{ID: "id-postgres", Name: "postgres-prod", State: "running", Labels: map[string]string{Label: "anything"}, Volumes: []string{"pgdata"}},
		// A foreign container with the label and the mark of the kit's container copied.
		{ID: "id-copycat", Name: "copycat", State: "exited", Labels: copied},
		// The kit's mark, made on another host (or by another user) with another key.
		kitMade(otherHost, "elsewhere-9f8e7d", "api", "exited", false),
		crashed,
		kitMade(thisHost, "crashed-1a2b3c", "loadgen", "exited", true),
		kitMade(thisHost, "alive-4d5e6f", "api", "running", false),
		kitMade(thisHost, "alive-4d5e6f", "loadgen", "running", true),
	}, []fakeengine.Volume{
		{Name: "pgdata", Labels: map[string]string{Label: ""}},
		{Name: "copied-volume", Labels: maps(kitVolume(thisHost, "crashed-1a2b3c").Labels)},
		kitVolume(thisHost, "crashed-1a2b3c"),
		kitVolume(thisHost, "alive-4d5e6f"),
	})
}

func maps(m map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

func names(s []Swept) []string {
	var out []string
	for _, x := range s {
		out = append(out, string(x.Kind)+" "+x.Name)
	}
	return out
}

func whyLeft(s Sweep, name string) string {
	for _, x := range s.Left {
		if x.Name == name {
			return x.Why
		}
	}
	return "(not left)"
}

func TestCleanRemovesOnlyStoppedThingsTheKitMade(t *testing.T) {
	e, fake := hostileEngine(t)
	sweep, err := e.Clean(context.Background(), false)
	if err != nil {
		t.Fatal(err)
	}
	// The joiner before its network's owner, then the volume they used.
	want := []string{"container logbench-crashed-1a2b3c-loadgen", "container logbench-crashed-1a2b3c-api", "volume logbench-crashed-1a2b3c"}
	if got := fake.Removed(); !slices.Equal(got, want) {
		t.Errorf("removed %v, want %v", got, want)
	}
	if got := names(sweep.Removed); !slices.Equal(got, want) {
		t.Errorf("said removed %v, want %v", got, want)
	}
	for name, why := range map[string]string{
		"postgres-prod":                   "not made by this kit on this host: no io.logbench.mark label",
		"pgdata":                          "not made by this kit on this host: no io.logbench.mark label",
		"copycat":                         "does not match its name and run",
		"copied-volume":                   "does not match its name and run",
		"logbench-elsewhere-9f8e7d-api":   "does not match its name and run",
		"logbench-alive-4d5e6f-api":       "running: clean --force stops and removes",
		"logbench-alive-4d5e6f-loadgen":   "running: clean --force stops and removes",
		"logbench-alive-4d5e6f":           "in use: container logbench-alive-4d5e6f-loadgen, container logbench-alive-4d5e6f-api",
		"logbench-crashed-1a2b3c-loadgen": "(not left)",
	} {
		if got := whyLeft(sweep, name); !strings.Contains(got, why) {
			t.Errorf("%s: left because %q, want %q", name, got, why)
		}
	}
	if len(sweep.Left) != 8 {
		t.Errorf("left %v", names(sweep.Left))
	}
}

func TestCleanForceRemovesTheKitsRunningContainersAndNothingElse(t *testing.T) {
	e, fake := hostileEngine(t)
	sweep, err := e.Clean(context.Background(), true)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"logbench-alive-4d5e6f-api", "logbench-alive-4d5e6f-loadgen", "logbench-alive-4d5e6f", "logbench-crashed-1a2b3c"} {
		if fake.Has(name) {
			t.Errorf("%s is still there", name)
		}
	}
	for _, name := range []string{"postgres-prod", "pgdata", "copycat", "copied-volume", "logbench-elsewhere-9f8e7d-api"} {
		if !fake.Has(name) {
			t.Errorf("%s was removed", name)
		}
	}
	if len(sweep.Removed) != 6 || len(sweep.Left) != 5 {
		t.Errorf("removed %v, left %v", names(sweep.Removed), names(sweep.Left))
	}
}

// Podman refuses the owner of a network namespace for a moment after its joiner is
// removed; clean asks again and removes it.
func TestCleanAsksAgainForAContainerWhoseDependentIsGoing(t *testing.T) {
	api := kitMade(thisHost, "gone-1a2b3c", "api", "running", false)
	api.LingeringDependent = 2
	e, fake := fakeEngine(t, thisHost, []fakeengine.Container{api, kitMade(thisHost, "gone-1a2b3c", "loadgen", "running", true)}, nil)
	sweep, err := e.Clean(context.Background(), true)
	if err != nil || len(sweep.Left) != 0 || fake.Has(api.Name) {
		t.Fatalf("err %v, left %v", err, names(sweep.Left))
	}
}

// A run's own cleanup (RunPod's) removes its marked containers, running or not, and
// nothing that merely carries its run's label.
func TestARunsCleanupLeavesWhatOnlyCarriesItsLabel(t *testing.T) {
	runID := "alive-4d5e6f"
	intruder := fakeengine.Container{ID: "id-intruder", Name: "intruder", State: "running", Labels: map[string]string{Label: runID}}
	e, fake := fakeEngine(t, thisHost, []fakeengine.Container{intruder, kitMade(thisHost, runID, "api", "running", false)},
		[]fakeengine.Volume{kitVolume(thisHost, runID)})
	gone, err := e.RemoveLabelled(context.Background(), runID)
	if err != nil {
		t.Fatal(err)
	}
	if len(gone.Containers) != 1 || len(gone.Volumes) != 1 || !fake.Has("intruder") {
		t.Errorf("removed %+v; the engine removed %v", gone, fake.Removed())
	}
}

func TestTheKeyIsMadeOnceForTheUserAlone(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	path, err := KeyPath()
	if err != nil {
		t.Fatal(err)
	}
	// Invocations that start at once agree on one key.
	keys := make([][]byte, 8)
	var wg sync.WaitGroup
	for i := range keys {
		wg.Go(func() {
			k, err := loadOrCreateKey(path)
			if err != nil {
				t.Error(err)
			}
			keys[i] = k
		})
	}
	wg.Wait()
	for _, k := range keys[1:] {
		if string(k) != string(keys[0]) || len(k) != keyBytes {
			t.Fatalf("keys differ: %x, %x", k, keys[0])
		}
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("key file %v, %v", info.Mode(), err)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".engine-mark.*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	// A key others can read lets them make the kit's marks: refused, with the fix.
	os.Chmod(path, 0o644)
	if _, err := loadOrCreateKey(path); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("a key readable by others: %v", err)
	}
	os.Chmod(path, 0o600)
	os.WriteFile(path, []byte("short\n"), 0o600)
	if _, err := loadOrCreateKey(path); err == nil || !strings.Contains(err.Error(), "hex digits") {
		t.Errorf("a damaged key: %v", err)
	}
	// A symbolic link in the key's place is not followed.
	os.Remove(path)
	os.Symlink("/dev/zero", path)
	if _, err := loadOrCreateKey(path); err == nil {
		t.Error("a symbolic link was taken as the key")
	}
}

func TestAMarkIsBoundToItsKindNameAndRun(t *testing.T) {
	m := marker{key: thisHost}
	labels := m.labels(KindContainer, "logbench-r-api", "r")
	if why := m.check(KindContainer, "logbench-r-api", labels); why != "" {
		t.Fatal(why)
	}
	for _, tc := range []struct {
		kind      Kind
		name, run string
		other     marker
		what      string
	}{
		{KindVolume, "logbench-r-api", "r", m, "another kind"},
		{KindContainer, "logbench-r-apx", "r", m, "another name"},
		{KindContainer, "logbench-r-api", "s", m, "another run"},
		{KindContainer, "logbench-r-api", "r", marker{key: otherHost}, "another key"},
	} {
		l := maps(labels)
		l[Label] = tc.run
		if why := tc.other.check(tc.kind, tc.name, l); why == "" {
			t.Errorf("%s: the mark verifies", tc.what)
		}
	}
}

// Podman's container list does not say which container joined another's network
// namespace, and Podman refuses the owner while its joiner is there: clean and a run's
// cleanup remove the joiner and then the owner, whichever the list names first.
func TestTheOwnerListedFirstIsRemovedAfterItsJoiner(t *testing.T) {
	for _, force := range []bool{false, true} {
		state := "exited"
		if force {
			state = "running"
		}
		owner := kitMade(thisHost, "pod-1a2b3c", "api", state, false)
		joiner := kitMade(thisHost, "pod-1a2b3c", "loadgen", state, true)
		e, fake := fakeEngine(t, thisHost, []fakeengine.Container{owner, joiner}, []fakeengine.Volume{kitVolume(thisHost, "pod-1a2b3c")})
		fake.ListLikePodman()
		sweep, err := e.Clean(context.Background(), force)
		if err != nil || len(sweep.Left) != 0 || fake.Has(owner.Name) || fake.Has(joiner.Name) {
			t.Errorf("clean (force %v): err %v, left %v, removed %v", force, err, names(sweep.Left), fake.Removed())
		}

		e, fake = fakeEngine(t, thisHost, []fakeengine.Container{owner, joiner}, nil)
		fake.ListLikePodman()
		if gone, err := e.RemoveLabelled(context.Background(), "pod-1a2b3c"); err != nil || len(gone.Containers) != 2 {
			t.Errorf("a run's cleanup: err %v, removed %v", err, fake.Removed())
		}
	}
}

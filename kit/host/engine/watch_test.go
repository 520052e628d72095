package engine

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/client"
)

// earlyWaits is an engine whose wait answers at once, as Podman's compatible wait may,
// while its inspect says the container goes on for the first states given.
type earlyWaits struct {
	mu     sync.Mutex
	states []string // what inspect says, one call after another; the last one stays
	waits  []string // the condition of each wait asked
}

func (f *earlyWaits) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case strings.HasSuffix(r.URL.Path, "/wait"):
		f.waits = append(f.waits, r.URL.Query().Get("condition"))
		json.NewEncoder(w).Encode(container.WaitResponse{})
	case strings.HasSuffix(r.URL.Path, "/json"):
		status := f.states[0]
		if len(f.states) > 1 {
			f.states = f.states[1:]
		}
		json.NewEncoder(w).Encode(container.InspectResponse{ContainerJSONBase: &container.ContainerJSONBase{ID: "c1",
			State: &container.State{Status: status, Running: status == container.StateRunning}}})
	default:
		http.NotFound(w, r)
	}
}

// A wait that answers while the container has not started or still runs is not its
// exit: the container is waited for again until the engine's account of its state says
// it ended, and only then is its exit reported, once.
func TestAWaitAnsweredEarlyIsNotAnExit(t *testing.T) {
	fake := &earlyWaits{states: []string{container.StateCreated, container.StateRunning, container.StateRunning, container.StateExited}}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	cli, err := client.NewClientWithOpts(client.WithHost("tcp://"+strings.TrimPrefix(srv.URL, "http://")), client.WithVersion("1.41"))
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	e := &Engine{cli: cli}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	exits := make(chan exited, 2)
	statusCh, errCh := cli.ContainerWait(ctx, "c1", container.WaitConditionNextExit)
	e.watch(ctx, "api", "c1", statusCh, errCh, exits)
	if len(exits) != 1 {
		t.Fatalf("%d exits reported, want 1", len(exits))
	}
	if x := <-exits; x.role != "api" || x.err != nil {
		t.Errorf("reported %+v, want api's exit", x)
	}
	fake.mu.Lock()
	defer fake.mu.Unlock()
	want := []string{"next-exit", "not-running", "not-running", "not-running"}
	if strings.Join(fake.waits, ",") != strings.Join(want, ",") {
		t.Errorf("waits asked %v, want %v: once before the start, then until it is not running", fake.waits, want)
	}
}

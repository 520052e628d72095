package engine_test

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/logbench/logbench/internal/enginetest"
	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/host/engine"
)

// probeImage is the engine and the kit's api image (which holds /probe), built for it.
func probeImage(t *testing.T) (*engine.Engine, context.Context, string) {
	t.Helper()
	eng := enginetest.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	t.Cleanup(cancel)
	builder, platform := enginetest.Builder(t, eng, io.Discard)
	built, err := builder.Build(ctx, platform)
	if err != nil {
		t.Fatal(err)
	}
	return eng, ctx, built["api"].ID
}

// Ctrl-C may land at any moment of a pod's life: while its volume or containers are
// being created, started, or running. Whenever it lands, RunPod returns with nothing of
// the pod left on the engine. (A request cut off mid-way may still create its volume
// after the client has given up; a cleanup that lists what exists before that left the
// volume behind, seen once in CI.)
func TestACancelledPodLeavesNothingBehind(t *testing.T) {
	eng, ctx, api := probeImage(t)
	args := contract.DefaultProbeArgs()
	stamp := time.Now().UnixNano()
	for i, after := range []time.Duration{0, time.Millisecond, 3 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond,
		40 * time.Millisecond, 80 * time.Millisecond, 150 * time.Millisecond, 300 * time.Millisecond, 600 * time.Millisecond} {
		spec := experiment.PodSpec{RunID: fmt.Sprintf("cancel-%d-%d", stamp, i), Conductor: "probe", MountPath: contract.RunDir,
			ResultPath: args.Result, User: contract.User, PidsLimit: 64,
			Containers: []experiment.ContainerSpec{
				{Role: "probe", Image: api, Entrypoint: []string{"/probe"}, Cmd: args.Args(), NanoCPUs: 250_000_000, MemoryBytes: 128 << 20},
				{Role: "second", Image: api, Entrypoint: []string{"/probe"}, Cmd: args.Args(), NanoCPUs: 250_000_000, MemoryBytes: 128 << 20},
			}}
		podCtx, stop := context.WithCancel(ctx)
		timer := time.AfterFunc(after, stop)
		_, err := eng.RunPod(podCtx, spec, io.Discard)
		timer.Stop()
		stop()
		left, lerr := eng.FindOwn(ctx, spec.RunID)
		if lerr != nil {
			t.Fatal(lerr)
		}
		if len(left.Containers) > 0 || len(left.Volumes) > 0 {
			eng.RemoveLabelled(ctx, spec.RunID)
			t.Errorf("cancelled after %v (RunPod: %v): left %d containers and volumes %v", after, err, len(left.Containers), left.Volumes)
		}
	}
}

// A service that exits at once may be gone before the next container of its pod can
// join its network namespace, and the engine then refuses that start. Whichever comes
// first, RunPod returns the pod's exits, with the service's code and last line, not the
// engine's refusal (seen in CI as "cannot join network of a non running container").
func TestAServiceThatDiesAtOnceIsItsExitNotARefusedStart(t *testing.T) {
	eng, ctx, api := probeImage(t)
	args := contract.DefaultProbeArgs()
	stamp := time.Now().UnixNano()
	for i := range 3 {
		spec := experiment.PodSpec{RunID: fmt.Sprintf("dies-%d-%d", stamp, i), Conductor: "probe", MountPath: contract.RunDir,
			ResultPath: args.Result, User: contract.User, PidsLimit: 64,
			Containers: []experiment.ContainerSpec{
				// The probe refuses an unknown flag and exits with code 2 at once.
				{Role: "api", Image: api, Entrypoint: []string{"/probe"}, Cmd: []string{"-no-such-flag"}, NanoCPUs: 250_000_000, MemoryBytes: 128 << 20},
				{Role: "probe", Image: api, Entrypoint: []string{"/probe"}, Cmd: args.Args(), NanoCPUs: 250_000_000, MemoryBytes: 128 << 20},
			}}
		res, err := eng.RunPod(ctx, spec, io.Discard)
		if err != nil {
			t.Fatalf("pod %d: RunPod: %v", i, err)
		}
		why := experiment.EngineFailure(spec, res)
		if !strings.HasPrefix(why, "api container exited with code 2: ") {
			t.Errorf("pod %d: the pod's account %q, want the api's exit with code 2 and its last line first", i, why)
		}
		// A container the engine never started has no exit of its own to report (the
		// engine gives it code 127).
		if strings.Contains(res.Failure, "before probe could start") && strings.Contains(why, "probe container exited") {
			t.Errorf("pod %d: the pod's account %q names the probe that never started", i, why)
		}
	}
}

// A conductor that never ends (a program stuck past its own cap, an engine that never
// reports an exit) costs its run, never the matrix: the engine stops a pod that has run
// for its StopAfter, the run's failure says so with the conductor's last line, and
// nothing of the pod is left. Here the conductor is the API, which serves until stopped.
func TestAPodPastItsTimeIsStoppedAndSaysSo(t *testing.T) {
	eng, ctx, api := probeImage(t)
	spec := enginetest.EndlessPod(ctx, t, eng, api, 2*time.Second)
	left, err := eng.FindOwn(ctx, spec.RunID)
	if err != nil {
		t.Fatal(err)
	}
	if len(left.Containers) > 0 || len(left.Volumes) > 0 {
		eng.RemoveLabelled(ctx, spec.RunID)
		t.Errorf("left %d containers and volumes %v", len(left.Containers), left.Volumes)
	}
}

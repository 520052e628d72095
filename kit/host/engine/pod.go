package engine

import (
	"archive/tar"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/mount"
	"github.com/docker/docker/api/types/volume"
	"github.com/docker/docker/pkg/stdcopy"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
)

// RunPod creates the volume and containers, starts them, streams the conductor's output
// to progress, waits for the conductor, copies its result out and removes everything,
// also when ctx is cancelled.
func (e *Engine) RunPod(ctx context.Context, spec experiment.PodSpec, progress io.Writer) (res experiment.PodResult, err error) {
	if progress == nil {
		progress = io.Discard
	}
	// Every container and volume carries the run's label and the kit's mark, which
	// proves it the kit's to remove (mark.go); without the key nothing is created.
	marks, err := e.marker()
	if err != nil {
		return res, err
	}
	ids := make(map[string]string, len(spec.Containers))
	defer func() {
		// Cleanup must happen even when ctx is cancelled (Ctrl-C).
		cleanupCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		// The pod's own containers first, joiners before the network namespace's owner
		// (Podman refuses to remove a container others depend on), then whatever else
		// carries the run's label.
		cerr := e.removePod(cleanupCtx, podOrder(spec, ids))
		if _, lerr := e.RemoveLabelled(cleanupCtx, spec.RunID); lerr != nil || cerr != nil {
			cerr = errors.Join(cerr, lerr)
			err = errors.Join(err, fmt.Errorf("cleanup: %w", cerr))
		}
	}()
	// What the engine creates is created whole even when ctx is cancelled meanwhile: a
	// request cut off by Ctrl-C may still create its volume or container after the
	// client has given up, too late for the cleanup above to see it. So creation runs
	// on a context of its own, and ctx is looked at between the steps.
	createCtx, stopCreating := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Minute)
	defer stopCreating()
	volName := spec.Volume
	if volName == "" {
		name := "logbench-" + spec.RunID
		vol, err := e.cli.VolumeCreate(createCtx, volume.CreateOptions{Name: name, Labels: marks.labels(KindVolume, name, spec.RunID)})
		if err != nil {
			return res, fmt.Errorf("creating volume: %w", err)
		}
		volName = vol.Name
	}

	var owner, ownerRole string
	for _, c := range spec.Containers {
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		netMode := container.NetworkMode("none")
		switch {
		case c.HostNetwork:
			netMode = "host"
		case owner != "":
			netMode = container.NetworkMode("container:" + owner)
		}
		var pidMode container.PidMode
		if c.HostPIDs {
			pidMode = "host"
		}
		user, readOnly, security, mountPath := spec.User, true, []string{"no-new-privileges"}, spec.MountPath
		var capAdd []string
		if c.MountPath != "" {
			mountPath = c.MountPath
		}
		if r := c.Relax; r != nil {
			if r.ImageUser {
				user = ""
			}
			if r.NewPrivileges {
				security = nil
			}
			readOnly, capAdd = !r.WritableRoot, r.CapAdd
		}
		name := "logbench-" + spec.RunID + "-" + c.Role
		created, err := e.cli.ContainerCreate(createCtx,
			&container.Config{Image: c.Image, Entrypoint: c.Entrypoint, Cmd: c.Cmd, User: user, Env: c.Env, Labels: marks.labels(KindContainer, name, spec.RunID)},
			&container.HostConfig{
				NetworkMode:    netMode,
				ReadonlyRootfs: readOnly,
				CapDrop:        []string{"ALL"},
				CapAdd:         capAdd,
				SecurityOpt:    security,
				Mounts:         []mount.Mount{{Type: mount.TypeVolume, Source: volName, Target: mountPath}},
				LogConfig:      container.LogConfig{Type: c.LogDriver, Config: c.LogOpts},
				PidMode:        pidMode,
				Resources: container.Resources{
					NanoCPUs:   c.NanoCPUs,
					Memory:     c.MemoryBytes,
					MemorySwap: c.MemoryBytes, // equal to Memory: no swap
					PidsLimit:  &spec.PidsLimit,
					Ulimits:    Ulimits(spec),
				},
			}, nil, nil, name)
		if err != nil {
			return res, experiment.CreateError{Role: c.Role, Err: err}
		}
		ids[c.Role] = created.ID
		if owner == "" && !c.HostNetwork {
			owner, ownerRole = created.ID, c.Role
		}
	}

	// Register the waits before starting, so no exit can be missed.
	exits := make(chan exited, len(spec.Containers))
	waitCtx, stopWaiting := context.WithCancel(context.WithoutCancel(ctx))
	defer stopWaiting()
	for role, id := range ids {
		statusCh, errCh := e.cli.ContainerWait(waitCtx, id, container.WaitConditionNextExit)
		go e.watch(waitCtx, role, id, statusCh, errCh, exits)
	}
	for i, c := range spec.Containers {
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		if err := e.start(createCtx, spec, c, ids); err != nil {
			// A container that joins the owner's network namespace cannot start once
			// that one has exited (a service that dies at once): its exit, not the
			// engine's refusal to join, is what the run has to say.
			first := ownerRole
			if ins, ierr := e.cli.ContainerInspect(waitCtx, ids[first]); first != "" && c.Role != first && ierr == nil && ins.State != nil && !ins.State.Running {
				res.Failure = fmt.Sprintf("%s container exited before %s could start", first, c.Role)
				for _, started := range spec.Containers[:i] { // the engine gives the rest a code of its own
					res.Exits = append(res.Exits, e.exitOf(waitCtx, started.Role, ids[started.Role]))
				}
				return res, nil
			}
			return res, fmt.Errorf("starting %s container: %w", c.Role, err)
		}
	}
	streamCtx, stopStreaming := context.WithCancel(waitCtx)
	defer stopStreaming()
	streamed := make(chan struct{})
	go func() {
		defer close(streamed)
		e.stream(streamCtx, ids[spec.Conductor], progress)
	}()
	// The conductor's output ends with it; an engine that keeps the stream open past
	// that is cut off, so that nothing writes to progress once RunPod has returned.
	endStream := func() {
		select {
		case <-streamed:
		case <-time.After(stopPatience):
			stopStreaming()
			<-streamed
		}
	}

	// A pod that runs past its plan's limit is stopped; if the engine then reports no
	// exit either, it is asked what the conductor's state is.
	var overdue, unanswered <-chan time.Time
	if spec.StopAfter > 0 {
		t := time.NewTimer(spec.StopAfter)
		defer t.Stop()
		overdue = t.C
	}
	conductorDone := false
	for !conductorDone {
		select {
		case x := <-exits:
			if x.err != nil && waitCtx.Err() == nil {
				res.Failure = experiment.JoinFailures(res.Failure, fmt.Sprintf("engine: waiting for %s: %v", x.role, x.err))
			}
			if x.role == spec.Conductor {
				conductorDone = true
				break
			}
			// Another container ended first: the run cannot go on. Stopping the conductor
			// (SIGTERM) makes it write what it has measured.
			res.Failure = experiment.JoinFailures(res.Failure, x.role+" container exited during the run")
			e.stopContainer(waitCtx, ids[spec.Conductor], 10)
		case <-overdue:
			overdue, unanswered = nil, time.After(stopPatience)
			res.Failure = experiment.JoinFailures(res.Failure, experiment.Overran(spec, e.lastLine(waitCtx, ids[spec.Conductor])))
			e.stopContainer(waitCtx, ids[spec.Conductor], 10)
		case <-unanswered:
			askCtx, cancel := context.WithTimeout(waitCtx, stopPatience)
			ins, err := e.cli.ContainerInspect(askCtx, ids[spec.Conductor])
			cancel()
			if err != nil || ins.State == nil || ins.State.Running {
				endStream()
				return res, fmt.Errorf("the engine did not stop the %s container of run %s (inspect: %v)", spec.Conductor, spec.RunID, err)
			}
			res.Failure = experiment.JoinFailures(res.Failure, fmt.Sprintf("the engine never reported the %s container's exit", spec.Conductor))
			conductorDone = true
		case <-ctx.Done():
			res.Failure = experiment.JoinFailures(res.Failure, "interrupted")
			e.stopContainer(waitCtx, ids[spec.Conductor], 2)
			endStream()
			return res, ctx.Err()
		}
	}
	endStream()

	// What is read once the conductor has ended is read within readPatience: an engine
	// that stops answering fails the run, it does not hold the matrix.
	readCtx, stopReading := context.WithTimeout(waitCtx, readPatience)
	defer stopReading()
	// Usage first: stopping a container to read its logs back ends what it used.
	for _, role := range spec.MeasureUsage {
		u, err := e.usage(readCtx, ids[role])
		if err != nil {
			res.Failure = experiment.JoinFailures(res.Failure, fmt.Sprintf("reading the %s container's usage: %v", role, err))
			continue
		}
		if res.Usage == nil {
			res.Usage = map[string]contract.Usage{}
		}
		res.Usage[role] = u
	}
	res.Result, err = e.copyFile(readCtx, ids[spec.Conductor], spec.ResultPath)
	if err != nil {
		res.Failure = experiment.JoinFailures(res.Failure, fmt.Sprintf("no result from %s: %v", spec.Conductor, err))
	}
	for _, c := range spec.Containers {
		res.Exits = append(res.Exits, e.exitOf(readCtx, c.Role, ids[c.Role]))
	}
	res.ReadLogs(spec.CollectLogs, func(role string) ([]byte, error) { return e.collectStdout(readCtx, ids[role]) })
	return res, nil
}

// exited is a container of the pod that has ended, as the engine says.
type exited struct {
	role string
	err  error
}

// watch reports on exits when a container of the pod has ended, given the wait
// registered before it started. Podman's Docker-compatible wait may answer while the
// container still runs, or has not yet started (seen in CI as "api container exited
// during the run" of an API that had not): an answer counts only once the engine's
// account of the container's state agrees, and until then the container is waited for
// again, until it is not running (at once for one not started yet, so that is a short
// poll; never missing an exit in between).
func (e *Engine) watch(ctx context.Context, role, id string, statusCh <-chan container.WaitResponse, errCh <-chan error, exits chan<- exited) {
	for {
		select {
		case <-statusCh:
		case err := <-errCh:
			exits <- exited{role: role, err: err}
			return
		}
		ins, err := e.cli.ContainerInspect(ctx, id)
		if err != nil || ins.State == nil || !goingOn(ins.State.Status) {
			exits <- exited{role: role} // ended, gone, or the engine cannot say: as it answered
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(100 * time.Millisecond): // an engine that answers at once is not asked in a loop
		}
		statusCh, errCh = e.cli.ContainerWait(ctx, id, container.WaitConditionNotRunning)
	}
}

// goingOn says a container in this state has not ended: not started yet, running,
// paused, restarting, or being stopped (still writing what it has). "configured",
// "initialized" and "stopping" are Podman's own.
func goingOn(status string) bool {
	switch status {
	case container.StateCreated, "configured", "initialized", container.StateRunning, container.StatePaused, container.StateRestarting, "stopping":
		return true
	}
	return false
}

// logDriverPatience is how long a container whose logging driver cannot reach its
// receiver yet (a syslog receiver of the pod still binding its port) is started again.
const logDriverPatience = 15 * time.Second

// start starts one container of the pod. A container with a logging driver of its own,
// in a pod that has a receiver on the host's network, may find that receiver not yet
// listening: the engine dials at start and refuses. It is started again until the
// receiver answers or logDriverPatience has passed, and then the engine's own refusal
// is the error.
func (e *Engine) start(ctx context.Context, spec experiment.PodSpec, c experiment.ContainerSpec, ids map[string]string) error {
	receiver := slices.ContainsFunc(spec.Containers, func(c experiment.ContainerSpec) bool { return c.HostNetwork })
	deadline := time.Now().Add(logDriverPatience)
	for {
		err := e.cli.ContainerStart(ctx, ids[c.Role], container.StartOptions{})
		if err == nil || c.LogDriver == "" || !receiver || !strings.Contains(err.Error(), "logging driver") || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// usage reads a container's CPU time and peak memory from the engine's one-shot stats,
// while it still runs.
func (e *Engine) usage(ctx context.Context, id string) (contract.Usage, error) {
	if id == "" {
		return contract.Usage{}, errors.New("no such role in the pod")
	}
	resp, err := e.cli.ContainerStatsOneShot(ctx, id)
	if err != nil {
		return contract.Usage{}, err
	}
	defer resp.Body.Close()
	var st container.StatsResponse
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&st); err != nil {
		return contract.Usage{}, fmt.Errorf("decoding stats: %w", err)
	}
	if st.Read.IsZero() || st.CPUStats.CPUUsage.TotalUsage == 0 {
		return contract.Usage{}, errors.New("the engine reported no CPU for it (not running?)")
	}
	return contract.Usage{CPUNanos: int64(st.CPUStats.CPUUsage.TotalUsage), MemoryPeakBytes: int64(st.MemoryStats.MaxUsage)}, nil
}

// maxLogBytes bounds the stdout the kit reads back from one container.
const maxLogBytes = 1 << 30

// collectStdout stops the container, so that its logging driver has delivered every
// line it will deliver, and reads its stdout back through the Engine API, demultiplexed
// from stderr.
func (e *Engine) collectStdout(ctx context.Context, id string) ([]byte, error) {
	if id == "" {
		return nil, errors.New("no such role in the pod")
	}
	if err := e.cli.ContainerStop(ctx, id, container.StopOptions{Timeout: intPtr(10)}); err != nil {
		return nil, fmt.Errorf("stopping: %w", err)
	}
	logs, err := e.cli.ContainerLogs(ctx, id, container.LogsOptions{ShowStdout: true})
	if err != nil {
		return nil, err
	}
	defer logs.Close()
	stdout := experiment.LimitedBuffer{Limit: maxLogBytes}
	if _, err := stdcopy.StdCopy(&stdout, io.Discard, logs); err != nil {
		return nil, err
	}
	return stdout.Bytes(), nil
}

func (e *Engine) exitOf(ctx context.Context, role, id string) contract.Exit {
	x := contract.Exit{Role: role, ID: id}
	ins, err := e.cli.ContainerInspect(ctx, id)
	if err != nil || ins.State == nil {
		return x
	}
	x.Running, x.ExitCode, x.OOMKilled = ins.State.Running, ins.State.ExitCode, ins.State.OOMKilled
	if !x.Running && (x.ExitCode != 0 || x.OOMKilled) {
		x.LogTail = e.logTail(ctx, id, 20)
	}
	return x
}

// stopPatience bounds what the kit waits for the engine once it has asked it to stop
// a container: the stop itself (its grace included), the exit it reports, the end of
// the container's output.
const stopPatience = time.Minute

// readPatience bounds the reading of a pod once its conductor has ended: the containers'
// usage, the result, their exits and the consoles collected; generous for a large
// console, and yet an end when the engine stops answering.
const readPatience = 10 * time.Minute

// stopContainer asks the engine to stop a container (SIGTERM, then SIGKILL after
// grace seconds), waiting at most stopPatience for it to answer.
func (e *Engine) stopContainer(ctx context.Context, id string, grace int) {
	ctx, cancel := context.WithTimeout(ctx, stopPatience)
	defer cancel()
	e.cli.ContainerStop(ctx, id, container.StopOptions{Timeout: intPtr(grace)})
}

// lastLine is the last line a container has printed so far, "" if the engine does not
// say within stopPatience.
func (e *Engine) lastLine(ctx context.Context, id string) string {
	ctx, cancel := context.WithTimeout(ctx, stopPatience)
	defer cancel()
	return e.logTail(ctx, id, 1)
}

func (e *Engine) stream(ctx context.Context, id string, progress io.Writer) {
	logs, err := e.cli.ContainerLogs(ctx, id, container.LogsOptions{ShowStdout: true, ShowStderr: true, Follow: true})
	if err != nil {
		return
	}
	defer logs.Close()
	stdcopy.StdCopy(progress, progress, logs)
}

func (e *Engine) logTail(ctx context.Context, id string, lines int) string {
	logs, err := e.cli.ContainerLogs(ctx, id, container.LogsOptions{ShowStdout: true, ShowStderr: true, Tail: fmt.Sprint(lines)})
	if err != nil {
		return ""
	}
	defer logs.Close()
	var out strings.Builder
	stdcopy.StdCopy(&out, &out, logs)
	return strings.TrimSpace(out.String())
}

// maxResultBytes bounds what the kit accepts from a container.
const maxResultBytes = 256 << 20

// copyFile copies one regular file out of a (possibly stopped) container.
func (e *Engine) copyFile(ctx context.Context, id, path string) ([]byte, error) {
	rc, _, err := e.cli.CopyFromContainer(ctx, id, path)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	tr := tar.NewReader(rc)
	hdr, err := tr.Next()
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if hdr.Typeflag != tar.TypeReg || hdr.Size > maxResultBytes {
		return nil, fmt.Errorf("%s is not a regular file under %d bytes", path, maxResultBytes)
	}
	return io.ReadAll(tr)
}

func intPtr(i int) *int { return &i }

var _ experiment.Pods = (*Engine)(nil)

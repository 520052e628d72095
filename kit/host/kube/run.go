package kube

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/httpstream"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/remotecommand"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
)

// How the kit follows a run's Pod.
const (
	// pollEvery is how often it reads the Pod's status.
	pollEvery = 200 * time.Millisecond
	// nodeEvery is how often it reads the node's Ready condition.
	nodeEvery = 2 * time.Second
	// startPatience is how long the Pod may take to have its conductor running.
	startPatience = 2 * time.Minute
	// logPatience bounds the wait for a container's log to stop growing.
	logPatience = 10 * time.Second
)

var (
	// apiPatience is how long the API server may fail to answer before the run fails.
	apiPatience = 30 * time.Second
	// removePatience bounds the removal of the Pod.
	removePatience = 90 * time.Second
)

// maxResultBytes and maxLogBytes bound what the kit accepts from a Pod, as on Docker.
const (
	maxResultBytes = 256 << 20
	maxLogBytes    = 1 << 30
)

// cannotStart are the reasons a waiting container gives when it will never start: the
// run fails with the reason, never retried.
var cannotStart = []string{"ErrImageNeverPull", "ErrImagePull", "ImagePullBackOff", "InvalidImageName", "ImageInspectError",
	"CreateContainerConfigError", "CreateContainerError", "RunContainerError", "PreStartHookError", "CrashLoopBackOff"}

// RunPod creates the run's Pod on the node, streams the conductor's output to
// progress, waits for the conductor to end, reads its result through the files
// container and the collected consoles through the log API, and deletes the Pod (grace
// 0, waiting until it is gone), also when ctx is cancelled. A Pod the cluster does not
// put in the Guaranteed QoS class, a Pod evicted or deleted, a container that cannot
// start, a node no longer Ready, or an API server that stops answering is a failed
// run with its reason (PodResult.Failure); nothing is retried.
func (k *Cluster) RunPod(ctx context.Context, spec experiment.PodSpec, progress io.Writer) (res experiment.PodResult, err error) {
	if progress == nil {
		progress = io.Discard
	}
	pod, err := PodFor(spec, k.node, k.namespace, k.files)
	if err != nil {
		return res, err
	}
	pods := k.cs.CoreV1().Pods(k.namespace)
	// What the API server creates is created whole even when ctx is cancelled meanwhile,
	// so that the removal below sees it.
	createCtx, stopCreating := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer stopCreating()
	created, err := pods.Create(createCtx, pod, metav1.CreateOptions{})
	if err != nil {
		if apierrors.IsInvalid(err) || apierrors.IsForbidden(err) || apierrors.IsAlreadyExists(err) {
			return res, fmt.Errorf("creating Pod %s: %w", pod.Name, err)
		}
		res.Failure = fmt.Sprintf("creating Pod %s: %v", pod.Name, err)
		return res, nil
	}
	// cur is the Pod as the API server last returned it: the run's record (pods.csv)
	// is made of it, whatever ends the run.
	cur := created
	defer func() { res.Records = Records(spec.RunID, cur) }()
	defer func() {
		rmCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), removePatience)
		defer cancel()
		if rerr := k.remove(rmCtx, pod.Name); rerr != nil {
			err = errors.Join(err, fmt.Errorf("cleanup: %w", rerr))
		}
	}()
	if qos := created.Status.QOSClass; qos != corev1.PodQOSGuaranteed {
		res.Failure = fmt.Sprintf("refused: the cluster put the Pod in the %s QoS class, not Guaranteed, so its containers' limits would not be exact", qos)
		return res, nil
	}

	waitCtx, stopWaiting := context.WithCancel(context.WithoutCancel(ctx))
	streamed := make(chan struct{})
	streaming := false
	defer func() {
		stopWaiting()
		if streaming {
			<-streamed
		}
	}()
	started, lastAnswer, lastNode := time.Now(), time.Now(), time.Time{}
	ended := map[string]bool{}
	ticker := time.NewTicker(pollEvery)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			res.Failure = experiment.JoinFailures(res.Failure, "interrupted")
			return res, ctx.Err()
		case <-ticker.C:
		}
		got, gerr := pods.Get(waitCtx, pod.Name, metav1.GetOptions{})
		if gerr != nil {
			if apierrors.IsNotFound(gerr) {
				res.Failure = experiment.JoinFailures(res.Failure, "the Pod was deleted during the run, not by the kit")
				return res, nil
			}
			if time.Since(lastAnswer) > apiPatience {
				res.Failure = experiment.JoinFailures(res.Failure, fmt.Sprintf("the API server did not answer for %s during the run: %v", apiPatience, gerr))
				return res, nil
			}
			continue
		}
		lastAnswer, cur = time.Now(), got
		if why := podFailed(cur); why != "" {
			res.Failure = experiment.JoinFailures(res.Failure, why)
			res.Exits = k.exits(waitCtx, spec, cur)
			return res, nil
		}
		if why := cantStart(cur); why != "" {
			res.Failure = experiment.JoinFailures(res.Failure, why)
			res.Exits = k.exits(waitCtx, spec, cur)
			return res, nil
		}
		st := statusOf(cur, spec.Conductor)
		if !streaming && st != nil && (st.State.Running != nil || st.State.Terminated != nil) {
			streaming = true
			go func() {
				defer close(streamed)
				k.logs(waitCtx, pod.Name, spec.Conductor, corev1.PodLogOptions{Follow: true}, progress)
			}()
		}
		if st != nil && st.State.Terminated != nil {
			break
		}
		for _, s := range cur.Status.ContainerStatuses {
			if s.Name != spec.Conductor && s.State.Terminated != nil && !ended[s.Name] {
				ended[s.Name] = true
				res.Failure = experiment.JoinFailures(res.Failure, s.Name+" container exited during the run")
			}
		}
		// A Pod still running past what its plan allows is deleted (by the deferred
		// removal), its conductor's last line kept.
		if spec.StopAfter > 0 && time.Since(started) > spec.StopAfter {
			var tail bytes.Buffer
			tailCtx, cancel := context.WithTimeout(waitCtx, apiPatience)
			k.logs(tailCtx, pod.Name, spec.Conductor, corev1.PodLogOptions{TailLines: new(int64(1))}, &tail)
			cancel()
			res.Failure = experiment.JoinFailures(res.Failure, experiment.Overran(spec, tail.String()))
			res.Exits = k.exits(waitCtx, spec, cur)
			return res, nil
		}
		if st == nil || st.State.Running == nil {
			if time.Since(started) > startPatience {
				res.Failure = experiment.JoinFailures(res.Failure, fmt.Sprintf("the Pod did not start its %s container within %s%s", spec.Conductor, startPatience, conditions(cur)))
				res.Exits = k.exits(waitCtx, spec, cur)
				return res, nil
			}
		}
		if time.Since(lastNode) > nodeEvery {
			n, nerr := k.cs.CoreV1().Nodes().Get(waitCtx, k.node, metav1.GetOptions{})
			if nerr == nil {
				lastNode = time.Now()
				if why := nodeReady(n); why != "" {
					res.Failure = experiment.JoinFailures(res.Failure, "node "+k.node+" "+why+" during the run")
					return res, nil
				}
			}
		}
	}
	if streaming {
		select {
		case <-streamed:
		case <-time.After(5 * time.Second):
		}
	}

	for _, role := range spec.MeasureUsage {
		res.Failure = experiment.JoinFailures(res.Failure, fmt.Sprintf("the %s container's usage is not read on Kubernetes (the engine's stats are Docker's)", role))
	}
	result := &experiment.LimitedBuffer{Limit: maxResultBytes}
	var ferr error
	if statusOf(cur, FilesContainer) == nil {
		ferr = k.addFiles(waitCtx, spec, pod.Name)
	}
	if ferr == nil {
		ferr = k.exec(waitCtx, pod.Name, FilesContainer, []string{"/files", "cat", spec.ResultPath}, result)
	}
	if ferr != nil {
		res.Failure = experiment.JoinFailures(res.Failure, fmt.Sprintf("no result from %s: %v", spec.Conductor, ferr))
	} else {
		res.Result = result.Bytes()
	}
	if got, gerr := pods.Get(waitCtx, pod.Name, metav1.GetOptions{}); gerr == nil {
		cur = got
	}
	res.Exits = k.exits(waitCtx, spec, cur)
	if why := k.otherImages(spec, cur); why != "" {
		res.Failure = experiment.JoinFailures(res.Failure, why)
	}
	res.ReadLogs(spec.CollectLogs, func(role string) ([]byte, error) { return k.collect(waitCtx, pod.Name, role) })
	return res, nil
}

// filesPatience bounds the wait for the ephemeral files container to run.
const filesPatience = 30 * time.Second

// addFiles adds the files container to the running Pod as an ephemeral container
// (pods/ephemeralcontainers) and waits until it runs.
func (k *Cluster) addFiles(ctx context.Context, spec experiment.PodSpec, name string) error {
	files, err := FilesEphemeral(spec, k.files)
	if err != nil {
		return err
	}
	pods := k.cs.CoreV1().Pods(k.namespace)
	p, err := pods.Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	p.Spec.EphemeralContainers = append(p.Spec.EphemeralContainers, files)
	if _, err := pods.UpdateEphemeralContainers(ctx, name, p, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("adding the files container: %w", err)
	}
	deadline := time.Now().Add(filesPatience)
	for {
		p, err := pods.Get(ctx, name, metav1.GetOptions{})
		if err == nil {
			for _, s := range p.Status.EphemeralContainerStatuses {
				switch {
				case s.Name != FilesContainer:
				case s.State.Running != nil:
					return nil
				case s.State.Terminated != nil:
					return fmt.Errorf("the files container exited: %s %s", s.State.Terminated.Reason, s.State.Terminated.Message)
				case s.State.Waiting != nil && slices.Contains(cannotStart, s.State.Waiting.Reason):
					return fmt.Errorf("the files container cannot start: %s: %s", s.State.Waiting.Reason, s.State.Waiting.Message)
				}
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the files container did not run within %s (%v)", filesPatience, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pollEvery):
		}
	}
}

// podFailed says why the Pod has failed as a whole (evicted, say); "" while it has
// not.
func podFailed(p *corev1.Pod) string {
	switch {
	case p.DeletionTimestamp != nil:
		return "the Pod is being deleted during the run, not by the kit"
	case p.Status.Phase == corev1.PodFailed:
		return strings.TrimSpace(fmt.Sprintf("the Pod failed: %s %s", p.Status.Reason, p.Status.Message))
	}
	return ""
}

// cantStart names a container that will not start.
func cantStart(p *corev1.Pod) string {
	for _, s := range p.Status.ContainerStatuses {
		if w := s.State.Waiting; w != nil && slices.Contains(cannotStart, w.Reason) {
			return fmt.Sprintf("the %s container cannot start: %s: %s", s.Name, w.Reason, w.Message)
		}
	}
	return ""
}

// conditions are the Pod's conditions that are not true, for a Pod that did not start.
func conditions(p *corev1.Pod) string {
	var out []string
	for _, c := range p.Status.Conditions {
		if c.Status != corev1.ConditionTrue && (c.Reason != "" || c.Message != "") {
			out = append(out, strings.TrimSpace(fmt.Sprintf("%s: %s %s", c.Type, c.Reason, c.Message)))
		}
	}
	if len(out) == 0 {
		return ""
	}
	return " (" + strings.Join(out, "; ") + ")"
}

func statusOf(p *corev1.Pod, name string) *corev1.ContainerStatus {
	if p == nil {
		return nil
	}
	for i := range p.Status.ContainerStatuses {
		if p.Status.ContainerStatuses[i].Name == name {
			return &p.Status.ContainerStatuses[i]
		}
	}
	return nil
}

// exits are how the spec's containers ended, as the Pod's status says: a container
// killed for its memory reads OOMKilled, as on Docker.
func (k *Cluster) exits(ctx context.Context, spec experiment.PodSpec, p *corev1.Pod) []contract.Exit {
	var out []contract.Exit
	for _, c := range spec.Containers {
		x := contract.Exit{Role: c.Role}
		st := statusOf(p, c.Role)
		if st == nil {
			out = append(out, x)
			continue
		}
		x.ID = st.ContainerID
		switch {
		case st.State.Running != nil:
			x.Running = true
		case st.State.Terminated != nil:
			t := st.State.Terminated
			x.ExitCode, x.OOMKilled = int(t.ExitCode), t.Reason == "OOMKilled"
			if x.ExitCode != 0 || x.OOMKilled {
				var tail bytes.Buffer
				k.logs(ctx, p.Name, c.Role, corev1.PodLogOptions{TailLines: new(int64(20))}, &tail)
				x.LogTail = strings.TrimSpace(tail.String())
			}
		}
		out = append(out, x)
	}
	return out
}

// otherImages names a container that ran other content than the kit built under its
// image's name. The node's runtime reports the image's ID for an image imported from
// Docker (which keeps Docker's), and the reference by digest it pulled for an image
// from a registry.
func (k *Cluster) otherImages(spec experiment.PodSpec, p *corev1.Pod) string {
	var out []string
	for _, c := range spec.Containers {
		want, st := k.expect[c.Image], statusOf(p, c.Role)
		if want == "" || st == nil || st.ImageID == "" {
			continue
		}
		if _, digest, pulled := strings.Cut(c.Image, "@"); pulled && strings.Contains(st.ImageID, "@") {
			if !strings.HasSuffix(st.ImageID, "@"+digest) {
				out = append(out, fmt.Sprintf("the %s container ran %s, the kit pushed %s", c.Role, st.ImageID, c.Image))
			}
			continue
		}
		if !strings.HasPrefix(st.ImageID, "sha256:") {
			continue
		}
		if st.ImageID != want {
			out = append(out, fmt.Sprintf("the %s container ran %s as %.19s, the kit built it as %.19s", c.Role, c.Image, st.ImageID, want))
		}
	}
	return strings.Join(out, "; ")
}

// logs copies a container's log, as the kubelet reads it from its CRI log file, to w.
func (k *Cluster) logs(ctx context.Context, pod, container string, opts corev1.PodLogOptions, w io.Writer) error {
	opts.Container = container
	rc, err := k.cs.CoreV1().Pods(k.namespace).GetLogs(pod, &opts).Stream(ctx)
	if err != nil {
		return err
	}
	defer rc.Close()
	_, err = io.Copy(w, rc)
	return err
}

// collect reads a container's stdout back once its log has stopped growing: the
// container keeps running (Kubernetes stops no single container of a Pod), so the kit
// waits until the runtime has written every line it was given, judged by the log's
// last line read twice alike, a pollEvery apart.
func (k *Cluster) collect(ctx context.Context, pod, container string) ([]byte, error) {
	deadline, last := time.Now().Add(logPatience), ""
	for time.Now().Before(deadline) {
		var tail bytes.Buffer
		if err := k.logs(ctx, pod, container, corev1.PodLogOptions{TailLines: new(int64(1))}, &tail); err != nil {
			return nil, err
		}
		if tail.String() == last {
			break
		}
		last = tail.String()
		time.Sleep(pollEvery)
	}
	out := &experiment.LimitedBuffer{Limit: maxLogBytes}
	err := k.logs(ctx, pod, container, corev1.PodLogOptions{Stream: new(corev1.LogStreamStdout)}, out)
	if err != nil && (apierrors.IsInvalid(err) || apierrors.IsBadRequest(err)) {
		// An API server without PodLogsQuerySplitStreams (alpha in 1.34) refuses the
		// stream and gives stdout and stderr as one: the kit's programs write their logs
		// to stdout and only their own failures to stderr.
		out.Reset()
		err = k.logs(ctx, pod, container, corev1.PodLogOptions{}, out)
	}
	if err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// execREST runs cmd in a container of a Pod through the exec subresource (WebSocket,
// SPDY when the server has no WebSocket), writing its stdout to stdout.
func (k *Cluster) execREST(ctx context.Context, pod, container string, cmd []string, stdout *experiment.LimitedBuffer) error {
	req := k.cs.CoreV1().RESTClient().Post().Resource("pods").Namespace(k.namespace).Name(pod).SubResource("exec").
		VersionedParams(&corev1.PodExecOptions{Container: container, Command: cmd, Stdout: true, Stderr: true}, scheme.ParameterCodec)
	ws, err := remotecommand.NewWebSocketExecutor(k.cfg, "GET", req.URL().String())
	if err != nil {
		return err
	}
	spdy, err := remotecommand.NewSPDYExecutor(k.cfg, "POST", req.URL())
	if err != nil {
		return err
	}
	ex, err := remotecommand.NewFallbackExecutor(ws, spdy, func(err error) bool {
		return httpstream.IsUpgradeFailure(err) || httpstream.IsHTTPSProxyError(err)
	})
	if err != nil {
		return err
	}
	stderr := &experiment.LimitedBuffer{Limit: 64 << 10}
	if err := ex.StreamWithContext(ctx, remotecommand.StreamOptions{Stdout: stdout, Stderr: stderr}); err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return fmt.Errorf("%w: %s", err, msg)
		}
		return err
	}
	return nil
}

// remove deletes the Pod at once (grace 0) and waits until the API server no longer
// has it.
func (k *Cluster) remove(ctx context.Context, name string) error {
	pods := k.cs.CoreV1().Pods(k.namespace)
	err := pods.Delete(ctx, name, metav1.DeleteOptions{GracePeriodSeconds: new(int64(0))})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("deleting Pod %s: %w", name, err)
	}
	for {
		_, err := pods.Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("deleting Pod %s: still there after %s: %v", name, removePatience, cmpErr(err, ctx.Err()))
		case <-time.After(pollEvery):
		}
	}
}

func cmpErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// Clean deletes the Pods of the kit in the namespace that an invocation killed before
// its own cleanup left: those no longer running, or with force every one (a Pod of a
// crashed invocation keeps its files container idling), waiting until each is gone.
// It says which it removed and which it left, and why.
func (c *Client) Clean(ctx context.Context, force bool) (removed, left []string, err error) {
	list, err := c.cs.CoreV1().Pods(c.namespace).List(ctx, metav1.ListOptions{LabelSelector: ManagedBy + "=logbench"})
	if err != nil {
		return nil, nil, err
	}
	k := c.On("")
	var errs []error
	for _, p := range list.Items {
		if !force && (p.Status.Phase == corev1.PodRunning || p.Status.Phase == corev1.PodPending) {
			left = append(left, p.Name+": "+string(p.Status.Phase)+" (--force removes it)")
			continue
		}
		if err := k.remove(ctx, p.Name); err != nil {
			errs = append(errs, err)
			continue
		}
		removed = append(removed, p.Name)
	}
	return removed, left, errors.Join(errs...)
}

package images_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/mount"
	"github.com/docker/docker/api/types/volume"
	"github.com/docker/docker/client"
	"github.com/docker/docker/pkg/stdcopy"

	"github.com/logbench/logbench/internal/enginetest"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/host/bases"
	"github.com/logbench/logbench/kit/host/engine"
	"github.com/logbench/logbench/kit/host/images"
)

// The syslog receivers on the real engine, as the log-driver experiment runs them: in
// the host's network namespace (so that the engine's daemon reaches 127.0.0.1:port), as
// uid 65532 on a read-only root with no capabilities and no new privileges, with a
// fresh volume at /run/logbench. A writer container's stdout goes through the engine's
// syslog log driver to the receiver, and a reader container reads the FIFO; every line
// must come through byte-exact and in order. Over TCP, a writer whose FIFO nobody reads
// must block well before it is done, and must then finish, with nothing lost, once the
// FIFO is read.

func TestRsyslogReceiverOnTheEngine(t *testing.T) {
	testReceiver(t, (*images.Builder).BuildRsyslog)
}

func TestSyslogNGReceiverOnTheEngine(t *testing.T) {
	testReceiver(t, (*images.Builder).BuildSyslogNG)
}

// receiverLogOpts are the syslog driver's options the experiment uses: RFC 5424, whose
// MSG is the line as printed (RFC 3164 and the driver's default format leave rsyslog a
// space before it).
func receiverLogOpts(proto string, port int) map[string]string {
	return map[string]string{
		"syslog-address": fmt.Sprintf("%s://127.0.0.1:%d", proto, port),
		"syslog-format":  "rfc5424",
	}
}

// oddLines are printed before the numbered lines of the exactness cases: what a syslog
// hop could change (spaces at either end, tabs, escapes, non-ASCII text, what looks
// like a syslog header or structured data) and a line longer than a pipe's atomic write.
var oddLines = []string{
	"  two leading spaces",
	"two trailing spaces  ",
	"\ta tab first, and\tone inside",
	`back\slash, %s %d %%, $HOME, 'single' "double" quotes`,
	"UTF-8: h\u00e9llo w\u00f6rld \u2713 \u65e5\u672c",
	"<13>1 2026-01-01T00:00:00Z host app 1 id - looks like a syslog header",
	`- [sd@32473 x="y"] looks like structured data`,
	strings.Repeat("long ", 1000) + "end",
}

// numberedPad makes a numbered line 128 bytes with its newline, as the experiment's are.
var numberedPad = strings.Repeat("-", 128-len("logbench seq=000000000000 ")-1)

func numberedLine(seq int) string { return fmt.Sprintf("logbench seq=%012d %s", seq, numberedPad) }

// writerScript prints LOGBENCH_TEST_LINES as they are, then LOGBENCH_TEST_COUNT numbered
// lines, recording after each one (so after its write to stdout returned) how many it
// has written in /tmp/progress.
const writerScript = `printf '%s' "$LOGBENCH_TEST_LINES"
i=0
while [ "$i" -lt "$LOGBENCH_TEST_COUNT" ]; do
	printf 'logbench seq=%012d %s\n' "$i" "$LOGBENCH_TEST_PAD"
	i=$((i+1))
	echo "$i" > /tmp/progress
done`

type receiverRig struct {
	docker *client.Client
	// receiver is the image under test; tools has busybox (the rsyslog image) for the
	// FIFO's reader.
	receiver, tools string
	label           string
}

func testReceiver(t *testing.T, build func(*images.Builder, context.Context, string, bases.Options) (images.ReceiverBuilt, error)) {
	eng := enginetest.Require(t)
	docker := enginetest.Docker(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	builder, platform := enginetest.Builder(t, eng, testWriter{t})

	started := time.Now()
	rcv, err := build(builder, ctx, platform, bases.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: image %s (%s, %.1f MB, reused %v) in %s", rcv.Runtime(), rcv.Tag, rcv.ID[:19],
		float64(rcv.SizeBytes)/1e6, rcv.Reused, time.Since(started).Round(time.Millisecond))
	if rcv.Version == "" || !strings.HasPrefix(rcv.DebianVersion, rcv.Version) || rcv.Role != rcv.Daemon || len(rcv.BinarySHA256) != 64 {
		t.Fatalf("receiver image %+v", rcv)
	}
	tools, err := builder.BuildRsyslog(ctx, platform, bases.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rig := receiverRig{docker: docker, receiver: rcv.ID, tools: tools.ID, label: "receivers-" + rcv.Daemon}

	t.Run("tcp", func(t *testing.T) { rig.exact(ctx, t, "tcp", 2000) })
	// The kernel keeps about 256 such datagrams for a socket that is not read: this
	// many cannot be lost however late the receiver reads them.
	t.Run("udp", func(t *testing.T) { rig.exact(ctx, t, "udp", 200-len(oddLines)) })
	// The queue the log-driver model's TCPPathLines was measured with; a queue of 1,000
	// held about as many (30,000 to 39,000 lines), the kernel's buffers being most of it.
	t.Run("tcp-backpressure-queue-100", func(t *testing.T) { rig.backpressure(ctx, t, 100, 200_000) })
}

// exact sends the odd lines and count numbered lines over proto, with the FIFO read
// from the start, and checks that the reader gets exactly them.
func (r receiverRig) exact(ctx context.Context, t *testing.T, proto string, count int) {
	port, vol := r.startReceiver(ctx, t, 1000)
	read := r.startReader(ctx, t, vol, len(oddLines)+count)
	writer := r.startWriter(ctx, t, proto, port, strings.Join(oddLines, "\n")+"\n", count)
	if code := r.waitExit(ctx, t, writer); code != 0 {
		t.Fatalf("writer exited %d", code)
	}
	expect := func(i int) string {
		if i < len(oddLines) {
			return oddLines[i]
		}
		return numberedLine(i - len(oddLines))
	}
	res := r.awaitRead(ctx, t, read, len(oddLines)+count, expect)
	t.Logf("%s: %d lines came through byte-exact and in order", proto, res.lines)
}

// backpressure has a writer send count numbered lines over TCP with nobody reading the
// FIFO, measures how many it writes before it blocks, then reads the FIFO and checks
// that the writer finishes and every line comes through.
func (r receiverRig) backpressure(ctx context.Context, t *testing.T, queue, count int) {
	port, vol := r.startReceiver(ctx, t, queue)
	writer := r.startWriter(ctx, t, "tcp", port, "", count)

	// Blocked: no progress over ten polls half a second apart. A slow machine can only
	// make this stop early, with a smaller count; it cannot make a writer that is never
	// held back pass, since that one finishes.
	started := time.Now()
	blocked, same := -1, 0
	for same < 10 {
		select {
		case <-ctx.Done():
			t.Fatal(ctx.Err())
		case <-time.After(500 * time.Millisecond):
		}
		n, running := r.progress(ctx, t, writer)
		if !running || n >= count {
			t.Fatalf("with nobody reading the FIFO the writer was never held back: %d of %d lines written", n, count)
		}
		if n == blocked {
			same++
		} else {
			blocked, same = n, 0
		}
	}
	t.Logf("LOGBENCH_QUEUE_MESSAGES=%d: the writer blocked after %d lines of 128 bytes (%.2f MB), %s after it started",
		queue, blocked, float64(blocked)*128/1e6, time.Since(started).Round(100*time.Millisecond))
	if blocked >= count/2 {
		t.Errorf("the writer blocked only after %d of %d lines", blocked, count)
	}

	started = time.Now()
	read := r.startReader(ctx, t, vol, count)
	res := r.awaitRead(ctx, t, read, count, numberedLine)
	if code := r.waitExit(ctx, t, writer); code != 0 {
		t.Fatalf("writer exited %d", code)
	}
	t.Logf("once the FIFO was read, all %d lines came through byte-exact and in order in %s",
		res.lines, time.Since(started).Round(100*time.Millisecond))
}

// startReceiver starts the receiver with queue on a free port and a fresh volume, and
// waits until the engine's syslog driver can connect to it.
func (r receiverRig) startReceiver(ctx context.Context, t *testing.T, queue int) (port int, vol string) {
	t.Helper()
	port = freeTCPAndUDPPort(t)
	created, err := r.docker.VolumeCreate(ctx, volume.CreateOptions{Labels: map[string]string{"io.logbench.test": r.label}})
	if err != nil {
		t.Fatal(err)
	}
	vol = created.Name
	t.Cleanup(func() { r.docker.VolumeRemove(context.Background(), vol, true) })
	id := r.create(ctx, t, &container.Config{
		Image: r.receiver,
		Env:   []string{images.ReceiverPortEnv + "=" + strconv.Itoa(port), images.ReceiverQueueEnv + "=" + strconv.Itoa(queue)},
	}, r.hostConfig("host", vol, container.LogConfig{Type: "json-file"}))
	if err := r.docker.ContainerStart(ctx, id, container.StartOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("receiver's log:\n%s", r.logs(id))
		}
	})
	r.waitListening(ctx, t, id, port)
	return port, vol
}

// waitListening starts containers that print nothing, with the syslog driver on the
// port, until one starts: the engine's driver dials when a container starts and
// refuses to start it while nothing listens.
func (r receiverRig) waitListening(ctx context.Context, t *testing.T, receiver string, port int) {
	t.Helper()
	for attempt := 0; ; attempt++ {
		probe := r.create(ctx, t, &container.Config{Image: r.receiver, Entrypoint: []string{"/bin/sh", "-c", ":"}},
			r.hostConfig("none", "", container.LogConfig{Type: "syslog", Config: receiverLogOpts("tcp", port)}))
		err := r.docker.ContainerStart(ctx, probe, container.StartOptions{})
		if err == nil {
			r.waitExit(ctx, t, probe)
			return
		}
		if ins, ierr := r.docker.ContainerInspect(ctx, receiver); ierr != nil || !ins.State.Running {
			t.Fatalf("the receiver is not running (%v); its log:\n%s", ierr, r.logs(receiver))
		}
		if attempt == 100 {
			t.Fatalf("nothing listens on 127.0.0.1:%d after %d attempts: %v", port, attempt, err)
		}
		select {
		case <-ctx.Done():
			t.Fatal(ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// startWriter starts the writer, its stdout and stderr on the syslog driver to port.
func (r receiverRig) startWriter(ctx context.Context, t *testing.T, proto string, port int, lines string, count int) string {
	t.Helper()
	hc := r.hostConfig("none", "", container.LogConfig{Type: "syslog", Config: receiverLogOpts(proto, port)})
	hc.Tmpfs = map[string]string{"/tmp": "size=64k"}
	id := r.create(ctx, t, &container.Config{
		Image:      r.receiver,
		Entrypoint: []string{"/bin/sh", "-c", writerScript},
		Env:        []string{"LOGBENCH_TEST_LINES=" + lines, "LOGBENCH_TEST_COUNT=" + strconv.Itoa(count), "LOGBENCH_TEST_PAD=" + numberedPad},
	}, hc)
	if err := r.docker.ContainerStart(ctx, id, container.StartOptions{}); err != nil {
		t.Fatal(err)
	}
	return id
}

// progress is how many numbered lines the writer has written, and whether it runs.
func (r receiverRig) progress(ctx context.Context, t *testing.T, writer string) (int, bool) {
	t.Helper()
	ins, err := r.docker.ContainerInspect(ctx, writer)
	if err != nil {
		t.Fatal(err)
	}
	if !ins.State.Running {
		return 0, false
	}
	exec, err := r.docker.ContainerExecCreate(ctx, writer, container.ExecOptions{
		Cmd: []string{"/bin/sh", "-c", "read n < /tmp/progress 2>/dev/null; echo ${n:-0}"}, AttachStdout: true, AttachStderr: true})
	if err != nil {
		t.Fatal(err)
	}
	att, err := r.docker.ContainerExecAttach(ctx, exec.ID, container.ExecAttachOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer att.Close()
	var out strings.Builder
	if _, err := stdcopy.StdCopy(&out, &out, att.Reader); err != nil {
		t.Fatal(err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(out.String()))
	if err != nil {
		t.Fatalf("writer's progress: %q", out.String())
	}
	return n, true
}

// readResult is what the FIFO's reader got: the lines, all as expected, or the first
// that was not.
type readResult struct {
	lines int
	err   error
}

// startReader reads total lines from the FIFO (making it, as the kit's reader does, if
// the receiver has not) and returns its output as it comes.
func (r receiverRig) startReader(ctx context.Context, t *testing.T, vol string, total int) io.Reader {
	t.Helper()
	fifo := images.ReceiverDefaultFIFO
	script := fmt.Sprintf("[ -p %[1]s ] || /bin/busybox mkfifo -m 0666 %[1]s || [ -p %[1]s ] || exit 1; exec /bin/busybox head -n %[2]d %[1]s", fifo, total)
	id := r.create(ctx, t, &container.Config{Image: r.tools, Entrypoint: []string{"/bin/sh", "-c", script}, AttachStdout: true, AttachStderr: true},
		r.hostConfig("none", vol, container.LogConfig{Type: "none"}))
	att, err := r.docker.ContainerAttach(ctx, id, container.AttachOptions{Stream: true, Stdout: true, Stderr: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(att.Close)
	pr, pw := io.Pipe()
	var stderr strings.Builder
	go func() {
		_, err := stdcopy.StdCopy(pw, &stderr, att.Reader)
		if err == nil && stderr.Len() > 0 {
			err = fmt.Errorf("reader's stderr: %s", stderr.String())
		}
		pw.CloseWithError(err)
	}()
	if err := r.docker.ContainerStart(ctx, id, container.StartOptions{}); err != nil {
		t.Fatal(err)
	}
	return pr
}

// awaitRead checks the reader's output line by line against expect until it ends,
// which must be after total lines.
func (r receiverRig) awaitRead(ctx context.Context, t *testing.T, out io.Reader, total int, expect func(int) string) readResult {
	t.Helper()
	done := make(chan readResult, 1)
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), 64<<10)
		var res readResult
		for sc.Scan() {
			if want := expect(res.lines); sc.Text() != want {
				res.err = fmt.Errorf("line %d: got %q, want %q", res.lines, sc.Text(), want)
				break
			}
			res.lines++
		}
		if res.err == nil {
			res.err = sc.Err()
		}
		if res.err == nil && res.lines != total {
			res.err = fmt.Errorf("the reader ended after %d of %d lines", res.lines, total)
		}
		done <- res
	}()
	select {
	case res := <-done:
		if res.err != nil {
			t.Fatalf("after %d lines as expected: %v", res.lines, res.err)
		}
		return res
	case <-ctx.Done():
		t.Fatalf("the reader did not get every line: %v", ctx.Err())
	}
	return readResult{}
}

func (r receiverRig) create(ctx context.Context, t *testing.T, cfg *container.Config, hc *container.HostConfig) string {
	t.Helper()
	cfg.User = "65532:65532"
	cfg.Labels = map[string]string{"io.logbench.test": r.label}
	created, err := r.docker.ContainerCreate(ctx, cfg, hc, nil, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		r.docker.ContainerRemove(context.Background(), created.ID, container.RemoveOptions{Force: true})
	})
	return created.ID
}

// hostConfig is a pod's confinement: read-only root, no capabilities, no new
// privileges, the kit's process limits, and the volume (if any) at /run/logbench.
func (r receiverRig) hostConfig(network, vol string, logs container.LogConfig) *container.HostConfig {
	hc := &container.HostConfig{
		NetworkMode:    container.NetworkMode(network),
		ReadonlyRootfs: true,
		CapDrop:        []string{"ALL"},
		SecurityOpt:    []string{"no-new-privileges"},
		LogConfig:      logs,
		Resources:      container.Resources{Ulimits: engine.Ulimits(experiment.PodSpec{})},
	}
	if vol != "" {
		hc.Mounts = []mount.Mount{{Type: mount.TypeVolume, Source: vol, Target: "/run/logbench"}}
	}
	return hc
}

func (r receiverRig) waitExit(ctx context.Context, t *testing.T, id string) int64 {
	t.Helper()
	statusCh, errCh := r.docker.ContainerWait(ctx, id, container.WaitConditionNotRunning)
	select {
	case s := <-statusCh:
		return s.StatusCode
	case err := <-errCh:
		t.Fatal(err)
	}
	return -1
}

func (r receiverRig) logs(id string) string {
	rc, err := r.docker.ContainerLogs(context.Background(), id, container.LogsOptions{ShowStdout: true, ShowStderr: true, Tail: "40"})
	if err != nil {
		return err.Error()
	}
	defer rc.Close()
	var out strings.Builder
	stdcopy.StdCopy(&out, &out, rc)
	return out.String()
}

// freeTCPAndUDPPort is a port on 127.0.0.1 free for both TCP and UDP now.
func freeTCPAndUDPPort(t *testing.T) int {
	t.Helper()
	var errs []error
	for range 20 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		u, err := net.ListenPacket("udp", fmt.Sprintf("127.0.0.1:%d", port))
		l.Close()
		if err == nil {
			u.Close()
			return port
		}
		errs = append(errs, err)
	}
	t.Fatalf("no port free for both TCP and UDP: %v", errors.Join(errs...))
	return 0
}

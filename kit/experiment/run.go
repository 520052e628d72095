package experiment

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/logbench/logbench/kit/contract"
)

// Perform runs one pod and says what the engine side saw: how each container ended,
// the conductor's result, and the failure named as precisely as the engine allows.
// The error is for what stops a matrix (an interrupt, a broken engine).
func Perform(ctx context.Context, pods Pods, spec PodSpec, progress io.Writer) (Run, error) {
	run := Run{ID: spec.RunID, Started: time.Now()}
	out, err := pods.RunPod(ctx, spec, progress)
	run.Wall = time.Since(run.Started)
	run.Pod = out
	run.Failure = EngineFailure(spec, out)
	if err != nil {
		return run, fmt.Errorf("run %s: %w", spec.RunID, err)
	}
	return run, nil
}

// EngineFailure names why a pod's run is not data, as far as the engine can tell: the
// most precise reasons first (a container killed for its memory, a container that
// exited with an error), then what the engine side saw go wrong. The conductor's own
// exit status contract.ExitRunFailed means "the result is written and says why": that
// reason is the result's, not the engine's.
func EngineFailure(spec PodSpec, out PodResult) string {
	var failures []string
	for _, x := range out.Exits {
		if x.OOMKilled {
			failures = append(failures, fmt.Sprintf("%s container killed for exceeding its memory limit (OOM)", x.Role))
		}
		if !x.Running && x.ExitCode != 0 && !(x.Role == spec.Conductor && x.ExitCode == contract.ExitRunFailed) {
			failures = append(failures, fmt.Sprintf("%s container exited with code %d%s", x.Role, x.ExitCode, LastLine(x.LogTail)))
		}
	}
	// The engine's own account adds to the containers' only when it is all there is,
	// or when no result explains more.
	if out.Failure != "" && (len(failures) == 0 || out.Result == nil) {
		failures = append(failures, out.Failure)
	}
	return strings.Join(failures, "; ")
}

// JoinFailures joins the reasons a run is not data, skipping empty ones.
func JoinFailures(reasons ...string) string {
	var kept []string
	for _, r := range reasons {
		if r != "" {
			kept = append(kept, r)
		}
	}
	return strings.Join(kept, "; ")
}

// LastLine is the last line a container printed, as ": <line>", or nothing.
func LastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if s == "" {
		return ""
	}
	return ": " + s
}

// NewRunID names a run uniquely and readably; it also names its containers and volume.
func NewRunID(cond Condition, round int) string {
	var b [3]byte
	rand.Read(b[:])
	return fmt.Sprintf("%s-r%d-%s", strings.ReplaceAll(cond.String(), "/", "-"), round, hex.EncodeToString(b[:]))
}

// NewTryID names a pod that is no run of the matrix, a first try of the service or of
// the log driver before anything is measured: the time and random hex, so that engines
// trying at once, as a cluster's nodes do, never name two pods alike.
func NewTryID() string {
	var b [3]byte
	rand.Read(b[:])
	return "probe-" + time.Now().UTC().Format("150405") + "-" + hex.EncodeToString(b[:])
}

// RunIDFits says whether id is one NewRunID gives the condition and round: a run's ID
// names them, so a row whose ID names another is not the row of that run. The ID made
// VolumeSafe, as the engine names a run's volume ("console_file" for "console+file"),
// fits too: qps's bundles record it so.
func RunIDFits(id string, cond Condition, round int) bool {
	prefix := fmt.Sprintf("%s-r%d-", strings.ReplaceAll(cond.String(), "/", "-"), round)
	rest, ok := strings.CutPrefix(id, prefix)
	if !ok {
		rest, ok = strings.CutPrefix(id, VolumeSafe(prefix))
	}
	if !ok || len(rest) != 6 {
		return false
	}
	_, err := hex.DecodeString(rest)
	return err == nil
}

// NoisyOtherCores is the other work on the host, in cores, past which a run is marked
// as measured on a noisy host: the service, the generator and the engine share the
// host's CPUs with it, and a closed loop slows down with any of them. Such a run stays
// data; the bundle says how many it has.
const NoisyOtherCores = 0.25

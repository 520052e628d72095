package experiment

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// PlannedRun is one run of a matrix.
type PlannedRun struct {
	Condition Condition
	Round     int // 1-based
	Position  int // 1-based place in its round
}

// Rotate orders rounds x conditions, rotating the starting position each round so that
// no condition always runs first (or last) in a round.
func Rotate(conds []Condition, rounds int) []PlannedRun {
	var runs []PlannedRun
	n := len(conds)
	for round := range rounds {
		shift := round * n / rounds
		for pos := range n {
			runs = append(runs, PlannedRun{Condition: conds[(pos+shift)%n], Round: round + 1, Position: pos + 1})
		}
	}
	return runs
}

// Missing are the planned runs a bundle does not hold yet, for resuming.
func Missing(all []PlannedRun, b Bundle) []PlannedRun {
	var out []PlannedRun
	for _, pr := range all {
		if !b.Has(pr.Condition, pr.Round) {
			out = append(out, pr)
		}
	}
	return out
}

// Matrix performs planned runs one after another and saves the bundle after each, so an
// interrupted matrix leaves every completed run on disk, checksummed.
type Matrix struct {
	Pods   Pods
	Plan   Plan
	Images map[string]string // image name -> ID on the engine
	Dir    string
	// Save writes the bundle's files to Dir (see bundle.WriteFiles).
	Save     func(dir string, files map[string][]byte) error
	Progress io.Writer
	// OnStart is told of each run as it starts, OnRun once it is saved; either may be nil.
	// A run redone (see Retrier) is told again for each attempt, with the same i and
	// done; its line says it is redone.
	OnStart func(i int, pr PlannedRun)
	OnRun   func(done int, line string, verified bool)
	// ProbeImage, when set, is the image holding the speed probe (/probe): it runs
	// before and after each attempt in a pod of one container with the limits of the
	// run's first container (its API), and Probes keeps a row per attempt, written to
	// probes.csv with the bundle. A resumed matrix starts from the bundle's rows.
	ProbeImage string
	Probes     []bundle.ProbeRow
	// Records are the engine's account of every attempt's pod (PodResult.Records),
	// written to pods.csv with the bundle when there is any. A resumed matrix starts
	// from the bundle's rows.
	Records []bundle.PodRow
}

// Run performs runs and returns the first error that stops the matrix (an interrupt,
// a broken engine, a bundle that cannot be written). A failed run does not stop it.
func (m *Matrix) Run(ctx context.Context, runs []PlannedRun) error {
	if err := m.save(); err != nil {
		return err
	}
	b := m.Plan.Bundle()
	retrier, _ := b.(Retrier)
	for i, pr := range runs {
		attempt := 1
		if retrier != nil {
			attempt = retrier.Attempts(pr.Condition, pr.Round) + 1
		}
		for {
			redo, err := m.attempt(ctx, b, retrier, i, pr, attempt)
			if err != nil {
				return err
			}
			if !redo {
				break
			}
			attempt++
		}
	}
	return nil
}

// attempt performs one attempt of a planned run, keeps it, and says whether the bundle
// wants it redone.
func (m *Matrix) attempt(ctx context.Context, b Bundle, retrier Retrier, i int, pr PlannedRun, attempt int) (redo bool, err error) {
	if err := ctx.Err(); err != nil {
		return false, m.interrupted(err)
	}
	if m.OnStart != nil {
		m.OnStart(i, pr)
	}
	spec := m.Plan.Pod(pr.Condition, NewRunID(pr.Condition, pr.Round), m.Images)
	before := m.probe(ctx, spec, "before")
	run, runErr := Perform(ctx, m.Pods, spec, m.Progress)
	run.Condition, run.Round, run.Position, run.Attempt = pr.Condition, pr.Round, pr.Position, attempt
	if runErr != nil && !b.Measured(run) {
		// Nothing was measured: nothing to keep.
		if ctx.Err() != nil {
			return false, m.interrupted(runErr)
		}
		return false, runErr
	}
	if m.ProbeImage != "" {
		after := bundle.NoProbe
		if runErr == nil {
			after = m.probe(ctx, spec, "after")
		}
		m.Probes = append(m.Probes, bundle.NewProbeRow(run.ID, pr.Condition.String(), before, after))
	}
	m.Records = append(m.Records, run.Pod.Records...)
	line, verified := b.Add(run)
	c := b.Common()
	c.RunsCompleted++
	if verified {
		c.RunsVerified++
	}
	// A run cut short by an error that stops the matrix is not redone: it is kept as
	// it is, and the error ends the matrix.
	if runErr == nil && retrier != nil && retrier.Retry(run) {
		redo = true
		c.RunsSuperseded++
		line += fmt.Sprintf("; redone (attempt %d)", attempt+1)
	}
	if err := m.save(); err != nil {
		return false, err
	}
	if m.OnRun != nil {
		m.OnRun(i+1, line, verified)
	}
	return redo, runErr
}

// interrupted records in the bundle that the matrix was stopped before its end.
func (m *Matrix) interrupted(cause error) error {
	m.Plan.Bundle().Common().Interrupted = true
	return errors.Join(cause, m.save())
}

// SaveBundle writes the bundle as it stands: after a change outside a run (a round
// added).
func (m *Matrix) SaveBundle() error { return m.save() }

func (m *Matrix) save() error {
	b := m.Plan.Bundle()
	c := b.Common()
	c.FinishedUTC = time.Now().UTC()
	c.Complete = c.RunsCompleted-c.RunsSuperseded == c.RunsPlanned
	var probes []bundle.ProbeRow
	if m.ProbeImage != "" || len(m.Probes) > 0 {
		probes, c.SpeedProbe = bundle.DeriveProbes(m.Probes, contract.ProbeKernel, contract.RequestPathKernel)
	}
	files, err := b.Files()
	if err == nil && probes != nil {
		files[bundle.ProbeFile], err = bundle.EncodeProbes(probes)
	}
	if err == nil && len(m.Records) > 0 {
		files[bundle.PodFile], err = bundle.EncodePods(m.Records)
	}
	if err == nil {
		err = m.Save(m.Dir, files)
	}
	if err != nil {
		return fmt.Errorf("saving bundle %s: %w", m.Dir, err)
	}
	return nil
}

// probe runs the speed probe with the limits of spec's first container (the run's API),
// and says what it read; absent when it is off or could not run (a probe never fails a
// run: its absence is in probes.csv for all to see). The probe's pod, like every pod,
// has a network namespace of its own with no interface but loopback (its container's
// network is "none"), which is all the request loop needs.
func (m *Matrix) probe(ctx context.Context, spec PodSpec, when string) bundle.ProbeReading {
	if m.ProbeImage == "" || len(spec.Containers) == 0 || ctx.Err() != nil {
		return bundle.NoProbe
	}
	api := spec.Containers[0]
	args := contract.DefaultProbeArgs()
	pod := PodSpec{RunID: spec.RunID + "-probe-" + when, Conductor: "probe", MountPath: contract.RunDir, ResultPath: args.Result,
		User: contract.User, PidsLimit: spec.PidsLimit, StopAfter: WithGrace(probeMaxRunTime),
		Containers: []ContainerSpec{{Role: "probe", Image: m.ProbeImage, Entrypoint: []string{"/probe"}, Cmd: args.Args(),
			NanoCPUs: api.NanoCPUs, MemoryBytes: probeMemory(api.MemoryBytes)}}}
	out, err := m.Pods.RunPod(ctx, pod, io.Discard)
	var res contract.ProbeResult
	if err != nil || out.Result == nil || json.Unmarshal(out.Result, &res) != nil {
		return bundle.NoProbe
	}
	return ProbeReading(res)
}

// probeMaxRunTime bounds the probe's few seconds of work, emulated on another
// architecture (several times slower) included.
const probeMaxRunTime = 2 * time.Minute

// ProbeMemoryFloor is the least memory the probe's container gets. The probe times the
// CPU and the request path under the run's CPU limit; under a memory limit below what
// its own Go runtime and HTTP loop need (an experiment that starves its API of memory on
// purpose, such as a test of the OOM kill), it would time the kernel's reclaim instead,
// for minutes.
const ProbeMemoryFloor = 64 << 20

func probeMemory(api int64) int64 {
	if api == 0 {
		return 0 // no limit
	}
	return max(api, ProbeMemoryFloor)
}

// ProbeReading is what a probe's result says, as probes.csv holds it: a loop absent
// from the result reads as absent.
func ProbeReading(res contract.ProbeResult) bundle.ProbeReading {
	r := bundle.NoProbe
	r.MBPerS = bundle.MBPerS(res.Bytes, res.CPUNanos)
	if q := res.Requests; q != nil {
		r.ReqPerS, r.RequestCPUUs = bundle.PerSecond(q.Requests, q.WallNanos), bundle.MicrosEach(q.CPUNanos, q.Requests)
	}
	if s := res.Syscalls; s != nil {
		r.SyscallNs = bundle.NanosEach(s.CPUNanos, s.Calls)
	}
	return r
}

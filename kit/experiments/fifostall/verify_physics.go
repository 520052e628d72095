package fifostall

import (
	"fmt"
	"math"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/verify"
)

// physics holds the bundle to the kit's physical rules (kit/offline/verify/physics.go)
// beyond those tabular holds every bundle to (no negative quantity, the runs' times):
// each container's CPU within its limit and its CFS periods within its interval; a
// run's wall time covering its inherent time, and that covering its last response and
// read; a blocking writer's backlog within the pipe it writes to; the calibration's
// figures within what an instrument measures.
func (v *verifier) physics() {
	if c := v.manifestBody.Calibration; c != nil {
		if err := c.Check(); err != nil {
			v.Problem(verify.Problem{File: bundle.ManifestFile, Column: "calibration", Msg: err.Error()})
		}
	}
	v.cpuPhysics()
	for _, i := range v.first {
		v.wallPhysics(i)
		v.backlogPhysics(i)
		v.readerPhysics(i)
	}
}

// cpuPhysics: each container used no more CPU over its interval than its limit as the
// kernel applied it (or the host's CPUs, without one) allows, and saw no more CFS
// periods than its interval holds.
func (v *verifier) cpuPhysics() {
	host := float64(v.manifestBody.Engine.CPUs)
	for j, c := range v.containers {
		place := v.Res.BreachesAt(ContainersFile, v.Lines[ContainersFile][j], "run "+c.RunID+" "+c.Role)
		cores, limit := c.CPULimitCores, "cpu_limit_cores"
		if !(cores > 0) {
			cores, limit = host, fmt.Sprintf("the host's %g CPUs (manifest engine.cpus)", host)
		}
		place("cpu_used_ns", verify.CPUWithin(float64(c.CPUUsedNs)/1e9, c.IntervalS, cores, limit+" over interval_s"))
		if c.CPULimitCores > 0 {
			place("cpu_periods", verify.PeriodsWithin(float64(c.CPUPeriods), c.IntervalS))
		}
	}
}

// wallPhysics: the kit's whole run (wall_s, from creating the pod) covers the run's
// inherent time (first warm-up send to every log byte read) and every response and read
// of the run, which requests.csv and timeline.csv place from the first scheduled send of
// the load, after the warm-up began; inherent_s covers the last response, and a verified
// run's last read (a failed run may never have read its log to the end, and its
// inherent time then ends at its last response).
func (v *verifier) wallPhysics(i int) {
	r := v.Runs[i]
	place := v.Res.BreachesAt(RunsFile, v.Lines[RunsFile][i], "run "+r.RunID)
	hasWall := !v.Absent[RunsFile]["wall_s"]
	hasInherent := !v.Absent[RunsFile]["inherent_s"] && r.InherentS > 0
	if hasWall && hasInherent {
		place("wall_s", verify.WallCovers(r.WallS, verify.Part{Name: "inherent_s", Value: r.InherentS}))
	}
	response, _, sample := v.ends(i)
	lastResponse := verify.Part{Name: fmt.Sprintf("the last response (%s) from the first scheduled send", RequestsFile), Value: response}
	lastEvent := verify.Part{Name: fmt.Sprintf("the last response or read (%s, %s) from the first scheduled send", RequestsFile, TimelineFile), Value: max(response, sample)}
	switch {
	case hasInherent && r.Verified && !math.IsInf(lastEvent.Value, -1):
		place("inherent_s", verify.WallCovers(r.InherentS, lastEvent))
	case hasInherent && !math.IsInf(response, -1):
		place("inherent_s", verify.WallCovers(r.InherentS, lastResponse))
	}
	if hasWall && !math.IsInf(lastEvent.Value, -1) {
		place("wall_s", verify.WallCovers(r.WallS, lastEvent))
	}
}

// backlogPhysics: a mode that writes to the FIFO on the request path blocks once the
// pipe is full, so the bytes it generated and the reader had not yet read are at most
// the pipe's capacity (as the reader read it), the record being written, and one read
// whose sample is not yet taken (the reader timestamps a read after it returns). The
// queued mode hands its records to a queue of parameters.queue_capacity_records first:
// those too. Bytes generated and never written (a record the queue dropped, a write
// that failed when the reader went away) never were in the pipe: they are added.
func (v *verifier) backlogPhysics(i int) {
	r := v.Runs[i]
	mode, err := contract.ParsePublishedLogMode(r.Mode)
	if err != nil || mode.BytesPerRequest() == 0 {
		return
	}
	p := v.manifestBody.Parameters
	record := float64(mode.BytesPerRequest())
	buffers := []verify.Part{
		{Name: "pipe_capacity_bytes", Value: float64(r.PipeCapacityBytes)},
		{Name: "the record being written (" + string(mode) + ")", Value: record},
		{Name: "parameters.read_bytes", Value: float64(p.ReadBytes)},
	}
	if mode.Queued() {
		buffers = append(buffers, verify.Part{Name: "parameters.queue_capacity_records x the record", Value: float64(p.QueueCapacity) * record})
	}
	if unwritten := r.BytesGenerated - r.BytesWritten; unwritten > 0 {
		buffers = append(buffers, verify.Part{Name: "bytes_generated - bytes_written", Value: float64(unwritten)})
	}
	place := v.Res.BreachesAt(RunsFile, v.Lines[RunsFile][i], "run "+r.RunID)
	place("backlog_max_bytes", verify.BacklogWithin(float64(r.BacklogMaxBytes), buffers...))
}

// readerPhysics: a reader held to a bound (parameters.reader_bounds_bytes_per_s) read no
// faster than it from its first read to its last, but for one read's burst
// (parameters.read_bytes): the slow reader of every archived bundle reads at 1.0016 x
// its bound, the first read's 4,096 bytes over 10 s.
func (v *verifier) readerPhysics(i int) {
	r := v.Runs[i]
	p := v.manifestBody.Parameters
	bound := float64(p.ReaderBounds[r.Reader])
	if !(bound > 0) {
		return
	}
	first, last := -1, -1
	for _, j := range v.tlOf[i] {
		if t := v.timeline[j]; t.Series == SeriesRead {
			if first < 0 || t.OffsetS < v.timeline[first].OffsetS {
				first = j
			}
			if last < 0 || t.OffsetS >= v.timeline[last].OffsetS {
				last = j
			}
		}
	}
	if first < 0 {
		return
	}
	a, b := v.timeline[first], v.timeline[last]
	place := v.Res.BreachesAt(TimelineFile, v.Lines[TimelineFile][last], "run "+r.RunID+" read")
	place("bytes", verify.RateWithin(float64(b.Bytes-a.Bytes), b.OffsetS-a.OffsetS, bound, float64(p.ReadBytes),
		fmt.Sprintf("reader %s's bound, parameters.reader_bounds_bytes_per_s", r.Reader)))
}

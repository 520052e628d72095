package fifostall

import (
	"strconv"
	"time"

	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/bundle"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/contract/stats"
)

// RunRecord is everything the kit knows of one run: where it stood in the matrix,
// what the conductor measured, and how the containers ended.
type RunRecord struct {
	RunID    string
	API      string
	Mode     contract.LogMode
	Reader   string
	Round    int
	Position int
	// Attempt counts the performances of the condition and round, from 1.
	Attempt int
	Started time.Time
	Result  contract.Result
	Exits   []contract.Exit
	Wall    time.Duration // the kit's whole run, from creating the pod to removing it
	// MaxSendLagP99 is the send-lag p99 beyond which the run's latencies are not trusted.
	MaxSendLagP99 time.Duration
	// Failure is the whole reason the run is not data ("" when it is).
	Failure string
}

// Rows are a run's rows in every file.
type Rows struct {
	Run        RunRow
	Requests   []RequestRow
	Containers []ContainerRow
	Timeline   []TimelineRow
}

// Derive turns a run's record into its rows: the requests, containers and timeline as
// observed, and the run's row, whose figures RunFigures derives from those rows.
func Derive(rec RunRecord) Rows {
	res := rec.Result
	spans := make(map[int64]struct{ gen, call float64 }, len(res.API.Spans))
	for _, s := range res.API.Spans {
		spans[s.Seq] = struct{ gen, call float64 }{us(s.GenerateNanos), us(s.LogCallNanos)}
	}
	var rows Rows
	for _, o := range res.Requests {
		sp := spans[o.Seq]
		rows.Requests = append(rows.Requests, RequestRow{
			RunID:            rec.RunID,
			Seq:              o.Seq,
			ScheduledUTC:     time.Unix(0, o.Scheduled).UTC().Format(time.RFC3339Nano),
			ScheduledOffsetS: seconds(o.Scheduled - res.LoadStart),
			SentMs:           phaseMs(o.Scheduled, o.Sent),
			ConnectedMs:      phaseMs(o.Scheduled, o.Connected),
			FirstByteMs:      phaseMs(o.Scheduled, o.FirstByte),
			LatencyMs:        phaseMs(o.Scheduled, o.Done),
			// The generator reports 0 when no response came: no status, not a status 0.
			Status:         bundle.OptIf(o.Status != 0, float64(o.Status)),
			Error:          o.Err,
			SpanGenerateUs: sp.gen,
			SpanLogCallUs:  sp.call,
		})
	}

	api, reader := res.API.Counters, res.Reader
	run := RunRow{
		RunID:         rec.RunID,
		API:           rec.API,
		Mode:          string(rec.Mode),
		Reader:        rec.Reader,
		RunPlace:      tabular.RunPlace{Round: rec.Round, Position: rec.Position, StartedUTC: rec.Started.UTC().Format(time.RFC3339Nano)},
		Attempted:     tabular.Attempted{Attempt: rec.Attempt},
		Verified:      rec.Failure == "",
		Failure:       rec.Failure,
		StopCondition: res.StopCondition,

		BytesGenerated: api.Generated.Bytes,
		BytesWritten:   api.Written.Bytes,
		BytesRead:      reader.Counts.Bytes,
		LinesWritten:   api.Written.Lines,
		LinesRead:      reader.Counts.Lines,
		SHA256Writer:   api.Written.SHA256,
		SHA256Reader:   reader.Counts.SHA256,
		QueueDrops:     api.QueueDrops,

		LoadDurationS:     res.Params.Duration.Seconds(),
		PipeCapacityBytes: reader.PipeCapacityBytes,
	}
	cpu, load := make([]float64, 0, len(res.HostLoad)), make([]float64, 0, len(res.HostLoad))
	for _, h := range res.HostLoad {
		cpu, load = append(cpu, h.CPUBusyPct), append(load, h.Load1)
	}
	run.HostCPUMedianPct, run.HostCPUMaxPct, run.HostLoad1Max = bundle.Opt(stats.NearestRank(cpu, 50)), bundle.Opt(stats.Max(cpu)), bundle.Opt(stats.Max(load))
	run.HostStealPct, run.HostCPUPressurePct = HostNoise(res.HostLoad)
	run.WallS = rec.Wall.Seconds()
	if end := max(res.LogsRead, res.LastResponse); res.WarmupStart > 0 && end > 0 {
		run.InherentS = seconds(end - res.WarmupStart)
		run.OverheadS = run.WallS - run.InherentS
	}
	if res.LastResponse > 0 {
		run.ToLastResponseS = max(run.LoadDurationS, seconds(res.LastResponse-res.LoadStart))
	}
	if res.LogsRead > 0 && res.LastResponse > 0 {
		run.DrainS = max(0, seconds(res.LogsRead-res.LastResponse))
		run.ToLogsReadS = max(run.LoadDurationS, seconds(max(res.LogsRead, res.LastResponse)-res.LoadStart))
	}

	exits := make(map[string]contract.Exit, len(rec.Exits))
	for _, x := range rec.Exits {
		exits[x.Role] = x
	}
	for _, c := range []struct {
		role     string
		from, to contract.CgroupSnapshot
		process  contract.ProcessFacts
	}{
		{"api", res.APIAtReset, res.APIAtLastResponse, res.API.Process},
		{"reader", res.ReaderAtReset, res.Reader.Cgroup, res.Reader.Process},
		{"loadgen", res.LoadgenAtReset, res.LoadgenAtEnd, res.Loadgen},
	} {
		row := containerRow(rec.RunID, c.role, c.from, c.to, exits[c.role])
		if p := c.process; p.Present {
			row.UID, row.CapEffective = strconv.Itoa(p.UID), strconv.FormatUint(p.CapEffective, 16)
			row.NoNewPrivs, row.RootReadOnly = strconv.FormatBool(p.NoNewPrivs), strconv.FormatBool(p.RootReadOnly)
			row.NoFileLimit, row.NProcLimit, row.PidsMax = bundle.LimitColumns(p.Limits)
		}
		rows.Containers = append(rows.Containers, row)
	}

	for _, s := range res.API.Generated {
		rows.Timeline = append(rows.Timeline, TimelineRow{RunID: rec.RunID, Series: SeriesGenerated, OffsetS: seconds(s.UnixNano - res.LoadStart), Bytes: s.Bytes})
	}
	for _, s := range res.Reader.Read {
		rows.Timeline = append(rows.Timeline, TimelineRow{RunID: rec.RunID, Series: SeriesRead, OffsetS: seconds(s.UnixNano - res.LoadStart), Bytes: s.Bytes})
	}
	rows.Run = RunFigures(run, rows.Requests, rows.Containers, rows.Timeline, float64(rec.MaxSendLagP99)/1e6)
	return rows
}

func containerRow(runID, role string, from, to contract.CgroupSnapshot, exit contract.Exit) ContainerRow {
	return ContainerRow{
		RunID:            runID,
		Role:             role,
		CgroupVersion:    to.CgroupVersion,
		CPULimitCores:    to.CPULimitCores,
		MemoryLimitBytes: to.MemoryLimitBytes,
		SwapLimitBytes:   to.SwapLimitBytes,
		IntervalS:        seconds(to.UnixNano - from.UnixNano),
		CPUUsedNs:        to.CPUUsageNanos - from.CPUUsageNanos,
		CPUCores:         contract.MeanCores(from, to),
		CPUPeriods:       to.CPUPeriods - from.CPUPeriods,
		CPUThrottled:     to.CPUThrottled - from.CPUThrottled,
		CPUThrottledMs:   float64(to.CPUThrottledNanos-from.CPUThrottledNanos) / 1e6,
		MemoryPeakBytes:  to.MemoryPeakBytes,
		ExitCode:         exit.ExitCode,
		OOMKilled:        exit.OOMKilled,
	}
}

// HostNoise is the host's noise over a run's samples: the mean share of CPU time stolen
// (each sample covers the second before it), and the share of the wall time some task
// waited for a CPU, from the first sample's cumulative stall time to the last's
// (absent without PSI or with fewer than two samples).
func HostNoise(samples []contract.HostSample) (stealPct, cpuPressurePct bundle.Opt) {
	steal := make([]float64, 0, len(samples))
	for _, h := range samples {
		steal = append(steal, h.StealPct)
	}
	stealPct, cpuPressurePct = bundle.Opt(stats.Mean(steal)), bundle.None
	if n := len(samples); n >= 2 {
		first, last := samples[0], samples[n-1]
		if first.CPUPressure != nil && last.CPUPressure != nil && last.UnixNano > first.UnixNano && last.CPUPressure.TotalUs >= first.CPUPressure.TotalUs {
			stalled := float64(last.CPUPressure.TotalUs-first.CPUPressure.TotalUs) * 1e3 // ns
			cpuPressurePct = bundle.Opt(min(100, 100*stalled/float64(last.UnixNano-first.UnixNano)))
		}
	}
	return stealPct, cpuPressurePct
}

// BacklogMax is the largest difference between bytes generated and bytes read, taking
// for each generated sample the last read sample at or before it (so it may overstate,
// as published).
func BacklogMax(generated, read []contract.Sample) int64 {
	var worst int64
	j, readSoFar := 0, int64(0)
	for _, g := range generated {
		for j < len(read) && read[j].UnixNano <= g.UnixNano {
			readSoFar = read[j].Bytes
			j++
		}
		worst = max(worst, g.Bytes-readSoFar)
	}
	return worst
}

// readRate is the reader's achieved rate between its first and last read.
func readRate(read []contract.Sample) float64 {
	if len(read) < 2 || read[len(read)-1].UnixNano == read[0].UnixNano {
		return 0
	}
	first, last := read[0], read[len(read)-1]
	return float64(last.Bytes-first.Bytes) / seconds(last.UnixNano-first.UnixNano)
}

func phaseMs(scheduled, at int64) float64 {
	if at == 0 {
		return 0
	}
	return float64(at-scheduled) / 1e6
}

func seconds(ns int64) float64 { return float64(ns) / 1e9 }
func us(ns int64) float64      { return float64(ns) / 1e3 }

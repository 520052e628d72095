// Package fifostalltest makes synthetic result bundles for tests: real fifostall.Derive over
// run records that a small simulation of the experiment's physics produces (a FIFO of
// 64 KiB, a reader bounded at 256 KiB/s, a single event loop that a blocked write
// stalls), so that tests of verification, comparison and reports need no engine.
package fifostalltest

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/experiments/fifostall"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// DataFiles are every file of a fifo-stall bundle but SHA256SUMS, which lists them,
// as the kit wrote them before its tables were declared: what a test holds the
// declaration to.
var DataFiles = []string{bundle.ManifestFile, fifostall.RunsFile, fifostall.RequestsFile, fifostall.ContainersFile, fifostall.TimelineFile, fifostall.ConditionsFile}

// Names are a fifo-stall bundle's file names in the order an archive holds them: the
// data files, the optional ones (datapackage.json), SHA256SUMS.
func Names() []string {
	return append(append(slices.Clone(DataFiles), bundle.OptionalFiles...), bundle.SumsFile)
}

// Load reads the bundle in dir as verify reads it, for a test that looks at its rows:
// an error when a file is missing or does not match SHA256SUMS, or when the bundle
// cannot be read far enough to have runs. Its figures need not verify.
func Load(dir string) (*Bundle, error) {
	files, err := bundle.ReadFolder(dir)
	if err != nil {
		return nil, err
	}
	res := fifostall.Tabular.Verify(files)
	for _, p := range res.Problems {
		if p.Column == "SHA-256" || p.File == bundle.SumsFile || p.Line == 0 && strings.HasPrefix(p.Msg, "missing") {
			return nil, errors.New(p.String())
		}
	}
	if b := Of(res); b != nil {
		return b, nil
	}
	return nil, fmt.Errorf("%s: not read as a fifo-stall bundle: %v", dir, res.Problems)
}

// Options shape a synthetic bundle; the zero value of a field takes its default.
type Options struct {
	Seed     uint64   // the noise; same options, same bundle
	Modes    []string // default: short1, json-sync, json-queue
	Readers  []string // default: fast, slow
	Rounds   int      // default 2
	Rate     float64  // requests/s, default 20
	Duration time.Duration
	// BaseLatency is the typical latency of an unhindered request (default 1.5 ms);
	// Scale multiplies every latency (default 1), to make a slower host.
	BaseLatency time.Duration
	Scale       float64
	Host        string // the engine's host name, default "testhost"
	Arch        string // default "x86_64"
	CPUs        int    // default 4
	// BinarySHA256 is the API image's binary digest (default: a fixed one).
	BinarySHA256 string
	// FailRun marks this run (1-based, in matrix order) failed, as a run that lost log
	// bytes; 0: none.
	FailRun int
	Created time.Time // default 2026-11-30T10:00:00Z
}

func (o *Options) defaults() {
	if len(o.Modes) == 0 {
		o.Modes = []string{"short1", "json-sync", "json-queue"}
	}
	if len(o.Readers) == 0 {
		o.Readers = []string{"fast", "slow"}
	}
	o.Rounds = or(o.Rounds, 2)
	o.Rate = or(o.Rate, 20)
	o.Duration = or(o.Duration, 8*time.Second)
	o.BaseLatency = or(o.BaseLatency, 1500*time.Microsecond)
	o.Scale = or(o.Scale, 1)
	o.Host = or(o.Host, "testhost")
	o.Arch = or(o.Arch, "x86_64")
	o.CPUs = or(o.CPUs, 4)
	o.BinarySHA256 = or(o.BinarySHA256, "e5fb9560e9b51fb9ed87b655a27cb714190506d08d6312dc8d2229b3ae5ad100")
	if o.Created.IsZero() {
		o.Created = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	}
}

func or[T comparable](v, otherwise T) T {
	var zero T
	if v == zero {
		return otherwise
	}
	return v
}

// Reader bounds as the kit sets them.
var readerBounds = map[string]int64{"fast": 0, "slow": 256 << 10}

// pipeCapacity is Linux's default FIFO capacity.
const pipeCapacity = 64 << 10

// New makes a bundle: every condition (mode x reader) for every round, rotated like the
// kit's matrix.
func New(o Options) *Bundle {
	o.defaults()
	rng := rand.New(rand.NewPCG(o.Seed, 0x10b5e7c4))
	params := fifostall.Params{
		APIs: []string{"go"}, Modes: o.Modes, Readers: o.Readers, Rounds: o.Rounds,
		RateRPS: o.Rate, DurationS: o.Duration.Seconds(), WarmupRequests: 2,
		ReaderBounds: map[string]int64{}, ReadBytes: 4096, QueueCapacity: 256,
		MaxRunTimeS: 120, MaxLogBytes: 256 << 20, MaxSendLagP99Ms: 1, Platform: "linux/amd64",
		Limits: fifostall.Limits{Limits: experiment.Limits{APICPUs: 0.25, APIMemoryBytes: 128 << 20, LoadgenCPUs: 0.25, LoadgenMemoryBytes: 256 << 20, PidsLimit: 128},
			ReaderCPUs: 0.25, ReaderMemoryBytes: 256 << 20},
	}
	for _, r := range o.Readers {
		params.ReaderBounds[r] = readerBounds[r]
	}
	b := &Bundle{Manifest: fifostall.Manifest{Parameters: params, Common: bundle.Common{
		SchemaVersion: bundle.SchemaVersion, Experiment: fifostall.Name, KitVersion: "test", Command: "reproduce",
		CreatedUTC: o.Created,
		Engine: contract.EngineFacts{Host: o.Host, EngineVersion: "28.5.2", APIVersion: "1.51", OS: "Debian GNU/Linux 13 (trixie)", OSType: "linux",
			Kernel: "6.12.0-test", Architecture: o.Arch, Platform: "linux/amd64", CPUs: o.CPUs, MemoryBytes: 16 << 30,
			CgroupVersion: "2", CgroupDriver: "systemd", StorageDriver: "overlay2"},
		KitHost: bundle.KitHost{OS: "linux", Arch: "amd64", GoVersion: "go1.26.8"},
		Images: []bundle.Image{
			{Role: "api", Tag: "logbench/api:test", ID: "sha256:" + digest("api image"), Architecture: "amd64", SizeBytes: 9 << 20, BinarySHA256: o.BinarySHA256},
			{Role: "reader", Tag: "logbench/reader:test", ID: "sha256:" + digest("reader image"), Architecture: "amd64", SizeBytes: 9 << 20, BinarySHA256: digest("reader")},
			{Role: "loadgen", Tag: "logbench/loadgen:test", ID: "sha256:" + digest("loadgen image"), Architecture: "amd64", SizeBytes: 9 << 20, BinarySHA256: digest("loadgen")},
		},
	}}}
	type cond struct{ mode, reader string }
	var conds []cond
	for _, m := range o.Modes {
		for _, r := range o.Readers {
			conds = append(conds, cond{m, r})
		}
	}
	started := o.Created.Add(10 * time.Second)
	n := 0
	for round := 1; round <= o.Rounds; round++ {
		for i := range conds {
			c := conds[(i+round-1)%len(conds)]
			n++
			rec := simulate(rng, o, contract.LogMode(c.mode), c.reader, started)
			rec.RunID = fmt.Sprintf("go-%s-%s-r%d-%06x", c.mode, c.reader, round, n)
			rec.Round, rec.Position, rec.Attempt = round, i+1, 1
			if n == o.FailRun {
				rec.Result.Reader.Counts.Bytes -= 100
				rec.Failure = fmt.Sprintf("api wrote %d bytes but reader read %d", rec.Result.API.Counters.Written.Bytes, rec.Result.Reader.Counts.Bytes)
			}
			rows := fifostall.Derive(rec)
			b.Runs = append(b.Runs, rows)
			b.Manifest.RunsCompleted++
			if rows.Run.Verified {
				b.Manifest.RunsVerified++
			}
			started = started.Add(time.Duration(rows.Run.ToLogsReadS*1e9) + 3*time.Second)
		}
	}
	b.Manifest.RunsPlanned = b.Manifest.RunsCompleted
	b.Manifest.Complete = true
	b.Manifest.FinishedUTC = started
	b.Conditions = Derived(b.Runs, params)
	return b
}

// simulate runs one condition: open-loop sends, one event loop, a FIFO and a reader.
func simulate(rng *rand.Rand, o Options, mode contract.LogMode, reader string, started time.Time) fifostall.RunRecord {
	start := started.Add(2 * time.Second).UnixNano()
	count := int(o.Rate*o.Duration.Seconds() + 0.5)
	perReq := int64(mode.BytesPerRequest())
	bound := float64(readerBounds[reader]) // bytes/s; 0: unbounded
	sync := perReq > 0 && !mode.Queued()
	interval := time.Duration(float64(time.Second) / o.Rate)
	ns := func(d time.Duration) int64 { return int64(float64(d) * o.Scale) }

	res := contract.Result{Params: contract.RunParams{Rate: o.Rate, Duration: o.Duration, WarmupCount: 2}, LoadStart: start, WarmupStart: start - int64(time.Second)}
	var loopFree, total int64 // when the event loop is next free; bytes generated so far
	var gens []contract.Sample
	for i := range count {
		sched := start + int64(i)*int64(interval)
		// A lognormal-ish service time with a rare slow one: p99 lands among the top.
		service := ns(time.Duration(float64(o.BaseLatency) * math.Exp(rng.NormFloat64()*0.25)))
		if rng.IntN(60) == 0 {
			service += ns(time.Duration(rng.IntN(4000)) * time.Microsecond)
		}
		begin := max(sched+ns(150*time.Microsecond), loopFree)
		gen := begin + service/3
		total += perReq
		done := begin + service
		if sync && bound > 0 {
			// The write returns once the record fits in the FIFO: when the reader has
			// read all but a pipe's worth of what came before it.
			fits := start + int64(float64(max(0, total-pipeCapacity))/bound*1e9)
			done = max(done, fits+service*2/3)
		}
		loopFree = done
		// One sample per record, as the API's sink takes them: short10 writes ten.
		for l := range int64(mode.LinesPerRequest()) {
			per := perReq / int64(mode.LinesPerRequest())
			gens = append(gens, contract.Sample{UnixNano: gen + l, Bytes: total - perReq + per*(l+1)})
		}
		spanLog := int64(0)
		if perReq > 0 {
			spanLog = max(20_000, done-gen-service/3)
		}
		spanGen := int64(0)
		if mode == contract.ModeJSONOnly || mode == contract.ModeJSONSync || mode == contract.ModeJSONQueue {
			spanGen = 90_000 + int64(rng.IntN(20_000))
		}
		res.Requests = append(res.Requests, contract.Observation{Seq: int64(i), Scheduled: sched, Sent: sched + ns(120*time.Microsecond),
			Connected: sched + ns(300*time.Microsecond), FirstByte: done - 50_000, Done: done, Status: 200})
		res.API.Spans = append(res.API.Spans, contract.Span{Seq: int64(i), GenerateNanos: spanGen, LogCallNanos: spanLog})
		res.LastResponse = max(res.LastResponse, done)
	}
	res.API.Generated = gens
	res.Reader.Read = readSamples(gens, bound)
	if n := len(res.Reader.Read); n > 0 {
		res.LogsRead = res.Reader.Read[n-1].UnixNano
	} else {
		res.LogsRead = res.LastResponse
	}
	counts := struct{ bytes, lines int64 }{total, int64(count)}
	if perReq == 0 {
		counts.lines = 0
	} else if mode == contract.ModeShort10 {
		counts.lines = int64(count) * 10
	}
	sum := digest(fmt.Sprintf("%s/%s/%d", mode, reader, start))
	if perReq == 0 {
		sum = digest("")
	}
	res.API.Counters.Generated.Bytes, res.API.Counters.Generated.Lines, res.API.Counters.Generated.SHA256 = counts.bytes, counts.lines, sum
	res.API.Counters.Written = res.API.Counters.Generated
	res.Reader.Counts = res.API.Counters.Generated
	res.Reader.PipeCapacityBytes = pipeCapacity

	cores := 0.010 + 0.004*float64(perReq)/16384 + rng.Float64()*0.002
	wall := res.LastResponse - start
	res.APIAtReset = snapshot(start, 0.25, 128<<20, 0)
	res.APIAtLastResponse = snapshot(res.LastResponse, 0.25, 128<<20, int64(cores*float64(wall)))
	res.ReaderAtReset = snapshot(start, 0.25, 256<<20, 0)
	res.Reader.Cgroup = snapshot(res.LogsRead, 0.25, 256<<20, int64(0.003*float64(res.LogsRead-start)))
	res.LoadgenAtReset = snapshot(start, 0.25, 256<<20, 0)
	res.LoadgenAtEnd = snapshot(res.LogsRead, 0.25, 256<<20, int64(0.02*float64(res.LogsRead-start)))
	for s := start; s <= res.LogsRead; s += int64(time.Second) {
		res.HostLoad = append(res.HostLoad, contract.HostSample{UnixNano: s, CPUBusyPct: 5 + 10*rng.Float64(), Load1: 0.3 + 0.4*rng.Float64()})
	}
	return fifostall.RunRecord{API: "go", Mode: mode, Reader: reader, Started: started, Result: res,
		Exits: []contract.Exit{{Role: "api"}, {Role: "reader"}, {Role: "loadgen"}}, MaxSendLagP99: time.Millisecond, Wall: time.Duration(res.LogsRead-start) + 3*time.Second}
}

// readSamples reads the FIFO in 4,096-byte reads: at once when unbounded, else no faster
// than bound bytes/s.
func readSamples(gens []contract.Sample, bound float64) []contract.Sample {
	var out []contract.Sample
	if len(gens) == 0 {
		return nil
	}
	total := gens[len(gens)-1].Bytes
	t, read, g := gens[0].UnixNano, int64(0), 0
	for read < total {
		for g < len(gens) && gens[g].UnixNano <= t {
			g++
		}
		avail := int64(0)
		if g > 0 {
			avail = gens[g-1].Bytes
		}
		if avail <= read {
			t = gens[g].UnixNano + 20_000
			continue
		}
		step := min(4096, avail-read)
		if bound > 0 {
			t += int64(float64(step) / bound * 1e9)
		} else {
			t += 15_000
		}
		read += step
		out = append(out, contract.Sample{UnixNano: t, Bytes: read})
	}
	return out
}

func snapshot(at int64, cpus float64, mem int64, used int64) contract.CgroupSnapshot {
	return contract.CgroupSnapshot{UnixNano: at, CgroupVersion: 2, CPULimitCores: cpus, MemoryLimitBytes: mem, CPUUsageNanos: used,
		CPUPeriods: used / 10_000_000, MemoryPeakBytes: 12 << 20}
}

func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// Save writes b to dir as the kit writes a fifo-stall bundle (fifostall.Tabular), its
// conditions derived afresh (b.Conditions too).
func Save(b *Bundle, dir string) error {
	files, err := Files(b)
	if err != nil {
		return err
	}
	return bundle.WriteFiles(dir, files)
}

// Files are b's files but SHA256SUMS, as the kit writes them: a plan of b's parameters
// holding b's manifest and rows.
func Files(b *Bundle) (map[string][]byte, error) {
	params := b.Manifest.Parameters
	p, err := fifostall.Tabular.Plan(&params, params.Rounds)
	if err != nil {
		return nil, err
	}
	t := p.Bundle().(*fifostall.TabularBundle)
	*t.M.(*fifostall.Manifest) = b.Manifest
	var rows tabular.Rows
	t.Runs, rows = Tables(b.Runs)
	maps.Copy(t.Rows, rows)
	b.Conditions = Derived(b.Runs, b.Manifest.Parameters)
	return t.Files()
}

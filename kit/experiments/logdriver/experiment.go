// Package logdriver is the FIFO stall at the engine's door: an API whose console goes
// through the container engine's log driver to a log consumer, under open-loop load.
// A blocking driver behind a slow consumer holds the API's writes, and so its requests;
// a non-blocking one (or UDP syslog) loses lines instead. Every line is numbered and
// summed, read back and accounted for: received, lost (which ranges), duplicated,
// reordered, corrupted. The kit owns everything else (kit/experiment/tabular).
package logdriver

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/docker/go-units"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/contract/stats"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/verify"
)

// Experiment is the log-driver experiment, declared.
var Experiment = &tabular.Experiment[*Params, Row]{
	About: experiment.Info{Name: "log-driver",
		Summary:  "the FIFO stall at the engine's log driver: p99 added by a blocking driver behind a slow consumer, lines lost by a non-blocking one",
		Source:   "seed 000's FIFO stall (experiment.md), moved to the engine's log drivers; no published figures",
		Question: "How much latency does a blocking log driver add behind a slow consumer, and how many lines does a non-blocking one lose?"},
	Defaults:   DefaultParams,
	Axes:       []string{"api", "driver", "mode", "buffer", "consumer", "receiver", "rate_rps"},
	Conditions: conditions,
	Images:     []string{"api", "api-python", "api-node", "loadgen", "reader", "rsyslog", "syslog-ng", "qpsload"},
	Needs:      needs,
	Pod:        pod,
	Observe:    observe,
	Judge:      judge,
	Rules:      rules,
	Own:        tabular.Own[*Params, Row]{Later: placeAdded},
	Target:     target,
	Notes:      notes,
	Runs: bundle.Table{File: runsFile, Name: "runs",
		Text: "One row per run, failed ones too: the load, the latency from the scheduled send, and every log line accounted for."},
	Metrics: []compare.Metric{
		{Name: "latency_p99_ms", Title: "p99 latency from the scheduled send", Headline: true},
		{Name: "predicted_p99_added_ms", Title: "p99 latency a blocking path adds, as the model predicts"},
		{Name: "lines_lost", Title: "log lines lost", Headline: true},
		{Name: "predicted_lines_lost", Title: "log lines lost, as the model predicts"},
		{Name: "drain_s", Title: "drain: the last line read after the last response"},
		{Name: "predicted_drain_s", Title: "the drain, as the model predicts"},
		{Name: "latency_p50_ms", Title: "p50 latency from the scheduled send"},
		{Name: "requests_failed", Title: "requests failed"},
		{Name: "api_cpu_cores", Title: "the API's CPU"},
		{Name: "receiver_cpu_s", Title: "the syslog receiver's CPU time"},
		{Name: "engine_cpu_cores", Title: "the engine's CPU (dockerd, containerd, shims)"},
		{Name: "engine_rss_peak_bytes", Title: "the engine daemon's peak resident memory"},
	},
}

// Axis values of the conditions that have no such axis.
const (
	noBuffer   = "-" // a blocking driver has no ring buffer
	noReceiver = "-" // the engine writes the file itself
	engineFile = "engine"
)

// conditions are the plan's cells: every API, driver, mode, buffer size (non-blocking
// only), consumer (syslog only) and receiver (syslog only), at every rate.
func conditions(p *Params) []tabular.Cell {
	var out []tabular.Cell
	for _, api := range p.APIs {
		for _, d := range p.Drivers {
			for _, m := range p.Modes {
				buffers := []string{noBuffer}
				if m == "non-blocking" {
					buffers = bufferSizesFlag.Texts(p.BufferSizes)
				}
				consumers, receivers := []string{engineFile}, []string{noReceiver}
				if isSyslog(d) {
					consumers, receivers = p.Consumers, p.Receivers
				}
				out = append(out, tabular.Product([]string{api}, []string{d}, []string{m}, buffers, consumers, receivers, ratesFlag.Texts(p.Rates))...)
			}
		}
	}
	return out
}

// notes say what the plan leaves out.
func notes(p *Params) []string {
	var out []string
	if !slices.ContainsFunc(p.Drivers, isSyslog) {
		out = append(out, "the file drivers have no consumer of their own to slow: the engine writes the file; --consumers and --receivers apply to the syslog drivers")
	}
	if p.EngineKind == "" {
		out = append(out, "the engine's own CPU and memory are not measured: the kit cannot identify the processes of an engine of this kind")
	}
	return out
}

// needs are the images of a plan: the API, the load generator, the engine helper's
// (where the engine is measured), and for syslog the reader and the receivers.
func needs(p *Params) []string {
	var names []string
	for _, api := range p.APIs {
		names = append(names, imageOf[api])
	}
	names = append(names, "loadgen")
	if p.EngineKind != "" {
		names = append(names, engineImage)
	}
	if slices.ContainsFunc(p.Drivers, isSyslog) {
		names = append(append(names, "reader"), p.Receivers...)
	}
	return names
}

// onPodman are the drivers Podman offers of these: its own file writer. Docker has
// every other one.
var onPodman = []string{K8sFile}

// target refuses, before anything starts, drivers the engine does not have, and
// records which engine's processes the engine helper counts; a bundle resumed on
// another kind of engine is refused, its runs would count other processes.
func target(p *Params, env experiment.Env) error {
	if env.Engine.Kind == contract.EngineKubernetes {
		// A node offers no driver to choose, and the syslog receiver and the engine's
		// CPU helper would need the host's network and PIDs, which the kit's Pods never get.
		return experiment.Usagef("log-driver measures an engine's logging drivers, and a Kubernetes node has one console path, the kubelet's CRI log: run it on a Docker or Podman engine (qps --configs console on the cluster measures the CRI log)")
	}
	kind, err := experiment.EngineKindOf(env, p.EngineKind)
	if err != nil {
		return err
	}
	p.EngineKind = kind
	podman := env.Engine.Kind == contract.EnginePodman
	for _, d := range p.Drivers {
		switch {
		case podman && !slices.Contains(onPodman, d):
			return experiment.Usagef("--drivers %s: Podman has no %s driver; of these it offers %s", d, d, strings.Join(onPodman, ", "))
		case !podman && slices.Contains(onPodman, d):
			return experiment.Usagef("--drivers %s: Docker has no %s driver (Podman's); use json-file or local", d, d)
		}
	}
	if podman && slices.Contains(p.Modes, "non-blocking") {
		// Podman's conmon writes the file itself and takes no mode: a non-blocking run
		// there would be a blocking one under another name.
		return experiment.Usagef("--driver-modes non-blocking: Podman's drivers have no non-blocking mode; use --driver-modes blocking")
	}
	return nil
}

const fifoPath = contract.RunDir + "/log.fifo"

// The engine helper (experiment.EngineHelper) and its port on the pod's loopback.
const (
	engineImage = "qpsload"
	enginePort  = 9003
)

// port is the receiver's port on the host's loopback, from the run's ID: each run its
// own, below Linux's ephemeral ports.
func port(runID string) int {
	h := fnv.New32a()
	h.Write([]byte(runID))
	return 20000 + int(h.Sum32()%10000)
}

// pod is one run: the receiver (syslog), the API, the reader (syslog) and the load
// generator that conducts.
func pod(p *Params, c tabular.Cell, runID string, images map[string]string) experiment.PodSpec {
	apiName, driver, mode, buffer, consumer, receiver, rate := c[0], c[1], c[2], c[3], c[4], c[5], c[6]
	l := p.Limits
	api := contract.DefaultAPIArgs()
	api.Mode, api.FIFO, api.LineBytes = string(contract.ModeNumbered), "-", p.lineBytes()
	apiC := experiment.ContainerSpec{Role: "api", Image: images[imageOf[apiName]], Cmd: api.FIFOArgs(),
		NanoCPUs: experiment.NanoCPUs(l.APICPUs), MemoryBytes: l.APIMemoryBytes,
		LogDriver: driver, LogOpts: map[string]string{"mode": mode}}
	if buffer != noBuffer {
		apiC.LogOpts["max-buffer-size"] = buffer
	}
	lg := contract.DefaultLoadgenArgs()
	lg.Run.Rate, _ = strconv.ParseFloat(rate, 64)
	lg.Run.Duration = time.Duration(p.DurationS * float64(time.Second))
	lg.Run.RequestTimeout = time.Duration(p.RequestTimeout * float64(time.Second))
	lg.Run.WarmupCount = 0 // every line the API writes is accounted for: none before the reset
	lg.Run.LossAllowed, lg.Run.QuietPeriod = true, time.Duration(p.QuietS*float64(time.Second))
	lg.Run.MaxRunTime = lg.Run.Duration + 3*lg.Run.RequestTimeout + 2*time.Minute
	loadgenC := experiment.ContainerSpec{Role: "loadgen", Image: images["loadgen"],
		NanoCPUs: experiment.NanoCPUs(l.LoadgenCPUs), MemoryBytes: l.LoadgenMemoryBytes}
	// The engine helper starts before the conductor, which asks it from the reset on.
	var helpers []experiment.ContainerSpec
	if p.EngineKind != "" {
		var helper experiment.ContainerSpec
		helper, lg.EngineCPUURL = experiment.EngineHelper("engine", engineImage, p.EngineKind, enginePort, images)
		helpers = append(helpers, helper)
	}
	spec := experiment.PodSpec{RunID: runID, Conductor: "loadgen", MountPath: contract.RunDir, ResultPath: lg.Result,
		User: contract.User, PidsLimit: l.PidsLimit, StopAfter: experiment.WithGrace(lg.Longest())}
	if !isSyslog(driver) {
		lg.NoReader = true
		loadgenC.Cmd = lg.Args()
		spec.Containers = slices.Concat([]experiment.ContainerSpec{apiC}, helpers, []experiment.ContainerSpec{loadgenC})
		spec.CollectLogs = []string{"api"}
		return spec
	}
	pt := port(runID)
	apiC.LogDriver = "syslog"
	// The driver's name ends with its protocol: syslog-tcp, syslog-udp.
	apiC.LogOpts["syslog-address"] = fmt.Sprintf("%s://127.0.0.1:%d", strings.TrimPrefix(driver, "syslog-"), pt)
	maps.Copy(apiC.LogOpts, syslogOpts)
	reader := contract.ReaderArgs{FIFO: fifoPath, Account: true, LineBytes: p.lineBytes()}
	if consumer == "slow" {
		reader.RateBytes = p.ConsumerRate
	}
	loadgenC.Cmd = lg.Args()
	spec.Containers = slices.Concat([]experiment.ContainerSpec{
		{Role: "receiver", Image: images[receiver], HostNetwork: true,
			NanoCPUs: experiment.NanoCPUs(l.ConsumerCPUs), MemoryBytes: l.ConsumerMemoryBytes,
			Env: []string{"LOGBENCH_SYSLOG_PORT=" + strconv.Itoa(pt), "LOGBENCH_QUEUE_MESSAGES=" + strconv.Itoa(p.QueueMessages), "LOGBENCH_FIFO=" + fifoPath}},
		apiC,
		{Role: "reader", Image: images["reader"], Cmd: reader.Args(),
			NanoCPUs: experiment.NanoCPUs(l.ConsumerCPUs), MemoryBytes: l.ConsumerMemoryBytes},
	}, helpers, []experiment.ContainerSpec{loadgenC})
	spec.MeasureUsage = []string{"receiver"}
	return spec
}

// syslogOpts have the engine's syslog driver send each line's text alone, so that the
// receiver writes back exactly the line the API printed.
var syslogOpts = map[string]string{"syslog-format": "rfc5424", "tag": "logbench"}

// Row is one run (runs.csv).
type Row struct {
	RunID    string `csv:"run_id" doc:"The run."`
	API      string `csv:"api" doc:"The API: go, python or node, each printing a numbered line a request to its console."`
	Driver   string `csv:"driver" doc:"The engine's log driver: json-file, local, syslog-tcp or syslog-udp."`
	Mode     string `csv:"mode" doc:"The driver's mode: blocking or non-blocking."`
	Buffer   string `csv:"buffer" doc:"The non-blocking driver's max-buffer-size; - for a blocking one."`
	Consumer string `csv:"consumer" doc:"fast or slow (the reader of the receiver's output at the consumer rate); engine where the engine writes the file itself."`
	Receiver string `csv:"receiver" doc:"The syslog receiver; - where there is none."`
	RateRPS  string `csv:"rate_rps" unit:"1/s" doc:"The offered load."`
	tabular.RunPlace

	Requests       int     `csv:"requests" unit:"1" doc:"Requests the load sent in the measured interval."`
	RequestsFailed int     `csv:"requests_failed" unit:"1" doc:"Requests that failed or timed out."`
	LatencyP50Ms   float64 `csv:"latency_p50_ms" unit:"ms" doc:"Median latency, from each request's scheduled send to the end of its response."`
	LatencyP99Ms   float64 `csv:"latency_p99_ms" unit:"ms" atleast:"latency_p50_ms" doc:"99th percentile latency, the same way."`
	LatencyMaxMs   float64 `csv:"latency_max_ms" unit:"ms" atleast:"latency_p99_ms" doc:"The longest latency."`
	SendLagP99Ms   float64 `csv:"send_lag_p99_ms" unit:"ms" doc:"How late the load sent its requests against their schedule, 99th percentile: the generator's own limit."`

	LinesWritten    int64  `csv:"lines_written" unit:"1" doc:"Lines the API wrote to its console, warm-up included (its own count)."`
	LinesReceived   int64  `csv:"lines_received" unit:"1" doc:"Distinct intact lines read back from the consumer's end."`
	LinesLost       int64  `csv:"lines_lost" unit:"1" doc:"Lines written and never read back: lines_written - lines_received."`
	LinesDuplicated int64  `csv:"lines_duplicated" unit:"1" doc:"Lines read back more than once."`
	LinesReordered  int64  `csv:"lines_reordered" unit:"1" doc:"Lines read back after a line written later."`
	LinesCorrupted  int64  `csv:"lines_corrupted" unit:"1" doc:"Lines read back changed (their sum, length or number wrong): a run with one is not data."`
	LostRanges      string `csv:"lost_ranges" doc:"The numbers of the lines lost, as ranges first-last (at most 100 ranges, then the count of the rest)."`

	DrainS         bundle.Opt `csv:"drain_s" unit:"s" doc:"From the last response to the consumer's last line read; absent where the engine writes the file."`
	APICPUCores    float64    `csv:"api_cpu_cores" unit:"1" doc:"The API's CPU over the measured interval, in cores (its cgroup)."`
	ReaderCPUCores bundle.Opt `csv:"reader_cpu_cores" unit:"1" doc:"The reader's CPU from the reset to the end, in cores (its cgroup); syslog runs only."`
	ReceiverCPUS   bundle.Opt `csv:"receiver_cpu_s" unit:"s" doc:"The syslog receiver's CPU time over its life, as the engine read its cgroup."`
	ReceiverMemory bundle.Opt `csv:"receiver_memory_peak_bytes" unit:"By" doc:"The syslog receiver's peak memory, as the engine read its cgroup."`

	EngineCPUS      bundle.Opt `csv:"engine_cpu_s" unit:"s" doc:"CPU time (user + system) of the engine's processes (parameters.engine_kind docker: dockerd, containerd and the shims; podman: conmon and the service) between the engine helper's samples at the reset and at the drain's end, over the processes present in both: the log driver's work and whatever else the engine did meanwhile; absent when not measured (engine_failure)."`
	EngineIntervalS bundle.Opt `csv:"engine_interval_s" unit:"s" doc:"The time between those two samples; absent when not measured."`
	EngineCPUCores  bundle.Opt `csv:"engine_cpu_cores" unit:"1" doc:"engine_cpu_s over engine_interval_s, in cores; absent when not measured."`
	EngineRSSPeak   bundle.Opt `csv:"engine_rss_peak_bytes" unit:"By" doc:"The engine daemon's largest resident memory (dockerd, where a driver's buffers are; Podman's service) over engine_samples samples from the reset to the drain's end, about one a second; absent when not measured."`
	EngineSamples   int        `csv:"engine_samples" unit:"1" doc:"The engine helper's samples that engine_rss_peak_bytes is the largest of; 0 when not measured."`
	EngineFailure   string     `csv:"engine_failure" doc:"Why the engine was not measured in this run (a sample failed, or the kit cannot identify the engine's processes); the run is data all the same."`

	PredictedStallS   bundle.Opt `csv:"predicted_stall_s" unit:"s" doc:"The model's time from the start of the load to full buffers (model.go); absent when they never fill."`
	PredictedP99AddMs float64    `csv:"predicted_p99_added_ms" unit:"ms" doc:"The model's latency added to the 99th percentile by a blocking path."`
	PredictedLost     float64    `csv:"predicted_lines_lost" unit:"1" doc:"The model's lines lost by a path that does not block."`
	PredictedDrainS   float64    `csv:"predicted_drain_s" unit:"s" doc:"The model's drain: what the buffers hold when the load ends, at the consumer's rate."`

	Observed string `csv:"observed_failure" doc:"What the engine and the conductor saw go wrong."`
	Verified bool   `csv:"verified" doc:"The run is data: it went as planned and no line came back changed."`
	Failure  string `csv:"failure" doc:"Why the run is not data."`
}

// observe reads what a run's pod left into its row.
func observe(p *Params, run experiment.Run) Row {
	c := run.Condition.(tabular.Cell)
	r := Row{RunID: run.ID, API: c[0], Driver: c[1], Mode: c[2], Buffer: c[3], Consumer: c[4], Receiver: c[5], RateRPS: c[6], RunPlace: tabular.RunPlaceOf(run),
		Observed: run.Failure, DrainS: bundle.None, ReaderCPUCores: bundle.None, ReceiverCPUS: bundle.None, ReceiverMemory: bundle.None,
		EngineCPUS: bundle.None, EngineIntervalS: bundle.None, EngineRSSPeak: bundle.None}
	var res contract.Result
	if err := json.Unmarshal(run.Pod.Result, &res); err != nil {
		r.Observed = experiment.JoinFailures(r.Observed, "unreadable result: "+err.Error())
		return r
	}
	l := p.Limits
	r.Observed = experiment.JoinFailures(r.Observed, res.Failure, experiment.ResultNotApplied(res, l.PidsLimit, l.APICPUs, l.APIMemoryBytes))
	observeEngine(p, res, &r)
	var lat, lag []float64
	for _, o := range res.Requests {
		r.Requests++
		if !o.OK() {
			r.RequestsFailed++
			continue
		}
		lat = append(lat, float64(o.Latency())/1e6)
		lag = append(lag, float64(o.SendLag())/1e6)
	}
	if len(lat) > 0 {
		r.LatencyP50Ms, r.LatencyP99Ms, r.LatencyMaxMs = stats.NearestRank(lat, 50), stats.NearestRank(lat, 99), stats.Max(lat)
		r.SendLagP99Ms = stats.NearestRank(lag, 99)
	}
	r.LinesWritten = res.API.Counters.Written.Lines
	r.APICPUCores = contract.MeanCores(res.APIAtReset, res.APIAtLastResponse)
	var acc *contract.LineAccount
	if isSyslog(r.Driver) {
		acc = res.Reader.Account
		r.ReaderCPUCores = bundle.OptIf(res.Reader.Cgroup.UnixNano > 0, contract.MeanCores(res.ReaderAtReset, res.Reader.Cgroup))
		if res.LastRead > 0 && res.LastResponse > 0 {
			r.DrainS = bundle.Opt(math.Max(0, float64(res.LastRead-res.LastResponse)/1e9))
		}
		if u, ok := run.Pod.Usage["receiver"]; ok {
			r.ReceiverCPUS, r.ReceiverMemory = bundle.Opt(float64(u.CPUNanos)/1e9), bundle.Opt(float64(u.MemoryPeakBytes))
		}
	} else if logs, ok := run.Pod.Logs["api"]; ok {
		// The stream as the reader would have read it: a last unended line is corrupted.
		a := contract.NewAccountantOf(p.lineBytes())
		a.Write(logs)
		a.Finish()
		account := a.Account()
		acc = &account
	}
	if acc == nil {
		r.Observed = experiment.JoinFailures(r.Observed, "no line was read back")
		return r
	}
	r.LinesReceived, r.LinesDuplicated, r.LinesReordered, r.LinesCorrupted = acc.Received, acc.Duplicated, acc.Reordered, acc.Corrupted
	r.LostRanges = lostRanges(*acc, r.LinesWritten)
	return r
}

// observeEngine reads the engine's samples into the row, or why there are none.
func observeEngine(p *Params, res contract.Result, r *Row) {
	switch e := res.Engine; {
	case p.EngineKind == "":
		r.EngineFailure = "not measured: the kit cannot identify the processes of this engine"
	case e == nil:
		r.EngineFailure = "not measured: the run ended before the conductor sampled the engine"
	case e.Failure != "":
		r.EngineFailure = e.Failure
	default:
		r.EngineCPUS, r.EngineIntervalS = bundle.Opt(e.CPUS), bundle.Opt(e.IntervalS)
		r.EngineRSSPeak, r.EngineSamples = bundle.Opt(float64(res.EngineRSSPeakBytes)), res.EngineSamples
	}
}

// lostRanges are the missing ranges the account kept, and the tail no line reached.
func lostRanges(a contract.LineAccount, written int64) string {
	var parts []string
	for _, g := range a.Missing {
		parts = append(parts, rangeText(g.First, g.Last))
	}
	if a.MissingRanges > int64(len(a.Missing)) {
		parts = append(parts, fmt.Sprintf("and %d more ranges", a.MissingRanges-int64(len(a.Missing))))
	}
	next := a.MaxSeq + 1
	if a.Received == 0 {
		next = 0
	}
	if written > next {
		parts = append(parts, rangeText(next, written-1))
	}
	return strings.Join(parts, " ")
}

func rangeText(first, last int64) string {
	if first == last {
		return strconv.FormatInt(first, 10)
	}
	return fmt.Sprintf("%d-%d", first, last)
}

// judge derives the rest of a row from its observed columns: lines lost, the model's
// prediction, and whether the run is data.
func judge(p *Params, r *Row, _ tabular.Rows) {
	r.LinesLost = r.LinesWritten - r.LinesReceived
	m := modelOf(p, r)
	r.PredictedStallS = bundle.None
	if s := m.StallS(); !math.IsInf(s, 1) {
		r.PredictedStallS = bundle.Opt(s)
	}
	r.PredictedP99AddMs, r.PredictedLost, r.PredictedDrainS = m.AddedP99Ms(), m.LostLines(), m.DrainS()
	r.EngineCPUCores = bundle.Ratio(r.EngineCPUS, r.EngineIntervalS)
	r.Failure = r.Observed
	rate, _ := strconv.ParseFloat(r.RateRPS, 64)
	if want := int(rate*p.DurationS + 0.5); r.Failure == "" && r.Requests != want {
		r.Failure = fmt.Sprintf("%d requests measured, %d planned", r.Requests, want)
	}
	if r.LinesCorrupted > 0 {
		r.Failure = experiment.JoinFailures(r.Failure, fmt.Sprintf("%d lines came back changed", r.LinesCorrupted))
	}
	if r.LinesLost < 0 {
		r.Failure = experiment.JoinFailures(r.Failure, fmt.Sprintf("%d lines read back of %d written", r.LinesReceived, r.LinesWritten))
	}
	r.Verified = r.Failure == ""
}

// placeAdded are the columns of a run's place (tabular.RunPlace) but its round, which a
// bundle of an earlier kit lacks: it then records no time, and verify holds none.
var placeAdded = map[string]string{"position": timed, "started_utc": timed, "wall_s": timed}

const timed = "it recorded when each run started and how long it took"

// runsFile is the table of runs.
const runsFile = "runs.csv"

// RuleLines names the rule that the API writes one line a request: a line for every
// request it answered, none for a request never sent.
const RuleLines = "lines-per-request"

// rules holds every run to what can happen at all beyond the kit's rules: the API
// prints one line a request and no other, so a run wrote a line for each request
// answered, and none beyond the requests sent (a failed one may never have reached it);
// the API's and the reader's CPU within their limits, over at least the load's duration
// (each is measured from the reset, as the load begins, to its end or later), and the
// engine's within the host's CPUs.
func rules(c *tabular.Check[*Params, Row]) {
	p := c.Params()
	limit := verify.HostCPUs(c.M.Head().Engine.CPUs, math.NaN()).Of
	host, hostName := limit(0, "")
	api, apiName := limit(p.Limits.APICPUs, "api_cpus")
	reader, readerName := limit(p.Limits.ConsumerCPUs, "consumer_cpus")
	for i, r := range c.Runs {
		place := c.Res.BreachesAt(runsFile, c.Lines[runsFile][i], "run "+r.RunID)
		place("api_cpu_cores", verify.CPUWithin(r.APICPUCores*p.DurationS, p.DurationS, api, apiName+" (over duration_s at the least)"))
		place("reader_cpu_cores", verify.CPUWithin(float64(r.ReaderCPUCores)*p.DurationS, p.DurationS, reader, readerName+" (over duration_s at the least)"))
		place("engine_cpu_s", verify.CPUWithin(float64(r.EngineCPUS), float64(r.EngineIntervalS), host, hostName+" (over engine_interval_s)"))
		if !c.Absent[runsFile]["wall_s"] {
			place("wall_s", verify.WallCovers(r.WallS, verify.Part{Name: "duration_s", Value: p.DurationS}, verify.Part{Name: "drain_s", Value: r.DrainS.Or(0)}))
		}
		if answered := int64(r.Requests - r.RequestsFailed); r.LinesWritten < answered || r.LinesWritten > int64(r.Requests) {
			want := fmt.Sprintf("%d to %d", answered, r.Requests)
			if answered == int64(r.Requests) {
				want = strconv.Itoa(r.Requests)
			}
			c.Problem(verify.Problem{File: runsFile, Line: c.Lines[runsFile][i], Key: "run " + r.RunID, Column: "lines_written",
				Have: strconv.FormatInt(r.LinesWritten, 10), Want: want,
				Msg: verify.Rule(RuleLines, "the API prints one line a request it answers, and none for a request it never had")})
		}
	}
}

// modelOf is the model of a row's condition.
func modelOf(p *Params, r *Row) Model {
	rate, _ := strconv.ParseFloat(r.RateRPS, 64)
	var ring int64
	if r.Buffer != noBuffer {
		ring, _ = units.RAMInBytes(r.Buffer)
	}
	consumer := math.Inf(1)
	if r.Consumer == "slow" {
		consumer = float64(p.ConsumerRate)
	}
	line := float64(p.lineBytes())
	return Model{RateRPS: rate, LineBytes: line, ConsumerBps: consumer, DurationS: p.DurationS,
		Blocking:    r.Mode == "blocking" && r.Driver != SyslogUDP,
		BufferBytes: Buffer(r.Driver, p.QueueMessages, ring, line)}
}

package schema

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/logbench/logbench/kit/offline/verify"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// runs recomputes each run's figures from its rows in the other files, with the one
// definition that wrote them (RunFigures), and names every column that differs.
func (v *verifier) runs() {
	bound := v.manifestBody.Parameters.MaxSendLagP99Ms
	if bound == 0 {
		bound = DefaultMaxSendLagP99Ms
		v.res.Notes = append(v.res.Notes, verify.Problem{File: bundle.ManifestFile, Column: "parameters.max_send_lag_p99_ms",
			Msg: fmt.Sprintf("0: a bundle written before the kit recorded its bound; send_lag_trusted is checked against %g ms", bound)})
	}
	for i, r := range v.runRows {
		if r.RunID == "" || v.byRun[r.RunID] != i {
			continue // a duplicate: already a problem, and its rows went to the first
		}
		line, key := v.runLines[i], "run "+r.RunID
		at := func(column, have, want, msg string) {
			v.problem(verify.Problem{File: RunsFile, Line: line, Key: key, Column: column, Have: have, Want: want, Msg: msg})
		}
		var reqs []RequestRow
		for _, j := range v.reqOf[i] {
			reqs = append(reqs, v.requests[j])
		}
		var cts []ContainerRow
		for _, j := range v.ctOf[i] {
			cts = append(cts, v.containers[j])
		}
		var tl []TimelineRow
		for _, j := range v.tlOf[i] {
			tl = append(tl, v.timeline[j])
			if s := v.timeline[j].Series; s != SeriesGenerated && s != SeriesRead {
				v.problem(verify.Problem{File: TimelineFile, Line: v.tlLines[j], Column: "series", Msg: fmt.Sprintf("%s is neither generated nor read", strconv.Quote(short(s)))})
			}
		}
		want := RunFigures(r, reqs, cts, tl, bound)
		if v.recomputed == nil {
			v.recomputed = map[int]RunRow{}
		}
		v.recomputed[i] = want
		fromReqs := fmt.Sprintf("recomputed from %s %s", RequestsFile, lineSpan(v.reqOf[i], v.reqLines))
		fromTimeline := fmt.Sprintf("recomputed from %s %s", TimelineFile, lineSpan(v.tlOf[i], v.tlLines))
		fromAPI := "the api row of " + ContainersFile
		for _, f := range []struct {
			column     string
			have, want float64
			from       string
			rel        float64
			rests      bool // the file it is recomputed from parsed
		}{
			{"requests", float64(r.Requests), float64(want.Requests), "rows of this run in " + RequestsFile, 0, true},
			{"errors", float64(r.Errors), float64(want.Errors), "requests without status 200 or with an error, in " + RequestsFile, 0, true},
			{"p50_ms", float64(r.P50Ms), float64(want.P50Ms), fromReqs, 1e-9, true},
			{"p99_ms", float64(r.P99Ms), float64(want.P99Ms), fromReqs, 1e-9, true},
			{"mean_ms", float64(r.MeanMs), float64(want.MeanMs), fromReqs, 1e-9, true},
			{"max_ms", float64(r.MaxMs), float64(want.MaxMs), fromReqs, 1e-9, true},
			{"send_lag_p99_ms", float64(r.SendLagP99Ms), float64(want.SendLagP99Ms), fromReqs, 1e-9, true},
			{"span_generate_mean_us", float64(r.SpanGenerateMeanUs), float64(want.SpanGenerateMeanUs), fromReqs, 1e-9, true},
			{"span_log_call_mean_us", float64(r.SpanLogCallMeanUs), float64(want.SpanLogCallMeanUs), fromReqs, 1e-9, true},
			{"backlog_max_bytes", float64(r.BacklogMaxBytes), float64(want.BacklogMaxBytes), fromTimeline, 0, v.ok[TimelineFile]},
			{"reader_rate_bytes_per_s", r.ReaderRateBytesPerS, want.ReaderRateBytesPerS, fromTimeline + ", first to last read", 1e-6, v.ok[TimelineFile]},
			{"api_cpu_cores", r.APICPUCores, want.APICPUCores, fromAPI, 1e-9, v.ok[ContainersFile]},
			{"api_cpu_throttled_periods", float64(r.APICPUThrottledPeriods), float64(want.APICPUThrottledPeriods), fromAPI, 0, v.ok[ContainersFile]},
		} {
			if f.rests && !near(f.have, f.want, f.rel) && !(math.IsNaN(f.have) && math.IsNaN(f.want)) {
				at(f.column, number(f.have), number(f.want), f.from)
			}
		}
		if r.SendLagTrusted != want.SendLagTrusted {
			at("send_lag_trusted", strconv.FormatBool(r.SendLagTrusted), strconv.FormatBool(want.SendLagTrusted),
				fmt.Sprintf("send_lag_p99_ms %s against the manifest's bound of %g ms", number(float64(want.SendLagP99Ms)), bound))
		}
		if r.HostNoisy != want.HostNoisy {
			at("host_noisy", strconv.FormatBool(r.HostNoisy), strconv.FormatBool(want.HostNoisy),
				fmt.Sprintf("host_steal_pct %s over %g or host_cpu_pressure_pct %s over %g", number(float64(r.HostStealPct)), NoisyStealPct,
					number(float64(r.HostCPUPressurePct)), NoisyCPUPressurePct))
		}
		if r.Superseded && (!r.Verified || r.SendLagTrusted) {
			at("superseded", "true", "false", "only a verified run whose send lag was over the bound is redone")
		}
		v.proof(i, at)
	}
	v.attempts()
}

// attempts: each condition's round has one run that counts, its latest attempt, and
// the attempts before it are superseded, within the manifest's retries. A bundle
// written before the kit redid runs has attempt 0 everywhere and nothing superseded.
func (v *verifier) attempts() {
	type key struct {
		api, mode, reader string
		round             int
	}
	retries := v.manifestBody.Parameters.Retries
	byRound := map[key][]int{}
	var order []key
	for i, r := range v.runRows {
		if r.RunID == "" || v.byRun[r.RunID] != i {
			continue
		}
		k := key{r.API, r.Mode, r.Reader, r.Round}
		if _, ok := byRound[k]; !ok {
			order = append(order, k)
		}
		byRound[k] = append(byRound[k], i)
	}
	for _, k := range order {
		idx := byRound[k]
		name := fmt.Sprintf("%s/%s/%s round %d", k.api, k.mode, k.reader, k.round)
		var counting []int
		seen := map[int]int{}
		for _, i := range idx {
			r := v.runRows[i]
			if r.Attempt < 0 || (r.Attempt == 0 && (r.Superseded || len(idx) > 1)) {
				v.problem(verify.Problem{File: RunsFile, Line: v.runLines[i], Key: "run " + r.RunID, Column: "attempt", Have: strconv.Itoa(r.Attempt),
					Want: "1 or more", Msg: "a run of a round performed more than once numbers its attempts"})
			}
			if j, dup := seen[r.Attempt]; dup && r.Attempt > 0 {
				v.problem(verify.Problem{File: RunsFile, Line: v.runLines[i], Key: "run " + r.RunID, Column: "attempt",
					Msg: fmt.Sprintf("attempt %d of %s again (first on line %d)", r.Attempt, name, v.runLines[j])})
			}
			seen[r.Attempt] = i
			if r.Superseded && r.Attempt > retries {
				v.problem(verify.Problem{File: RunsFile, Line: v.runLines[i], Key: "run " + r.RunID, Column: "superseded", Have: "true", Want: "false",
					Msg: fmt.Sprintf("attempt %d was redone, past the manifest's retries (%d)", r.Attempt, retries)})
			}
			if !r.Superseded {
				counting = append(counting, i)
			}
		}
		v.attemptsContiguous(name, idx)
		if len(counting) > 1 {
			v.problem(verify.Problem{File: RunsFile, Line: v.runLines[counting[1]], Key: "run " + v.runRows[counting[1]].RunID, Column: "superseded",
				Msg: fmt.Sprintf("%d runs of %s count; all but the last attempt must be superseded", len(counting), name)})
			continue
		}
		if len(counting) == 1 {
			kept := v.runRows[counting[0]]
			for _, i := range idx {
				if r := v.runRows[i]; r.Superseded && r.Attempt >= kept.Attempt {
					v.problem(verify.Problem{File: RunsFile, Line: v.runLines[i], Key: "run " + r.RunID, Column: "attempt", Have: strconv.Itoa(r.Attempt),
						Want: "below " + strconv.Itoa(kept.Attempt), Msg: "a superseded attempt came before the run that counts (run " + kept.RunID + ")"})
				}
			}
		}
	}
}

// proof: a verified run read every byte written, lines and digest alike; a failed one
// says why.
func (v *verifier) proof(i int, at func(column, have, want, msg string)) {
	r := v.runRows[i]
	if !r.Verified {
		if strings.TrimSpace(r.Failure) == "" {
			at("failure", `""`, "the reason", "a run marked not verified must say why")
		}
		return
	}
	const why = "a verified run"
	if r.Failure != "" {
		at("verified", "true", "false", "the run has a failure: "+short(r.Failure))
	}
	if r.BytesRead != r.BytesWritten {
		at("bytes_read", i64(r.BytesRead), i64(r.BytesWritten), why+" read every byte written (bytes_written)")
	}
	if r.BytesWritten != r.BytesGenerated {
		at("bytes_written", i64(r.BytesWritten), i64(r.BytesGenerated), why+" wrote every byte generated (bytes_generated)")
	}
	if r.LinesRead != r.LinesWritten {
		at("lines_read", i64(r.LinesRead), i64(r.LinesWritten), why+" read every line written (lines_written)")
	}
	if !isDigest(r.SHA256Writer) {
		at("sha256_writer", strconv.Quote(short(r.SHA256Writer)), "64 hex digits", why+" has the writer's SHA-256")
	}
	if r.SHA256Reader != r.SHA256Writer {
		at("sha256_reader", short(r.SHA256Reader), short(r.SHA256Writer), why+" read what was written (sha256_writer)")
	}
	if r.QueueDrops != 0 {
		at("queue_drops", i64(r.QueueDrops), "0", why+" dropped no record")
	}
}

// runsOfParameters: every run is of a condition of the manifest's parameters.
func (v *verifier) runsOfParameters() {
	p := v.manifestBody.Parameters
	for i, r := range v.runRows {
		for _, f := range []struct {
			column, value, param string
			known                []string
		}{
			{"api", r.API, "apis", p.APIs},
			{"mode", r.Mode, "modes", p.Modes},
			{"reader", r.Reader, "readers", p.Readers},
		} {
			if !slices.Contains(f.known, f.value) {
				v.problem(verify.Problem{File: RunsFile, Line: v.runLines[i], Key: "run " + r.RunID, Column: f.column,
					Msg: fmt.Sprintf("%s is not in %s parameters.%s %v", strconv.Quote(short(f.value)), bundle.ManifestFile, f.param, f.known)})
			}
		}
	}
}

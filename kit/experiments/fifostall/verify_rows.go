package fifostall

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/verify"
)

// The rules of what can happen at all: a row that breaks one cannot have been observed,
// however consistent the files are with each other (../README.md, "What verify checks").
const (
	RuleAttempts = tabular.RuleAttempts  // a round's attempts are 1..k, or 0 alone
	RuleLines    = "lines-per-request"   // each mode writes a known number of lines and bytes per request
	RuleLimits   = verify.RuleLimits     // the manifest's limits are those the containers read
	RuleTimes    = "times-recomputed"    // to_last_response_s, to_logs_read_s, drain_s, overhead_s
	RuleRecords  = "records-in-requests" // the k-th record generated between the k-th send and the k-th response
)

// MaxSendLagBoundMs is the largest send-lag bound the kit accepts (--max-send-lag): at
// the published 20 req/s a lag of 10 ms is a fifth of the interval between sends, and
// latencies resolved to that are no measure of a logger that costs a millisecond.
const MaxSendLagBoundMs = 10.0

// timeTolerance is how far, in seconds, a time written in runs.csv may be from its
// recomputation from the rows: the rows hold times to the nanosecond, the recomputation
// adds float64 rounding.
const timeTolerance = 1e-6

// broke says that run i's row of runs.csv breaks rule.
func (v *verifier) broke(i int, column, have, want, rule, msg string) {
	v.at(i, column, have, want, verify.Rule(rule, msg))
}

// rows checks every rule that does not rest on a recomputation of figures.
func (v *verifier) rows() {
	v.containerRules()
	v.lagBound()
	for _, i := range v.first {
		v.linesRule(i)
		v.timesRule(i)
		v.recordsRule(i)
	}
}

// linesRule: a verified run's mode wrote its known lines and bytes for each request;
// with errors, a request may not have reached the API, so no more than that.
func (v *verifier) linesRule(i int) {
	r := v.Runs[i]
	mode, err := contract.ParsePublishedLogMode(r.Mode)
	if err != nil || !r.Verified {
		return
	}
	n := int64(r.Requests)
	for _, f := range []struct {
		column string
		have   int64
		per    int
	}{
		{"lines_written", r.LinesWritten, mode.LinesPerRequest()},
		{"bytes_generated", r.BytesGenerated, mode.BytesPerRequest()},
	} {
		want := n * int64(f.per)
		switch {
		case r.Errors == 0 && f.have != want:
			v.broke(i, f.column, i64(f.have), i64(want), RuleLines, fmt.Sprintf("%s writes %d per request, and the run has %d requests without an error", mode, f.per, n))
		case r.Errors > 0 && f.have > want:
			v.broke(i, f.column, i64(f.have), "at most "+i64(want), RuleLines, fmt.Sprintf("%s writes %d per request, and the run has %d requests", mode, f.per, n))
		}
	}
}

// timesRule: a verified run's times follow from its rows as Derive computed them: the
// last response is the latest end of a request, the log was read at the timeline's last
// read, and the load lasted at least its configured duration. A failed run may not have
// read its log to the end, so its times are taken as written.
func (v *verifier) timesRule(i int) {
	r := v.Runs[i]
	absent := v.Absent[RunsFile]
	written := !absent["wall_s"] && !absent["inherent_s"] && !absent["overhead_s"]
	if written && r.InherentS > 0 && !verify.Near(r.OverheadS, r.WallS-r.InherentS, 1e-9) && math.Abs(r.OverheadS-(r.WallS-r.InherentS)) > timeTolerance {
		v.broke(i, "overhead_s", verify.Number(r.OverheadS), verify.Number(r.WallS-r.InherentS), RuleTimes, "wall_s - inherent_s")
	}
	if !r.Verified || len(v.reqOf[i]) == 0 {
		return
	}
	last, read, _ := v.ends(i)
	if math.IsInf(last, -1) {
		return
	}
	from := fmt.Sprintf("recomputed from %s %s and %s %s", RequestsFile, lineSpan(v.reqOf[i], v.Lines[RequestsFile]), TimelineFile, lineSpan(v.tlOf[i], v.Lines[TimelineFile]))
	check := func(column string, have, want float64, how string) {
		if absent[column] {
			return
		}
		if math.Abs(have-want) > timeTolerance || math.IsNaN(have) {
			v.broke(i, column, verify.Number(have), verify.Number(want), RuleTimes, how+", "+from)
		}
	}
	check("to_last_response_s", r.ToLastResponseS, max(r.LoadDurationS, last), "the later of load_duration_s and the last response")
	if math.IsInf(read, -1) {
		return // nothing was logged: no read completed the log
	}
	check("to_logs_read_s", r.ToLogsReadS, max(r.LoadDurationS, read, last), "the latest of load_duration_s, the last response and the last read")
	check("drain_s", r.DrainS, max(0, read-last), "the last read after the last response")
}

// ends are run i's last response and last read, from the first scheduled send, as its
// rows place them (requests.csv, timeline.csv), and its last sample of either series;
// -Inf where it has none.
func (v *verifier) ends(i int) (response, read, sample float64) {
	response, read, sample = math.Inf(-1), math.Inf(-1), math.Inf(-1)
	for _, j := range v.reqOf[i] {
		if q := v.requests[j]; q.LatencyMs > 0 {
			response = max(response, q.ScheduledOffsetS+q.LatencyMs/1e3)
		}
	}
	for _, j := range v.tlOf[i] {
		t := v.timeline[j]
		if sample = max(sample, t.OffsetS); t.Series == SeriesRead {
			read = max(read, t.OffsetS)
		}
	}
	return response, read, sample
}

// containerRules: each container ran under the limits the manifest says were asked for.
func (v *verifier) containerRules() {
	l := v.manifestBody.Parameters.Limits
	shared := v.manifestBody.Parameters.ClientTopology == "shared"
	// A limit off, at its first row: what it has and what the manifest asked for.
	type off1 struct {
		row        int
		have, want string
	}
	var mismatch verify.Recurring[limitKey, off1]
	for j, c := range v.containers {
		// Counters never negative: verify.NonNegative (verify_physics.go).
		if c.CgroupVersion == 0 {
			continue // the container's limits were never read (a run that failed early)
		}
		var cpus float64
		var mem int64
		param := c.Role
		switch {
		case c.Role == "api":
			cpus, mem = l.APICPUs, l.APIMemoryBytes
		case c.Role == "reader" && !shared:
			cpus, mem = l.ReaderCPUs, l.ReaderMemoryBytes
		case c.Role == "reader" || c.Role == "loadgen":
			// Shared, the reader runs in the load generator's container, under its limits.
			cpus, mem, param = l.LoadgenCPUs, l.LoadgenMemoryBytes, "loadgen"
		default:
			continue
		}
		if !verify.CPULimitApplied(c.CPULimitCores, cpus) {
			mismatch.See(limitKey{param + "_cpus", "cpu_limit_cores"}, off1{j, verify.Number(c.CPULimitCores), verify.Number(cpus)})
		}
		if !verify.MemoryLimitApplied(c.MemoryLimitBytes, mem) {
			mismatch.See(limitKey{param + "_memory_bytes", "memory_limit_bytes"}, off1{j, i64(c.MemoryLimitBytes), i64(mem)})
		}
	}
	// One problem per limit, at its first row: a forged limit is off in every run.
	mismatch.Each(func(k limitKey, m off1, rows int) {
		more := ""
		if rows > 1 {
			more = fmt.Sprintf("; %d rows in all", rows)
		}
		c := v.containers[m.row]
		v.Problem(verify.Problem{File: ContainersFile, Line: v.Lines[ContainersFile][m.row], Key: "run " + verify.Short(c.RunID) + " " + verify.Short(c.Role), Column: k.column, Have: m.have, Want: m.want,
			Msg: verify.Rule(RuleLimits, fmt.Sprintf("%s parameters.limits.%s, as the kernel applies it (0: no limit)%s", bundle.ManifestFile, k.param, more))})
	})
}

type limitKey struct{ param, column string }

// lagBound: the send-lag bound decides which runs are trusted; the kit has held it to
// the range --max-send-lag accepts (Params.Check, on the manifest), and a bound other
// than the kit's default is said.
func (v *verifier) lagBound() {
	if b := v.manifestBody.Parameters.MaxSendLagP99Ms; b != 0 && b != DefaultMaxSendLagP99Ms {
		v.Res.Weakened = append(v.Res.Weakened, fmt.Sprintf("send-lag bound %g ms, not the kit's default %g ms: runs are called trusted against it", b, DefaultMaxSendLagP99Ms))
	}
}

// recordTolerance, in seconds: the API and the load generator read one host clock in
// their own processes; in the archived bundles every record came at least 71 us inside
// its bounds.
const recordTolerance = 200e-6

// recordsRule: the API generates a request's records while it handles it, after the
// load generator sent it and before the response ends. So, by time order, the k-th
// record (of m per request) comes after the k-th send and the k*m-th before the k-th
// response; a verified run without errors has m records per request in timeline.csv.
func (v *verifier) recordsRule(i int) {
	r := v.Runs[i]
	mode, err := contract.ParsePublishedLogMode(r.Mode)
	m := mode.LinesPerRequest()
	if err != nil || !r.Verified || r.Errors != 0 || m == 0 || len(v.reqOf[i]) == 0 {
		return
	}
	type at struct {
		t    float64
		line int
	}
	var gen, sent, done []at
	for _, j := range v.tlOf[i] {
		if t := v.timeline[j]; t.Series == SeriesGenerated {
			gen = append(gen, at{t.OffsetS, v.Lines[TimelineFile][j]})
		}
	}
	for _, j := range v.reqOf[i] {
		q := v.requests[j]
		sent = append(sent, at{q.ScheduledOffsetS + q.SentMs/1e3, v.Lines[RequestsFile][j]})
		done = append(done, at{q.ScheduledOffsetS + q.LatencyMs/1e3, v.Lines[RequestsFile][j]})
	}
	key := "run " + r.RunID
	if len(gen) != m*len(done) {
		v.Problem(verify.Problem{File: TimelineFile, Key: key, Column: "series", Have: strconv.Itoa(len(gen)), Want: strconv.Itoa(m * len(done)),
			Msg: verify.Rule(RuleRecords, fmt.Sprintf("generated samples of %s %s: %s generates %d records per request, one sample each", TimelineFile, lineSpan(v.tlOf[i], v.Lines[TimelineFile]), mode, m))})
		return
	}
	byTime := func(a, b at) int {
		switch {
		case a.t < b.t:
			return -1
		case a.t > b.t:
			return 1
		}
		return 0
	}
	slices.SortStableFunc(gen, byTime)
	slices.SortStableFunc(sent, byTime)
	slices.SortStableFunc(done, byTime)
	for k := range done {
		if g := gen[(k+1)*m-1]; g.t > done[k].t+recordTolerance {
			v.Problem(verify.Problem{File: RequestsFile, Line: done[k].line, Key: key, Column: "latency_ms", Have: fmt.Sprintf("a response at %.6f s", done[k].t),
				Want: fmt.Sprintf("at least %.6f s", g.t-recordTolerance),
				Msg:  verify.Rule(RuleRecords, fmt.Sprintf("%d responses had ended, but only %d of their %d records were generated (%s line %d)", k+1, (k+1)*m-1, (k+1)*m, TimelineFile, g.line))})
			return
		}
		if g := gen[k*m]; g.t < sent[k].t-recordTolerance {
			v.Problem(verify.Problem{File: RequestsFile, Line: sent[k].line, Key: key, Column: "sent_ms", Have: fmt.Sprintf("a send at %.6f s", sent[k].t),
				Want: fmt.Sprintf("at most %.6f s", g.t+recordTolerance),
				Msg:  verify.Rule(RuleRecords, fmt.Sprintf("record %d was generated (%s line %d) before request %d was sent", k*m+1, TimelineFile, g.line, k+1))})
			return
		}
	}
}

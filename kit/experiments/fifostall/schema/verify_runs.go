package schema

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/logbench/logbench/kit/offline/verify"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// runs holds each run to its proof, and its timeline to its two series.
func (v *verifier) runs() {
	if p := v.manifestBody.Parameters; p.MaxSendLagP99Ms == 0 {
		v.res.Notes = append(v.res.Notes, verify.Problem{File: bundle.ManifestFile, Column: "parameters.max_send_lag_p99_ms",
			Msg: fmt.Sprintf("0: a bundle written before the kit recorded its bound; send_lag_trusted is checked against %g ms", p.SendLagBound())})
	}
	for i, r := range v.runRows {
		if r.RunID == "" || v.byRun[r.RunID] != i {
			continue // a duplicate: already a problem, and its rows went to the first
		}
		for _, j := range v.tlOf[i] {
			if s := v.timeline[j].Series; s != SeriesGenerated && s != SeriesRead {
				v.problem(verify.Problem{File: TimelineFile, Line: v.tlLines[j], Column: "series", Msg: fmt.Sprintf("%s is neither generated nor read", strconv.Quote(short(s)))})
			}
		}
		v.proof(i)
	}
}

// proof: a verified run read every byte written, lines and digest alike; a failed one
// says why.
func (v *verifier) proof(i int) {
	r := v.runRows[i]
	at := func(column, have, want, msg string) { v.at(i, column, have, want, msg) }
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

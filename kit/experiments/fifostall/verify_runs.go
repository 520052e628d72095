package fifostall

import (
	"fmt"
	"strconv"

	"github.com/logbench/logbench/kit/offline/verify"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// runs holds each run to its proof. Its timeline's series are generated and read: the
// data package's enum says so, and verify.CheckDataPackage holds every row to it.
func (v *verifier) runs() {
	if p := v.manifestBody.Parameters; p.MaxSendLagP99Ms == 0 {
		v.Res.Notes = append(v.Res.Notes, verify.Problem{File: bundle.ManifestFile, Column: "parameters.max_send_lag_p99_ms",
			Msg: fmt.Sprintf("0: a bundle written before the kit recorded its bound; send_lag_trusted is checked against %g ms", p.SendLagBound())})
	}
	for _, i := range v.first {
		v.proof(i)
	}
}

// proof: a verified run read every byte written, lines and digest alike (that a failed
// one says why is the kit's rule).
func (v *verifier) proof(i int) {
	r := v.Runs[i]
	at := func(column, have, want, msg string) { v.at(i, column, have, want, msg) }
	if !r.Verified {
		return
	}
	const why = "a verified run"
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
		at("sha256_writer", strconv.Quote(verify.Short(r.SHA256Writer)), "64 hex digits", why+" has the writer's SHA-256")
	}
	if r.SHA256Reader != r.SHA256Writer {
		at("sha256_reader", verify.Short(r.SHA256Reader), verify.Short(r.SHA256Writer), why+" read what was written (sha256_writer)")
	}
	if r.QueueDrops != 0 {
		at("queue_drops", i64(r.QueueDrops), "0", why+" dropped no record")
	}
}

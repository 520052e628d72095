package fifostall

import (
	"bytes"
	"encoding/json"

	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/verify"
)

// Verify checks everything a fifo-stall bundle's files say about each other (see
// ../README.md, "What verify checks"): the kit's checks of every table-driven bundle
// (tabular), then fifo-stall's rules. Its Own is a *TabularBundle.
func Verify(f *bundle.Files) *verify.Result { return Tabular.Verify(f) }

// SendLagBound is the send-lag p99 a run's latencies are trusted within: the manifest's,
// or the default where a bundle of an earlier kit recorded none (0).
func (p *Params) SendLagBound() float64 {
	if p.MaxSendLagP99Ms == 0 {
		return DefaultMaxSendLagP99Ms
	}
	return p.MaxSendLagP99Ms
}

// ManifestOf is a bundle's manifest as fifo-stall's (Declaration's Manifest).
func ManifestOf(b *TabularBundle) *Manifest { return b.M.(*Manifest) }

// Conditions are a bundle's conditions as derived from its runs and their rows, whatever
// its conditions.csv claims.
func Conditions(b *TabularBundle) []ConditionRow {
	return DeriveConditions(b.Runs, b.Rows, *b.Params())
}

// namedManifest gives a manifest that names no experiment as naming this one: it was
// written before the kit had several experiments, when every bundle was fifo-stall's.
// The name goes in on the manifest's first line, so that every line a problem names is
// the file's own.
func namedManifest(file string, body []byte) []byte {
	var head struct{ Experiment *string }
	open := bytes.IndexByte(body, '{')
	if file != bundle.ManifestFile || open < 0 || json.Unmarshal(body, &head) != nil || head.Experiment != nil ||
		!bytes.Contains(body[open+1:], []byte(":")) {
		return body
	}
	named := append(append([]byte{}, body[:open+1]...), []byte(`"experiment": "`+Name+`", `)...)
	return append(named, body[open+1:]...)
}

// modelColumns are conditions.csv's columns that come from the model, not from the
// runs: a newer kit's model may say otherwise, which is a note, not a problem
// (tabular.Modelled).
var modelColumns = []string{"offered_bytes_per_s", "reader_bound_bytes_per_s", "predicted_drain_s",
	"predicted_rps_to_last_response", "predicted_rps_to_logs_read", "predicted_backlog_max_bytes"}

package schema

// Bundle is a fifo-stall bundle as its figures, summary and drawings read it (Of): its
// manifest, each run with its rows in every file, and the conditions derived from them.
type Bundle struct {
	Manifest   Manifest
	Runs       []Rows
	Conditions []ConditionRow
}

// Verified are the verified runs of condition c, a superseded attempt not among them:
// the runs its figures rest on.
func (b *Bundle) Verified(c ConditionRow) []Rows {
	var out []Rows
	for _, r := range b.Runs {
		if r.Run.Verified && !r.Run.Superseded && r.Run.API == c.API && r.Run.Mode == c.Mode && r.Run.Reader == c.Reader {
			out = append(out, r)
		}
	}
	return out
}

// Latencies are each run's request latencies, a slice a run: what a latency figure is
// stated over runs from.
func Latencies(runs []Rows) [][]float64 {
	var out [][]float64
	for _, r := range runs {
		l := make([]float64, 0, len(r.Requests))
		for _, q := range r.Requests {
			l = append(l, q.LatencyMs)
		}
		out = append(out, l)
	}
	return out
}

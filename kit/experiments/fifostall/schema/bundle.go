package schema

// Bundle is a fifo-stall bundle as its figures, summary and drawings read it (Of): its
// manifest, each run with its rows in every file, and the conditions derived from them.
type Bundle struct {
	Manifest   Manifest
	Runs       []Rows
	Conditions []ConditionRow
}

package tabular

import (
	"fmt"
	"slices"
)

// ByRun are a per-run table's rows by their run_id, each run's in the order of the
// file: what a rule or a drawing reads of one run.
func ByRun[T any](rows []T) map[string][]T {
	out := map[string][]T{}
	for _, r := range rows {
		id := column(r, "run_id")
		out[id] = append(out[id], r)
	}
	return out
}

// IndexByRun are the places of a per-run table's rows by their run_id, in the order
// of the file: a rule that names a row's line finds it at the same place in the
// file's lines (Check.Lines).
func IndexByRun[T any](rows []T) map[string][]int {
	out := map[string][]int{}
	for i, r := range rows {
		id := column(r, "run_id")
		out[id] = append(out[id], i)
	}
	return out
}

// LineSpan names the lines of a run's rows as a problem points at them: "lines
// 2-161", "line 7", "(no rows)".
func LineSpan(lines []int) string {
	switch len(lines) {
	case 0:
		return "(no rows)"
	case 1:
		return fmt.Sprintf("line %d", lines[0])
	}
	return fmt.Sprintf("lines %d-%d", slices.Min(lines), slices.Max(lines))
}

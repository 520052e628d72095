package verify

import (
	"math"
	"strconv"

	"github.com/logbench/logbench/kit/offline/number"
	"github.com/logbench/logbench/kit/offline/printable"
)

// Same says whether a figure written in a file equals its recomputed value: both absent
// (NaN), or equal up to the last bits of a float64 (the files hold the shortest exact
// decimal, so a recomputation from them is bit-for-bit equal unless rows were
// reordered). An infinity equals nothing, itself included: no figure of a run can be
// infinite, and |a-b| <= rel*max(|a|,|b|) would hold for any a against an infinite b.
func Same(have, want float64) bool { return number.Same(have, want) }

// Near is Same within a relative tolerance rel.
func Near(have, want, rel float64) bool { return number.Close(have, want, rel) }

// Number writes a figure as the files do; an absent one is "(empty)".
func Number(f float64) string {
	if math.IsNaN(f) {
		return "(empty)"
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// Short keeps a value from a hostile file to one readable piece of a line.
func Short(s string) string { return printable.Cut(Printable(s), 72) }

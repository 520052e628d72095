package verify

import (
	"math"
	"strings"
	"testing"
)

type derivedRow struct {
	ID      string  `csv:"id"`
	In      int     `csv:"in"`
	Out     float64 `csv:"out"`
	Missing float64 `csv:"missing"`
	Later   string  `csv:"later"`
}

func TestDerivedNamesEveryDerivedCellThatDiffers(t *testing.T) {
	have := []derivedRow{{"a", 1, 2, math.NaN(), "x"}, {"b", 5, 10.5, 1, "old"}}
	want := []derivedRow{{"a", 9, 2, math.NaN(), "x"}, {"b", 5, 11, 1, "new"}}
	res := &Result{}
	Derived(res, "t.csv", []int{2, 3}, func(r derivedRow) string { return r.ID }, have, want, "out", map[string]bool{"later": true}, "recomputed")
	// "in" is observed (before "out"), "later" absent from the file: only b's out differs.
	if len(res.Problems) != 1 || res.Problems[0].Line != 3 || res.Problems[0].Column != "out" || res.Problems[0].Key != "b" {
		t.Fatalf("problems %v", res.Problems)
	}
	res = &Result{}
	Derived(res, "t.csv", nil, func(r derivedRow) string { return r.ID }, have, want[:1], "", nil, "one row per condition")
	if len(res.Problems) == 0 || !strings.Contains(res.Problems[0].String(), "have 2 rows, want 1") {
		t.Fatalf("a missing row: %v", res.Problems)
	}
}

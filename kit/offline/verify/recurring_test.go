package verify

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRecurringSaysEachKindOnceAtItsFirstRow(t *testing.T) {
	var r Recurring[string, int]
	for row, kind := range []string{"cpu", "memory", "cpu", "cpu", "memory", "pids"} {
		r.See(kind, row)
	}
	var have []string
	r.Each(func(k string, first, rows int) { have = append(have, fmt.Sprintf("%s at %d, %d rows", k, first, rows)) })
	if d := cmp.Diff([]string{"cpu at 0, 3 rows", "memory at 1, 2 rows", "pids at 5, 1 rows"}, have); d != "" {
		t.Errorf("(-want +have):\n%s", d)
	}
	var none Recurring[string, int]
	none.Each(func(string, int, int) { t.Error("a kind of nothing seen") })
}

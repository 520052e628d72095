package report

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestInOrderPutsTheWantedFirst(t *testing.T) {
	have := InOrder([]string{"none", "json-sync", "absent"}, []string{"json-queue", "json-sync", "none", "json-queue"})
	if d := cmp.Diff([]string{"none", "json-sync", "json-queue"}, have); d != "" {
		t.Errorf("InOrder (-want +have):\n%s", d)
	}
	if d := cmp.Diff([]string{"go", "python", "node"}, Union([]string{"go", "python"}, []string{"node", "go"})); d != "" {
		t.Errorf("Union (-want +have):\n%s", d)
	}
}

func TestExtentKeepsToWhatALogAxisShows(t *testing.T) {
	e := NewExtent()
	if lo, hi := e.Or(0.1, 10); lo != 0.1 || hi != 10 {
		t.Errorf("nothing seen: %g to %g, want the default", lo, hi)
	}
	for _, v := range []float64{0, -1, 3, 2} {
		e.Low(v)
	}
	for _, v := range []float64{NaN, 7, 40} {
		e.High(v)
	}
	if lo, hi := e.Or(0.1, 10); lo != 2 || hi != 40 {
		t.Errorf("%g to %g, want 2 to 40", lo, hi)
	}
	low := NewExtent()
	low.Low(5)
	low.High(1)
	if lo, hi := low.Or(0.1, 10); lo != 0.1 || hi != 10 {
		t.Errorf("high end below the low: %g to %g, want the default", lo, hi)
	}
}

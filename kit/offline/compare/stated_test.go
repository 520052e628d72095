package compare_test

import (
	"testing"

	"github.com/logbench/logbench/kit/offline/compare"
)

// TestStated: a condition's figure is the one Estimate states of its row, found by its
// name and metric; a figure no row has is absent, and each interval reads as a table
// shows it.
func TestStated(t *testing.T) {
	cond := []compare.KV{{Key: "language", Value: "go"}, {Key: "way", Value: "format"}}
	two := compare.Measured(cond, "ns_per_line", "ns", compare.Mean{}, [][]float64{{1}, {3}})
	one := compare.Measured(cond, "wall_ns_per_line", "ns", compare.Mean{}, [][]float64{{5}})
	s := compare.StatedOf([]compare.Row{two, one})
	if e := s.Of("go/format", "ns_per_line"); e != compare.Estimate(two) || compare.IntervalCell(e) != e.IntervalText() || e.IntervalText() == "" {
		t.Errorf("ns_per_line: %+v", e)
	}
	if e := s.Of("go/format", "wall_ns_per_line"); e.Value != 5 || compare.IntervalCell(e) != "one run" {
		t.Errorf("wall_ns_per_line: %+v %q", e, compare.IntervalCell(e))
	}
	if e := s.Of("go/buffered", "ns_per_line"); e.Runs != 0 || compare.IntervalCell(e) != "-" {
		t.Errorf("absent: %+v", e)
	}
}

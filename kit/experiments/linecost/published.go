package linecost

import (
	"fmt"
	"math"
	"sync"

	lc "github.com/logbench/logbench/kit/incontainer/linecost"
	"github.com/logbench/logbench/results/reference"
)

// PublishedFigure is one line of results/reference/line-cost/figures.csv.
type PublishedFigure struct {
	Way    string  `csv:"way"`
	Metric string  `csv:"metric"`
	Value  float64 `csv:"value"`
	Unit   string  `csv:"unit"`
	Note   string  `csv:"note"`
}

// Published are the seed's figures, as data.
type Published []PublishedFigure

// PerLineFigure is a published time per line, in nanoseconds.
type PerLineFigure struct {
	Ns    float64
	Label string // the figure as the seed gives it: "58.4 ns (time_per_line_written)"
}

// perLineMetrics are the published metrics that are a time per line of one way (the
// others are ratios or differences, which Summary checks as orderings).
var perLineMetrics = map[string]bool{"time_per_line": true, "time_per_line_written": true, "call_site_per_line": true}

// wayNames maps the seed's names of ways to the kit's.
var wayNames = map[string]string{"format-only": lc.Format}

// mustPublished are the seed's figures, which the kit embeds: that they do not read is
// the kit's own fault, which its tests find.
var mustPublished = sync.OnceValue(func() Published {
	rows, err := reference.Rows[PublishedFigure](Name)
	if err != nil {
		panic(err)
	}
	for i := range rows {
		if w, ok := wayNames[rows[i].Way]; ok {
			rows[i].Way = w
		}
	}
	return rows
})

// Find is the published value of way's metric, as given.
func (p Published) Find(way, metric string) (PublishedFigure, bool) {
	for _, f := range p {
		if f.Way == way && f.Metric == metric {
			return f, true
		}
	}
	return PublishedFigure{}, false
}

// PerLine is the published time per line of way, if the seed gives one; its Ns is NaN
// (absent) and its Label empty where it gives none.
func (p Published) PerLine(way string) (PerLineFigure, bool) {
	for _, f := range p {
		if f.Way != way || !perLineMetrics[f.Metric] {
			continue
		}
		scale, ok := map[string]float64{"ns": 1, "us": 1e3, "ms": 1e6}[f.Unit]
		if !ok {
			continue
		}
		return PerLineFigure{Ns: f.Value * scale, Label: fmt.Sprintf("%g %s (%s)", f.Value, f.Unit, f.Metric)}, true
	}
	return PerLineFigure{Ns: math.NaN()}, false
}

package report

import (
	"math"
	"testing"

	"gonum.org/v1/plot"
)

// Every numeric tick label is short and written at its step's precision, whatever the
// marker: gonum's default writes a double's every digit (0.7000000000000001).
func TestTickLabelsAreShortNumbers(t *testing.T) {
	for _, c := range []struct {
		v, step float64
		want    string
	}{
		{0.7000000000000001, 0.1, "0.7"}, {0.30000000000000004, 0.1, "0.3"}, {1e-17, 0.1, "0.0"}, {-1e-17, 0.5, "0.0"}, {0, 5, "0"}, {2.5, 0.25, "2.50"},
		{1500, 500, "1500"}, {1000, inf, "1000"}, {0.002, inf, "0.002"}, {25000, 5000, "25000"}, {1.5e6, 5e5, "1.5M"},
		{123456789, 1e8, "123.5M"}, {0.000123456, inf, "0.000123"},
	} {
		if have := TickLabel(c.v, c.step); have != c.want {
			t.Errorf("TickLabel(%v, %v) = %q, want %q", c.v, c.step, have, c.want)
		}
	}
	for _, scale := range []plot.Normalizer{plot.LinearScale{}, plot.LogScale{}} {
		p := plot.New()
		p.Y.Scale = scale
		for _, r := range [][2]float64{{0.1, 0.9}, {0.001, 1e6}, {0, 1}, {3, 3.7}, {1e3, 1e9}} {
			if _, log := scale.(plot.LogScale); log && r[0] == 0 {
				continue
			}
			p.Y.Tick.Marker = plot.DefaultTicks{}
			if log := (scale == plot.LogScale{}); log {
				p.Y.Tick.Marker = LogTicks{}
			}
			shorten(p)
			for _, tk := range p.Y.Tick.Marker.Ticks(r[0], r[1]) {
				if len(tk.Label) > MaxTickLabel {
					t.Errorf("%T over %v: tick %v labelled %q", scale, r, tk.Value, tk.Label)
				}
			}
		}
	}
}

var inf = math.Inf(1)

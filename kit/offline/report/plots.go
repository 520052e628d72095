package report

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Colours, chosen to stay apart for the colour-blind (Okabe and Ito) and in grey.
var (
	blue     = color.RGBA{0, 114, 178, 255}
	orange   = color.RGBA{230, 159, 0, 255}
	green    = color.RGBA{0, 158, 115, 255}
	red      = color.RGBA{213, 94, 0, 255}
	purple   = color.RGBA{170, 51, 119, 255}
	paleBlue = color.RGBA{170, 205, 230, 255}
	grey     = color.RGBA{120, 120, 120, 255}
	light    = color.RGBA{225, 225, 225, 255}
)

// sans is the plots' typeface: Liberation Sans, metric-compatible with Arial and
// Helvetica, so that a browser without it lays the text out the same.
var sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

// newPlot is a plot in the report's style.
func newPlot(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = font.From(sans, 13)
	p.Title.Padding = vg.Points(6)
	p.X.Label.Text, p.Y.Label.Text = xLabel, yLabel
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(sans, 11)
		a.Tick.Label.Font = font.From(sans, 10)
		a.LineStyle.Color = grey
		a.Tick.LineStyle.Color = grey
	}
	p.Legend.TextStyle.Font = font.From(sans, 10)
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.XOffs, p.Legend.YOffs = vg.Points(8), vg.Points(-4)
	p.Legend.ThumbnailWidth = vg.Points(18)
	g := plotter.NewGrid()
	g.Vertical.Color, g.Horizontal.Color = light, light
	g.Vertical.Width = 0 // categories need no vertical lines
	p.Add(g)
	return p
}

// SVG renders a plot as inline SVG (no XML prolog), for every experiment's report.
// gonum/plot panics on a few inputs (a log axis over nothing positive); a report shows
// that as a missing plot, not a crash.
func SVG(p *plot.Plot, w, h vg.Length) (out string, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = "", fmt.Errorf("plot %q: %v", p.Title.Text, r)
		}
	}()
	c := vgsvg.NewWith(vgsvg.UseWH(w, h))
	p.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return "", err
	}
	s := buf.String()
	if i := strings.Index(s, "<svg"); i >= 0 {
		s = s[i:]
	}
	return s, nil
}

// LogTicks labels a log axis at 1, 2 and 5 times each power of ten, with minor ticks
// between: readable for latencies that run from a millisecond to seconds.
type LogTicks struct{}

func (LogTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(lo > 0) || !(hi > lo) || math.IsInf(hi, 0) {
		return nil
	}
	var ticks []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)) && len(ticks) < 200; e++ {
		base := math.Pow(10, e)
		for m := 1; m < 10; m++ {
			v := float64(m) * base
			if v < lo*0.999 || v > hi*1.001 {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || m == 2 || m == 5 {
				t.Label = strconv.FormatFloat(v, 'g', -1, 64)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}

// logAxis sets a log scale over [lo, hi], widened a little so that no point sits on an
// edge.
func logAxis(a *plot.Axis, lo, hi float64) {
	if !(lo > 0) || !(hi >= lo) {
		lo, hi = 0.1, 10
	}
	a.Scale = plot.LogScale{}
	a.Tick.Marker = LogTicks{}
	a.Min, a.Max = lo/1.4, hi*1.4
}

// line draws xys in a colour, dashed or not.
func line(xys plotter.XYs, c color.Color, width float64, dashed bool) (*plotter.Line, error) {
	l, err := plotter.NewLine(xys)
	if err != nil {
		return nil, err
	}
	l.Color, l.Width = c, vg.Points(width)
	if dashed {
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	}
	return l, nil
}

// points draws xys as glyphs.
func points(xys plotter.XYs, c color.Color, shape draw.GlyphDrawer, radius float64) (*plotter.Scatter, error) {
	s, err := plotter.NewScatter(xys)
	if err != nil {
		return nil, err
	}
	s.Color, s.Shape, s.Radius = c, shape, vg.Points(radius)
	return s, nil
}

// thin keeps at most n points of a series, evenly, always with its last: a run's
// timeline has a sample per record or read, more than a plot can show.
func thin(xys plotter.XYs, n int) plotter.XYs {
	if len(xys) <= n || n < 2 {
		return xys
	}
	out := make(plotter.XYs, 0, n+1)
	step := float64(len(xys)-1) / float64(n-1)
	for i := range n {
		out = append(out, xys[int(math.Round(float64(i)*step))])
	}
	return out
}

// linearTicks labels a linear axis at about five round values (1, 2 or 5 times a power
// of ten), written without trailing zeros.
type linearTicks struct{}

func (linearTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return nil
	}
	raw := (hi - lo) / 5
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 5, 10} {
		if step = m * mag; step >= raw {
			break
		}
	}
	decimals := max(0, -int(math.Floor(math.Log10(step))))
	var ticks []plot.Tick
	for v := math.Ceil(lo/step) * step; v <= hi+step*1e-9 && len(ticks) < 50; v += step {
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', decimals, 64)})
		if half := v + step/2; half < hi {
			ticks = append(ticks, plot.Tick{Value: half})
		}
	}
	return ticks
}

package report

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"regexp"
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
	Blue     = color.RGBA{0, 114, 178, 255}
	Orange   = color.RGBA{230, 159, 0, 255}
	Green    = color.RGBA{0, 158, 115, 255}
	Red      = color.RGBA{213, 94, 0, 255}
	Purple   = color.RGBA{170, 51, 119, 255}
	Sky      = color.RGBA{86, 180, 233, 255}
	PaleBlue = color.RGBA{170, 205, 230, 255}
	Grey     = color.RGBA{120, 120, 120, 255}
	Light    = color.RGBA{225, 225, 225, 255}
	Black    = color.RGBA{0, 0, 0, 255}
)

// Palette colours bundles (or runs, or conditions) apart, in this order on every page:
// the first bundle is blue in every plot of it.
var Palette = []color.RGBA{Blue, Orange, Green, Red, Purple, Sky, Grey}

// Colour is the i-th colour of the palette, round again past its end.
func Colour(i int) color.RGBA { return Palette[i%len(Palette)] }

// CSS writes a colour as CSS.
func CSS(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// Published is the mark of a published figure in every plot: black.
var Published = Black

// sans is the plots' typeface: Liberation Sans, metric-compatible with Arial and
// Helvetica, so that a browser without it lays the text out the same.
var sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

// Sizes of a plot, in points: two fit side by side on a wide page.
const (
	PlotW = 7 * vg.Inch
	PlotH = 4.2 * vg.Inch
)

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
		a.LineStyle.Color = Grey
		a.Tick.LineStyle.Color = Grey
	}
	g := plotter.NewGrid()
	g.Vertical.Color, g.Horizontal.Color = Light, Light
	g.Vertical.Width = 0 // categories need no vertical lines
	p.Add(g)
	return p
}

// render draws a plot as inline SVG (no XML prolog). gonum/plot panics on a few inputs
// (a log axis over nothing positive); a report shows that as a missing plot, not a
// crash.
func render(title string, w, h vg.Length, drawFn func(draw.Canvas)) (out string, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = "", fmt.Errorf("plot %q: %v", title, r)
		}
	}()
	c := vgsvg.NewWith(vgsvg.UseWH(w, h))
	drawFn(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return "", err
	}
	s := buf.String()
	if i := strings.Index(s, "<svg"); i >= 0 {
		s = s[i:]
	}
	return untag(s), nil
}

// Tags. gonum's SVG canvas writes paths without ids or classes; a drawing that wants
// its next path findable in the page (a bar, a whisker, the legend, the data area)
// writes a sentinel text just before it, and render turns the pair into one path with
// class="lb-ROLE" and data- attributes. The browser test reads the geometry through
// them.
const tagMark = "@@lb:"

var tagPattern = regexp.MustCompile(`<text[^>]*>` + tagMark + `([a-z0-9=;_.-]*)@@</text>\s*<path `)

// tag makes the next path drawn on c carry role and attributes ("s=1", "c=2").
func tag(c draw.Canvas, role string, attrs ...string) {
	face := font.DefaultCache.Lookup(font.From(sans, 1), vg.Points(1))
	c.Canvas.FillString(face, c.Min, tagMark+strings.Join(append([]string{role}, attrs...), ";")+"@@")
}

func untag(s string) string {
	return tagPattern.ReplaceAllStringFunc(s, func(m string) string {
		sub := tagPattern.FindStringSubmatch(m)
		parts := strings.Split(sub[1], ";")
		out := `<path class="lb-` + parts[0] + `"`
		for _, a := range parts[1:] {
			if k, v, ok := strings.Cut(a, "="); ok {
				out += ` data-` + k + `="` + v + `"`
			}
		}
		return out + " "
	})
}

// LogTicks labels a log axis at 1, 2 and 5 times each power of ten, with minor ticks
// between: readable for figures that run over several powers of ten.
type LogTicks struct{}

func (LogTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(lo > 0) || !(hi > lo) || math.IsInf(hi, 0) {
		return nil
	}
	// Over more than three powers of ten, 1, 2 and 5 crowd: powers of ten only.
	wide := math.Log10(hi/lo) > 3
	// Within less than a power of ten, every tick is labelled.
	narrow := hi/lo < 8
	var ticks []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)) && len(ticks) < 200; e++ {
		base := math.Pow(10, e)
		for m := 1; m < 10; m++ {
			v := float64(m) * base
			if e < 0 {
				// 6 / 10 is the double nearest 0.6; 6 * 0.1 is not, and its label
				// would read 0.6000000000000001.
				v = float64(m) / math.Pow(10, -e)
			}
			if v < lo*0.999 || v > hi*1.001 {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || !wide && (m == 2 || m == 5) || narrow {
				t.Label = Short(v)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}

// Short writes a round figure of an axis briefly: 0.5, 20, 5000, 20k, 1M, 2G.
func Short(v float64) string {
	for _, u := range []struct {
		div    float64
		suffix string
	}{{1e9, "G"}, {1e6, "M"}, {1e4, "k"}} {
		if math.Abs(v) >= u.div {
			d := 1e3
			if u.suffix != "k" {
				d = u.div
			}
			return strconv.FormatFloat(v/d, 'g', 4, 64) + u.suffix
		}
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// LogAxis sets a log scale over [lo, hi], widened a little so that no point sits on an
// edge.
func LogAxis(a *plot.Axis, lo, hi float64) {
	if !(lo > 0) || !(hi >= lo) {
		lo, hi = 0.1, 10
	}
	a.Scale = plot.LogScale{}
	a.Tick.Marker = LogTicks{}
	a.Min, a.Max = lo/1.4, hi*1.4
}

// Line draws xys in a colour, dashed or not.
func Line(xys plotter.XYs, c color.Color, width float64, dashed bool) (*plotter.Line, error) {
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

// Points draws xys as glyphs.
func Points(xys plotter.XYs, c color.Color, shape draw.GlyphDrawer, radius float64) (*plotter.Scatter, error) {
	s, err := plotter.NewScatter(xys)
	if err != nil {
		return nil, err
	}
	s.Color, s.Shape, s.Radius = c, shape, vg.Points(radius)
	return s, nil
}

// Shapes tell series apart where colours tell bundles apart.
var Shapes = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.BoxGlyph{}, draw.TriangleGlyph{}, Diamond{}, draw.CrossGlyph{}, draw.PlusGlyph{}, draw.RingGlyph{}, draw.PyramidGlyph{}}

// Thin keeps at most n points of a series, evenly, always with its last: a run's
// timeline has a sample per record or read, more than a plot can show.
func Thin(xys plotter.XYs, n int) plotter.XYs {
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

// LinearTicks labels a linear axis at about five round values (1, 2 or 5 times a power
// of ten), written without trailing zeros.
type LinearTicks struct{}

func (LinearTicks) Ticks(lo, hi float64) []plot.Tick {
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

// Categories puts labels on the x axis at 0..n-1, tilted when they are long. No label
// leaves the axis as it is (gonum's NominalX panics on none; a bundle's manifest may
// name no condition).
func Categories(p *plot.Plot, labels []string) {
	if len(labels) == 0 {
		return
	}
	p.NominalX(labels...)
	long := 0
	for _, l := range labels {
		long = max(long, len(l))
	}
	if long*len(labels) > 60 {
		p.X.Tick.Label.Rotation = math.Pi / 7
		p.X.Tick.Label.XAlign = draw.XRight
		p.X.Tick.Label.YAlign = draw.YCenter
	}
	p.X.Min, p.X.Max = -0.6, float64(len(labels))-0.4
}

// Diamond is a glyph that plotter does not have.
type Diamond struct{}

func (Diamond) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineWidth(vg.Points(1))
	c.SetColor(sty.Color)
	r := sty.Radius
	var path vg.Path
	path.Move(vg.Point{X: pt.X, Y: pt.Y + r})
	path.Line(vg.Point{X: pt.X + r, Y: pt.Y})
	path.Line(vg.Point{X: pt.X, Y: pt.Y - r})
	path.Line(vg.Point{X: pt.X - r, Y: pt.Y})
	path.Close()
	c.Fill(path)
}

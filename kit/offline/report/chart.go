package report

import (
	"html/template"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Chart is a plot in the report's style with its legend kept beside the data, never on
// it: the legend takes a strip at the right (or, when its names are long, below), and
// the axes get what is left.
type Chart struct {
	P      *plot.Plot
	Legend plot.Legend
	W, H   vg.Length
}

// NewChart is an empty chart of the page's size.
func NewChart(title, xLabel, yLabel string) *Chart {
	l := plot.NewLegend()
	l.TextStyle.Font = font.From(sans, 10)
	l.Top, l.Left = true, true
	l.ThumbnailWidth = vg.Points(18)
	l.Padding = vg.Points(3)
	ch := &Chart{P: newPlot(title, xLabel, yLabel), Legend: l, W: PlotW, H: PlotH}
	ch.P.Add(frame{})
	return ch
}

// Add adds plotters to the data.
func (ch *Chart) Add(ps ...plot.Plotter) { ch.P.Add(ps...) }

// AddLegend names a series in the legend.
func (ch *Chart) AddLegend(name string, thumbs ...plot.Thumbnailer) { ch.Legend.Add(name, thumbs...) }

// Figure is one drawn plot of a page, or why it could not be drawn.
type Figure struct {
	Title string
	SVG   template.HTML
	Err   string
}

// Failed is a figure that could not be drawn.
func Failed(title string, err error) Figure { return Figure{Title: title, Err: err.Error()} }

// Render draws the chart as a figure.
func (ch *Chart) Render() Figure {
	s, err := render(ch.P.Title.Text, ch.W, ch.H, ch.draw)
	if err != nil {
		return Failed(ch.P.Title.Text, err)
	}
	return Figure{Title: ch.P.Title.Text, SVG: template.HTML(s)} // gonum escapes every text it draws
}

// legendPad is the room between the axes and the legend.
const legendPad = vg.Length(10)

func (ch *Chart) draw(c draw.Canvas) {
	shorten(ch.P)
	// The y axis' label is drawn here, not by gonum, which lays a log axis' label out
	// as if it sat near the top and shrinks the data to make room for it.
	if label := ch.P.Y.Label.Text; label != "" {
		ch.P.Y.Label.Text = ""
		defer func() { ch.P.Y.Label.Text = label }()
		sty := ch.P.Y.Label.TextStyle
		sty.Rotation = math.Pi / 2
		sty.XAlign, sty.YAlign = draw.XCenter, draw.YTop
		top := c.Max.Y - ch.P.Title.TextStyle.Height(ch.P.Title.Text) - ch.P.Title.Padding
		c.FillText(sty, vg.Point{X: c.Min.X + 2, Y: (c.Min.Y + top) / 2}, label)
		c = draw.Crop(c, sty.Height(label)+6, 0, 0, 0)
	}
	lr := ch.Legend.Rectangle(c)
	lw, lh := lr.Max.X-lr.Min.X, lr.Max.Y-lr.Min.Y
	if lw <= 0 {
		ch.P.Draw(c)
		return
	}
	var legendC draw.Canvas
	if lw <= c.Size().X*0.3 {
		// A strip at the right, below the title's line.
		ch.P.Draw(draw.Crop(c, 0, -(lw + legendPad), 0, 0))
		legendC = draw.Crop(c, c.Size().X-lw, 0, 0, -vg.Points(30))
	} else {
		// Below the plot, left-aligned.
		ch.P.Draw(draw.Crop(c, 0, 0, lh+legendPad, 0))
		legendC = draw.Crop(c, vg.Points(8), 0, 0, -(c.Size().Y - lh - vg.Points(2)))
	}
	r := vg.Rectangle{Min: vg.Point{X: legendC.Min.X, Y: legendC.Max.Y - lh}, Max: vg.Point{X: legendC.Min.X + lw, Y: legendC.Max.Y}}
	tag(legendC, "legend")
	legendC.SetColor(clear)
	legendC.Fill(r.Path())
	ch.Legend.Draw(legendC)
}

// frame marks the data area (transparent), so that the page's test can check that no
// legend lies on it.
type frame struct{}

func (frame) Plot(c draw.Canvas, _ *plot.Plot) {
	tag(c, "data")
	c.SetColor(clear)
	c.Fill(c.Rectangle.Path())
}

// clear is as good as transparent: gonum's SVG writes a colour of no alpha at all as
// garbage.
var clear = color.NRGBA{255, 255, 255, 1}

package chart

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Header is the text above a figure.
type Header struct {
	Title string
	// Subtitle, in smaller grey type: what produced the numbers.
	Subtitle string
}

var (
	margin     = vg.Points(10)
	legendGap  = vg.Points(14)
	titleStyle = text.Style{
		Color: color.Black, Font: font.From(sansBold, 15), XAlign: draw.XCenter, YAlign: draw.YTop,
		Handler: plot.DefaultTextHandler,
	}
	subtitleStyle = text.Style{
		Color: color.Gray{Y: 0x55}, Font: font.From(sans, 10), XAlign: draw.XCenter, YAlign: draw.YTop,
		Handler: plot.DefaultTextHandler,
	}
)

// frame paints c white, draws the header across the top and the legend (if
// it has entries) in a strip on the right, and returns the canvas left for
// the plots.
func frame(c draw.Canvas, h Header, legend *legend) draw.Canvas {
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	top := c.Max.Y - margin
	if h.Title != "" {
		c.FillText(titleStyle, vg.Point{X: c.Center().X, Y: top}, h.Title)
		top -= titleStyle.Rectangle(h.Title).Size().Y + vg.Points(3)
	}
	if h.Subtitle != "" {
		sub := wrapParts(subtitleStyle, h.Subtitle, c.Max.X-c.Min.X-2*margin)
		c.FillText(subtitleStyle, vg.Point{X: c.Center().X, Y: top}, sub)
		top -= subtitleStyle.Rectangle(sub).Size().Y
	}
	top -= vg.Points(8)
	area := c
	area.Min.X += margin
	area.Min.Y += margin
	area.Max.X -= margin
	area.Max.Y = top
	if legend != nil && legend.n > 0 {
		w := legend.Rectangle(area).Size().X
		strip := area
		strip.Min.X = area.Max.X - w
		strip.Max.Y -= vg.Points(4)
		legend.Draw(strip)
		area.Max.X = strip.Min.X - legendGap
	}
	return area
}

// legend is a plot legend that counts its entries.
type legend struct {
	plot.Legend
	n int
}

// newLegend returns a legend drawn top-left in its strip.
func newLegend() *legend {
	l := &legend{Legend: plot.NewLegend()}
	l.TextStyle.Font = font.From(sans, 11)
	l.Top, l.Left = true, true
	l.Padding = vg.Points(3.5)
	l.ThumbnailWidth = vg.Points(22)
	return l
}

func (l *legend) add(name string, thumbs ...plot.Thumbnailer) {
	l.Add(name, thumbs...)
	l.n++
}

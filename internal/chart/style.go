package chart

import (
	"image/color"
	"math"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Figure size: 960 × 600 pixels at 96 dpi.
const (
	DPI    = 96
	Width  = 10 * vg.Inch
	Height = 6.25 * vg.Inch
)

// PixelSize returns the size of every PNG figure in pixels.
func PixelSize() (w, h int) {
	px := func(l vg.Length) int { return int(math.Round(float64(l / vg.Inch * DPI))) }
	return px(Width), px(Height)
}

// palette holds 12 distinguishable colours (Tableau 10, near-black, plum).
var palette = [...]color.RGBA{
	rgb(0x1f77b4), rgb(0xff7f0e), rgb(0x2ca02c), rgb(0xd62728),
	rgb(0x9467bd), rgb(0x8c564b), rgb(0xe377c2), rgb(0x7f7f7f),
	rgb(0xbcbd22), rgb(0x17becf), rgb(0x1a1a1a), rgb(0x7b4173),
}

// dashes are used, in turn, once the palette has been used up.
var dashes = [...][]vg.Length{
	{vg.Points(6), vg.Points(3)},
	{vg.Points(2), vg.Points(2)},
	{vg.Points(8), vg.Points(3), vg.Points(2), vg.Points(3)},
}

// glyphs vary the marker shape with the series index.
var glyphs = [...]draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.BoxGlyph{}, draw.TriangleGlyph{}, draw.PyramidGlyph{},
	draw.CrossGlyph{}, draw.PlusGlyph{},
}

func rgb(v uint32) color.RGBA {
	return color.RGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 0xff}
}

// Style is how one series (one strategy) is drawn in every figure.
type Style struct {
	Color  color.RGBA
	Dashes []vg.Length
	Glyph  draw.GlyphDrawer
}

// SeriesStyle returns the style of the i-th series: the i-th palette colour,
// solid for the first 12, then dashed; the marker shape cycles separately.
func SeriesStyle(i int) Style {
	if i < 0 {
		i = 0
	}
	st := Style{Color: palette[i%len(palette)], Glyph: glyphs[i%len(glyphs)]}
	if k := i / len(palette); k > 0 {
		st.Dashes = dashes[(k-1)%len(dashes)]
	}
	return st
}

// Line returns the line style of s with width w.
func (s Style) Line(w vg.Length) draw.LineStyle {
	return draw.LineStyle{Color: s.Color, Width: w, Dashes: s.Dashes}
}

// Component colours, for stacked parts that are not series.
var (
	ColorUncached   color.Color = rgb(0x3b4b5c)
	ColorCacheWrite color.Color = rgb(0xe8a33d)
	ColorCacheRead  color.Color = rgb(0x9cc5a1)
	ColorOutput     color.Color = rgb(0xb07aa1)
	ColorNeutral    color.Color = rgb(0x8c8c8c)
	// ClassColors colour up to seven error classes (the last is grey).
	ClassColors = []color.Color{rgb(0xb2182b), rgb(0xe66101), rgb(0xfdb863), rgb(0x5e3c99), rgb(0x4d9221), rgb(0x2166ac), rgb(0xbababa)}
)

var (
	sans      = font.Font{Typeface: "Liberation", Variant: "Sans"}
	sansBold  = font.Font{Typeface: "Liberation", Variant: "Sans", Weight: xfont.WeightBold}
	gridColor = color.Gray{Y: 0xe4}
)

// newPlot returns a plot with sans-serif text and no title (titles are
// drawn across the figure by layout).
func newPlot(xlabel, ylabel string) *plot.Plot {
	p := plot.New()
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Label.TextStyle.Font = font.From(sans, 12)
		ax.Tick.Label.Font = font.From(sans, 10)
		ax.Label.Padding = vg.Points(4)
	}
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.Legend.TextStyle.Font = font.From(sans, 11)
	return p
}

package chart

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// DotPanel is a dot plot: one dot per category at its value, with a
// horizontal whisker over its interval (Low, High; NaN = none), the value
// written right of it, and an optional vertical reference line.
type DotPanel struct {
	Title, XLabel string
	Values        []float64
	Low, High     []float64
	// Colors colour the dots (nil: neutral grey).
	Colors []color.Color
	Format Format
	// Ref, when finite, draws a dashed vertical line labelled RefLabel.
	Ref      float64
	RefLabel string
}

// DotFigure draws dot panels side by side sharing the category axis
// (categories top to bottom, named on the left panel). The X axis of each
// panel starts at 0, so a dot's distance from the axis is its size.
type DotFigure struct {
	Header
	Categories []string
	Panels     []DotPanel
	Note       string
}

// Draw implements Drawer.
func (f DotFigure) Draw(c draw.Canvas) {
	area := drawNote(frame(c, f.Header, nil), f.Note)
	if len(f.Panels) == 0 || len(f.Categories) == 0 {
		return
	}
	plots := make([]*plot.Plot, len(f.Panels))
	for i, dp := range f.Panels {
		plots[i] = f.panel(dp, i == 0)
	}
	tiles := draw.Tiles{Rows: 1, Cols: len(plots), PadX: vg.Points(18)}
	cs := plot.Align([][]*plot.Plot{plots}, tiles, area)
	for i, p := range plots {
		p.Draw(cs[0][i])
	}
}

func (f DotFigure) panel(dp DotPanel, names bool) *plot.Plot {
	n := len(f.Categories)
	p := newPlot(dp.XLabel, "")
	if dp.Title != "" {
		p.Title.Text = dp.Title
		p.Title.TextStyle.Font = font.From(sansBold, 12)
		p.Title.Padding = vg.Points(6)
	}
	sh := &shapes{}
	labelStyle := text.Style{
		Color: color.Black, Font: font.From(sans, 10), XAlign: draw.XLeft, YAlign: draw.YCenter,
		Handler: plot.DefaultTextHandler,
	}
	hi := 0.0
	at := func(xs []float64, i int) float64 {
		if i < len(xs) {
			return xs[i]
		}
		return math.NaN()
	}
	for i := range n {
		v := at(dp.Values, i)
		if !finite(v) {
			continue
		}
		y := float64(n - 1 - i)
		clr := ColorNeutral
		if i < len(dp.Colors) && dp.Colors[i] != nil {
			clr = dp.Colors[i]
		}
		line := draw.LineStyle{Color: clr, Width: vg.Points(1.5)}
		end := v
		if lo, h := at(dp.Low, i), at(dp.High, i); finite(lo) && finite(h) && h > lo {
			sh.whiskers = append(sh.whiskers, whisker{lo, y, h, y, line, vg.Points(7)})
			end = math.Max(end, h)
		}
		sh.glyphs = append(sh.glyphs, glyph{v, y, draw.GlyphStyle{Color: clr, Radius: vg.Points(4), Shape: draw.CircleGlyph{}}})
		sh.labels = append(sh.labels, label{x: end, y: y, dx: vg.Points(6), text: dp.Format.apply(v), style: labelStyle})
		hi = math.Max(hi, end)
	}
	if finite(dp.Ref) {
		hi = math.Max(hi, dp.Ref)
	}
	if hi == 0 {
		hi = 1
	}
	grid := plotter.NewGrid()
	grid.Horizontal.Color = nil
	grid.Vertical = draw.LineStyle{Color: gridColor, Width: vg.Points(0.5)}
	p.Add(grid)
	if finite(dp.Ref) {
		p.Add(vRef{x: dp.Ref, label: dp.RefLabel})
	}
	p.Add(sh)
	// Room for the value labels right of the longest whisker.
	_, top := niceRange(0, hi)
	// The axis starts just left of 0, so a dot at 0 clears the names.
	p.X.Min, p.X.Max = -0.025*top, top*1.18
	p.X.Tick.Marker = linearTicks(dp.Format)
	p.Y.Min, p.Y.Max = -0.6, float64(n)-0.4
	ticks := make([]plot.Tick, n)
	for i, name := range f.Categories {
		ticks[n-1-i] = plot.Tick{Value: float64(n - 1 - i), Label: name}
		if !names {
			ticks[n-1-i].Label = ""
		}
	}
	p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	p.Y.Tick.Length = 0
	p.Y.Tick.Label.Font = font.From(sans, 11)
	p.Y.Padding, p.X.Padding = 0, 0
	return p
}

// vRef is a dashed vertical reference line with a label at its top.
type vRef struct {
	x     float64
	label string
}

func (r vRef) Plot(c draw.Canvas, p *plot.Plot) {
	tx, _ := p.Transforms(&c)
	x := tx(r.x)
	if !c.ContainsX(x) {
		return
	}
	st := draw.LineStyle{Color: color.Gray{Y: 0x80}, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(3), vg.Points(3)}}
	c.StrokeLine2(st, x, c.Min.Y, x, c.Max.Y)
	if r.label != "" {
		sty := text.Style{Color: color.Gray{Y: 0x55}, Font: font.From(sans, 9), XAlign: draw.XLeft, YAlign: draw.YTop, Handler: plot.DefaultTextHandler}
		c.FillText(sty, vg.Point{X: x + vg.Points(3), Y: c.Max.Y}, r.label)
	}
}

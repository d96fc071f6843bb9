package chart

import (
	"cmp"
	"image/color"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Point is one labelled point with optional confidence whiskers.
type Point struct {
	Name        string
	Style       Style
	X, Y        float64
	XLow, XHigh float64
	YLow, YHigh float64
	HasX, HasY  bool // whether the X / Y whiskers are set
	OnFrontier  bool
}

// ScatterFigure plots named points with whiskers, each labelled with its
// name where the label overlaps nothing, and joins the points marked
// OnFrontier (the note should say what the grey line is).
type ScatterFigure struct {
	Header
	XLabel, YLabel   string
	Points           []Point
	XFormat, YFormat Format
	Note             string
}

var frontierStyle = draw.LineStyle{Color: color.NRGBA{R: 0x60, G: 0x60, B: 0x60, A: 0x80}, Width: vg.Points(5)}

// Draw implements Drawer.
func (f ScatterFigure) Draw(c draw.Canvas) {
	var front []Point
	for _, pt := range f.Points {
		if pt.OnFrontier && finite(pt.X) && finite(pt.Y) {
			front = append(front, pt)
		}
	}
	area := drawNote(frame(c, f.Header, nil), f.Note)

	p := newPlot(f.XLabel, f.YLabel)
	grid := plotter.NewGrid()
	grid.Vertical = draw.LineStyle{Color: gridColor, Width: vg.Points(0.5)}
	grid.Horizontal = grid.Vertical
	p.Add(grid)
	if len(front) > 1 {
		slices.SortStableFunc(front, func(a, b Point) int { return cmp.Compare(a.X, b.X) })
		xys := make(plotter.XYs, len(front))
		for i, pt := range front {
			xys[i] = plotter.XY{X: pt.X, Y: pt.Y}
		}
		if l, err := plotter.NewLine(xys); err == nil {
			l.LineStyle = frontierStyle
			p.Add(l)
		}
	}
	sh := &shapes{}
	labels := pointLabels{
		style: text.Style{
			Color: color.Black, Font: font.From(sans, 10), XAlign: draw.XLeft, YAlign: draw.YTop,
			Handler: plot.DefaultTextHandler,
		},
		glyphR: vg.Points(4.5),
	}
	for i := 1; i < len(front); i++ {
		labels.segments = append(labels.segments, [2]XY{{front[i-1].X, front[i-1].Y}, {front[i].X, front[i].Y}})
	}
	for _, pt := range f.Points {
		if !finite(pt.X) || !finite(pt.Y) {
			continue
		}
		ws := pt.Style.Line(vg.Points(1.2))
		ws.Dashes = nil
		if pt.HasX && finite(pt.XLow) && finite(pt.XHigh) {
			sh.whiskers = append(sh.whiskers, whisker{pt.XLow, pt.Y, pt.XHigh, pt.Y, ws, vg.Points(6)})
			labels.segments = append(labels.segments, [2]XY{{pt.XLow, pt.Y}, {pt.XHigh, pt.Y}})
		}
		if pt.HasY && finite(pt.YLow) && finite(pt.YHigh) {
			sh.whiskers = append(sh.whiskers, whisker{pt.X, pt.YLow, pt.X, pt.YHigh, ws, vg.Points(6)})
			labels.segments = append(labels.segments, [2]XY{{pt.X, pt.YLow}, {pt.X, pt.YHigh}})
		}
		sh.glyphs = append(sh.glyphs, glyph{pt.X, pt.Y, glyphStyle(pt.Style, 4.5)})
		labels.pts = append(labels.pts, labelledPoint{x: pt.X, y: pt.Y, text: pt.Name})
	}
	p.Add(sh, labels)
	p.X.Tick.Marker = linearTicks(f.XFormat)
	p.Y.Tick.Marker = linearTicks(f.YFormat)
	// Room around the points for their names.
	pad(&p.X, 0.12)
	pad(&p.Y, 0.08)
	p.Draw(area)
}

// pad widens an axis range by frac of its span on both sides.
func pad(a *plot.Axis, frac float64) {
	if !(a.Max >= a.Min) {
		return
	}
	span := a.Max - a.Min
	if span == 0 {
		span = max(1, a.Max*0.1)
	}
	a.Min -= span * frac
	a.Max += span * frac
}

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

// Series is one line.
type Series struct {
	Name  string
	Style Style
	X, Y  []float64
	// YLow and YHigh, when set, draw a whisker at every point.
	YLow, YHigh []float64
	// Points draws the series marker at the points (at most about twelve,
	// evenly spaced).
	Points bool
	// Marks are emphasised points drawn with the series marker.
	Marks []XY
	// Thin draws a 1-point line (context series, e.g. in grey).
	Thin bool
}

// XY is a point.
type XY struct{ X, Y float64 }

// RefLine is a labelled horizontal reference line.
type RefLine struct {
	Y     float64
	Label string
}

// LineFigure is a line chart with its legend outside the plot area.
type LineFigure struct {
	Header
	XLabel, YLabel   string
	Series           []Series
	LogX, LogY       bool
	XFormat, YFormat Format
	// YRange fixes the Y axis when its Max > Min.
	YRange XY
	RefY   []RefLine
	// LegendNotes are extra legend entries (text only) after the series.
	LegendNotes []string
	Note        string
}

// Draw implements Drawer.
func (f LineFigure) Draw(c draw.Canvas) {
	lg := newLegend()
	for _, s := range f.Series {
		th := lineThumb{line: s.Style.Line(s.width())}
		if s.Points || len(s.Marks) > 0 {
			g := glyphStyle(s.Style, 3)
			th.glyph = &g
		}
		lg.add(s.Name, th)
	}
	for _, n := range f.LegendNotes {
		lg.add(n)
	}
	area := drawNote(frame(c, f.Header, lg), f.Note)

	p := f.plot(f.XLabel, f.YLabel, f.Series)
	p.Draw(area)
}

// plot builds the plot of series with f's axes, scales and reference
// lines.
func (f LineFigure) plot(xlabel, ylabel string, series []Series) *plot.Plot {
	p := newPlot(xlabel, ylabel)
	grid := plotter.NewGrid()
	grid.Vertical = draw.LineStyle{Color: gridColor, Width: vg.Points(0.5)}
	grid.Horizontal = grid.Vertical
	p.Add(grid)
	sh := &shapes{}
	refStyle := draw.LineStyle{Color: color.Gray{Y: 0x99}, Width: vg.Points(0.8), Dashes: []vg.Length{vg.Points(3), vg.Points(3)}}
	ok := func(x, y float64) bool {
		return finite(x) && finite(y) && (!f.LogX || x > 0) && (!f.LogY || y > 0)
	}
	// Thin (context) series first, so the highlighted ones are drawn over them.
	ordered := make([]Series, 0, len(series))
	for _, thin := range []bool{true, false} {
		for _, s := range series {
			if s.Thin == thin {
				ordered = append(ordered, s)
			}
		}
	}
	for _, s := range ordered {
		// At most about a dozen markers per line, so dense lines stay legible.
		stride := max(1, (len(s.X)+11)/12)
		pts := make(plotter.XYs, 0, len(s.X))
		for i := range s.X {
			if i >= len(s.Y) || !ok(s.X[i], s.Y[i]) {
				continue
			}
			pts = append(pts, plotter.XY{X: s.X[i], Y: s.Y[i]})
			if i < len(s.YLow) && i < len(s.YHigh) && ok(s.X[i], s.YLow[i]) && ok(s.X[i], s.YHigh[i]) {
				sh.whiskers = append(sh.whiskers, whisker{s.X[i], s.YLow[i], s.X[i], s.YHigh[i], s.Style.Line(vg.Points(1)), vg.Points(5)})
			}
			if s.Points && i%stride == 0 {
				sh.glyphs = append(sh.glyphs, glyph{s.X[i], s.Y[i], glyphStyle(s.Style, 3)})
			}
		}
		if len(pts) > 0 {
			l, err := plotter.NewLine(pts)
			if err == nil {
				l.LineStyle = s.Style.Line(s.width())
				p.Add(l)
			}
		}
		for _, m := range s.Marks {
			if ok(m.X, m.Y) {
				sh.glyphs = append(sh.glyphs, glyph{m.X, m.Y, glyphStyle(s.Style, 4.5)})
			}
		}
	}
	p.Add(sh)
	f.axes(p)
	if len(f.RefY) > 0 {
		p.Add(refLines{lines: f.RefY, style: refStyle})
	}
	return p
}

// axes sets the scales, ranges and ticks of p: a fixed Y range when given;
// else linear axes widened to whole tick steps (a labelled tick at both
// ends, whisker caps inside), and log axes with 1-2-5 ticks.
func (f LineFigure) axes(p *plot.Plot) {
	if f.YRange.Y > f.YRange.X {
		p.Y.Min, p.Y.Max = f.YRange.X, f.YRange.Y
	} else if !f.LogY {
		p.Y.Min, p.Y.Max = niceRange(p.Y.Min, p.Y.Max)
	}
	p.Y.Tick.Marker = linearTicks(f.YFormat)
	p.X.Tick.Marker = linearTicks(f.XFormat)
	if !f.LogX {
		pad(&p.X, 0.02)
	}
	if f.LogX && p.X.Min > 0 && p.X.Max > p.X.Min {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = logTicks(f.XFormat)
	}
	if f.LogY && p.Y.Min > 0 && p.Y.Max > p.Y.Min {
		p.Y.Min, p.Y.Max = logRange(p.Y.Min/1.03, p.Y.Max*1.03)
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = logTicks(f.YFormat)
	}
}

func (s Series) width() vg.Length {
	if s.Thin {
		return vg.Points(1)
	}
	return vg.Points(2)
}

// refLines draws labelled horizontal lines across the data area.
type refLines struct {
	lines []RefLine
	style draw.LineStyle
}

func (r refLines) Plot(c draw.Canvas, p *plot.Plot) {
	_, ty := p.Transforms(&c)
	sty := text.Style{
		Color: color.Gray{Y: 0x55}, Font: font.From(sans, 9), XAlign: draw.XLeft, YAlign: draw.YBottom,
		Handler: plot.DefaultTextHandler,
	}
	for _, l := range r.lines {
		y := ty(l.Y)
		if !c.ContainsY(y) {
			continue
		}
		c.StrokeLine2(r.style, c.Min.X, y, c.Max.X, y)
		c.FillText(sty, vg.Point{X: c.Min.X + vg.Points(3), Y: y + vg.Points(1)}, l.Label)
	}
}

func glyphStyle(s Style, r vg.Length) draw.GlyphStyle {
	return draw.GlyphStyle{Color: s.Color, Radius: vg.Points(float64(r)), Shape: s.Glyph}
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

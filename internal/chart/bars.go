package chart

import (
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Stack is one part of stacked bars: its value in every category.
type Stack struct {
	Name   string
	Color  color.Color
	Values []float64
}

// BarPanel is a horizontal bar chart: one bar per category, split into
// stacked parts, with the total written at the end of each bar.
type BarPanel struct {
	Title  string
	XLabel string
	Stacks []Stack
	// BarColors, when set, colours bar i instead of the stack colour
	// (meant for single-stack panels: one colour per category).
	BarColors []color.Color
	// Format writes axis ticks and bar totals.
	Format Format
}

// BarFigure draws panels side by side sharing the category axis (the
// categories are listed top to bottom and named on the left panel only).
type BarFigure struct {
	Header
	Categories []string
	Panels     []BarPanel
	// LegendTitle heads the legend of stacked parts.
	LegendTitle string
	// Note is written under the panels in small type.
	Note string
}

const barThickness = 0.7

// Draw implements Drawer.
func (f BarFigure) Draw(c draw.Canvas) {
	lg := newLegend()
	seen := map[string]bool{}
	for _, p := range f.Panels {
		if p.BarColors != nil {
			continue // colours name the categories, not the parts
		}
		for _, s := range p.Stacks {
			if !drawn(s) {
				continue // a legend names only what is drawn
			}
			if !seen[s.Name] {
				if lg.n == 0 && f.LegendTitle != "" {
					lg.add(f.LegendTitle)
				}
				seen[s.Name] = true
				lg.add(s.Name, swatch{s.Color})
			}
		}
	}
	area := frame(c, f.Header, lg)
	area = drawNote(area, f.Note)
	if len(f.Panels) == 0 || len(f.Categories) == 0 {
		return
	}
	plots := make([]*plot.Plot, len(f.Panels))
	for i, p := range f.Panels {
		plots[i] = f.panel(p, i == 0)
	}
	tiles := draw.Tiles{Rows: 1, Cols: len(plots), PadX: vg.Points(18)}
	cs := plot.Align([][]*plot.Plot{plots}, tiles, area)
	for i, p := range plots {
		p.Draw(cs[0][i])
	}
}

// drawn reports whether a stack has a part to draw (a positive value).
func drawn(s Stack) bool {
	for _, v := range s.Values {
		if v > 0 && !math.IsInf(v, 0) {
			return true
		}
	}
	return false
}

func (f BarFigure) panel(bp BarPanel, names bool) *plot.Plot {
	n := len(f.Categories)
	p := newPlot(bp.XLabel, "")
	if bp.Title != "" {
		p.Title.Text = bp.Title
		p.Title.TextStyle.Font = font.From(sansBold, 12)
		p.Title.Padding = vg.Points(6)
	}
	sh := &shapes{}
	maxTotal := 0.0
	labelStyle := text.Style{
		Color: color.Black, Font: font.From(sans, 10), XAlign: draw.XLeft, YAlign: draw.YCenter,
		Handler: plot.DefaultTextHandler,
	}
	for i := range n {
		y := float64(n - 1 - i)
		x := 0.0
		for _, s := range bp.Stacks {
			v := 0.0
			if i < len(s.Values) && s.Values[i] > 0 && !math.IsInf(s.Values[i], 0) {
				v = s.Values[i]
			}
			clr := s.Color
			if i < len(bp.BarColors) && bp.BarColors[i] != nil {
				clr = bp.BarColors[i]
			}
			if v > 0 {
				sh.rects = append(sh.rects, rect{x, x + v, y - barThickness/2, y + barThickness/2, clr})
			}
			x += v
		}
		maxTotal = math.Max(maxTotal, x)
		sh.labels = append(sh.labels, label{x: x, y: y, dx: vg.Points(4), text: bp.Format.apply(x), style: labelStyle})
	}
	if maxTotal == 0 {
		maxTotal = 1
	}
	grid := plotter.NewGrid()
	grid.Horizontal.Color = nil
	grid.Vertical = draw.LineStyle{Color: gridColor, Width: vg.Points(0.5)}
	p.Add(grid, sh)
	// Room for the total labels at the end of the longest bar.
	p.X.Min, p.X.Max = 0, maxTotal*1.2
	p.X.Tick.Marker = linearTicks(bp.Format)
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
	p.Y.Padding = 0
	p.X.Padding = 0
	return p
}

// drawNote writes note at the bottom of area, wrapped to its width, and
// returns what is left.
func drawNote(area draw.Canvas, note string) draw.Canvas {
	if note == "" {
		return area
	}
	sty := subtitleStyle
	sty.YAlign = draw.YBottom
	sty.XAlign = draw.XLeft
	lines := wrap(sty, note, area.Max.X-area.Min.X)
	text := strings.Join(lines, "\n")
	area.FillText(sty, vg.Point{X: area.Min.X, Y: area.Min.Y}, text)
	area.Min.Y += sty.Rectangle(text).Size().Y + vg.Points(6)
	return area
}

// wrap breaks s into lines no wider than width in style sty.
func wrap(sty text.Style, s string, width vg.Length) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		try := w
		if line != "" {
			try = line + " " + w
		}
		if line != "" && sty.Width(try) > width {
			lines = append(lines, line)
			line = w
			continue
		}
		line = try
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// Categories abbreviates category names longer than max runes with a
// middle ellipsis, keeping names distinct.
func Categories(names []string, max int) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = Abbreviate(n, max)
	}
	for i := range out {
		if slices.Index(out, out[i]) != i {
			out[i] = names[i]
		}
	}
	return out
}

// Abbreviate shortens s to at most max runes with a middle ellipsis.
func Abbreviate(s string, max int) string {
	r := []rune(s)
	if max < 5 || len(r) <= max {
		return s
	}
	head := (max - 1) / 2
	tail := max - 1 - head
	return string(r[:head]) + "…" + string(r[len(r)-tail:])
}

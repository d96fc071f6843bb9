package chart

import (
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Panel is one small multiple: a title and its series (thin ones are
// context, drawn first).
type Panel struct {
	Title  string
	Series []Series
}

// SmallMultiples draws one line plot per panel in a grid, all with the
// same axes (LineFigure's scales, formats, fixed Y range and reference
// lines), the axis labels on the outer panels only. Its height grows with
// the rows.
type SmallMultiples struct {
	LineFigure
	Panels []Panel
	// Cols is the number of columns (0: 4 above 6 panels, else 3, fewer
	// for fewer panels).
	Cols int
}

// cols returns the grid's columns.
func (f SmallMultiples) cols() int {
	n := len(f.Panels)
	switch {
	case f.Cols > 0:
		return f.Cols
	case n > 6:
		return 4
	case n > 2:
		return 3
	}
	return max(n, 1)
}

func (f SmallMultiples) rows() int {
	return max(1, (len(f.Panels)+f.cols()-1)/f.cols())
}

// Size implements Sized: 960 px wide, about 200 px per row of panels plus
// the header and note.
func (f SmallMultiples) Size() (w, h vg.Length) {
	return Width, vg.Length(math.Max(float64(Height), float64(vg.Points(72)+vg.Length(f.rows())*vg.Points(152))))
}

// Draw implements Drawer.
func (f SmallMultiples) Draw(c draw.Canvas) {
	area := drawNote(frame(c, f.Header, nil), f.Note)
	if len(f.Panels) == 0 {
		return
	}
	cols, rows := f.cols(), f.rows()
	// Shared ranges: every panel gets the union of the panels' data.
	var all []Series
	for _, p := range f.Panels {
		all = append(all, p.Series...)
	}
	ref := f.plot("", "", all)
	grid := make([][]*plot.Plot, rows)
	for r := range grid {
		grid[r] = make([]*plot.Plot, cols)
	}
	for i, pn := range f.Panels {
		r, k := i/cols, i%cols
		xl, yl := "", ""
		if r == rows-1 || i+cols >= len(f.Panels) {
			xl = f.XLabel
		}
		if k == 0 {
			yl = f.YLabel
		}
		p := f.plot(xl, yl, pn.Series)
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = ref.X.Min, ref.X.Max, ref.Y.Min, ref.Y.Max
		p.X.Scale, p.Y.Scale = ref.X.Scale, ref.Y.Scale
		p.X.Tick.Marker, p.Y.Tick.Marker = ref.X.Tick.Marker, ref.Y.Tick.Marker
		p.Title.Text = pn.Title
		p.Title.TextStyle.Font = font.From(sansBold, 10)
		p.Title.Padding = vg.Points(3)
		for _, ax := range []*plot.Axis{&p.X, &p.Y} {
			ax.Label.TextStyle.Font = font.From(sans, 10)
			ax.Tick.Label.Font = font.From(sans, 8.5)
		}
		grid[r][k] = p
	}
	// Empty cells of the last row get an invisible plot so the grid aligns.
	for r := range grid {
		for k := range grid[r] {
			if grid[r][k] == nil {
				p := plot.New()
				p.HideAxes()
				grid[r][k] = p
			}
		}
	}
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(10), PadY: vg.Points(8)}
	cs := plot.Align(grid, tiles, area)
	for r := range grid {
		for k := range grid[r] {
			grid[r][k].Draw(cs[r][k])
		}
	}
}

package chart

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// shapes is a plotter of rectangles, whiskers and labels in data
// coordinates.
type shapes struct {
	rects    []rect
	whiskers []whisker
	labels   []label
	glyphs   []glyph
}

type rect struct {
	x0, x1, y0, y1 float64
	color          color.Color
}

// whisker is a segment with caps at both ends.
type whisker struct {
	x0, y0, x1, y1 float64
	style          draw.LineStyle
	cap            vg.Length
}

type label struct {
	x, y   float64
	dx, dy vg.Length
	text   string
	style  text.Style
}

type glyph struct {
	x, y  float64
	style draw.GlyphStyle
}

func (s *shapes) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	for _, r := range s.rects {
		pts := []vg.Point{
			{X: tx(r.x0), Y: ty(r.y0)}, {X: tx(r.x1), Y: ty(r.y0)},
			{X: tx(r.x1), Y: ty(r.y1)}, {X: tx(r.x0), Y: ty(r.y1)},
		}
		c.FillPolygon(r.color, c.ClipPolygonXY(pts))
	}
	for _, w := range s.whiskers {
		a := vg.Point{X: tx(w.x0), Y: ty(w.y0)}
		b := vg.Point{X: tx(w.x1), Y: ty(w.y1)}
		c.StrokeLines(w.style, c.ClipLinesXY([]vg.Point{a, b})...)
		if w.cap > 0 {
			// Caps are perpendicular to the segment.
			dx, dy := b.X-a.X, b.Y-a.Y
			n := vg.Length(math.Hypot(float64(dx), float64(dy)))
			if n == 0 {
				continue
			}
			ux, uy := -dy/n*w.cap/2, dx/n*w.cap/2
			for _, e := range []vg.Point{a, b} {
				c.StrokeLines(w.style, c.ClipLinesXY([]vg.Point{{X: e.X - ux, Y: e.Y - uy}, {X: e.X + ux, Y: e.Y + uy}})...)
			}
		}
	}
	for _, g := range s.glyphs {
		pt := vg.Point{X: tx(g.x), Y: ty(g.y)}
		if c.Contains(pt) {
			c.DrawGlyph(g.style, pt)
		}
	}
	for _, l := range s.labels {
		c.FillText(l.style, vg.Point{X: tx(l.x) + l.dx, Y: ty(l.y) + l.dy}, l.text)
	}
}

// DataRange covers rectangles, whiskers and glyphs (labels are not
// included: callers leave room for them).
func (s *shapes) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	grow := func(x, y float64) {
		xmin, xmax = math.Min(xmin, x), math.Max(xmax, x)
		ymin, ymax = math.Min(ymin, y), math.Max(ymax, y)
	}
	for _, r := range s.rects {
		grow(r.x0, r.y0)
		grow(r.x1, r.y1)
	}
	for _, w := range s.whiskers {
		grow(w.x0, w.y0)
		grow(w.x1, w.y1)
	}
	for _, g := range s.glyphs {
		grow(g.x, g.y)
	}
	return xmin, xmax, ymin, ymax
}

// swatch is a legend thumbnail: a filled square.
type swatch struct{ color color.Color }

func (s swatch) Thumbnail(c *draw.Canvas) {
	side := math.Min(float64(c.Max.X-c.Min.X), float64(c.Max.Y-c.Min.Y))
	x0 := c.Min.X + (c.Max.X-c.Min.X-vg.Length(side))/2
	pts := []vg.Point{
		{X: x0, Y: c.Min.Y}, {X: x0 + vg.Length(side), Y: c.Min.Y},
		{X: x0 + vg.Length(side), Y: c.Min.Y + vg.Length(side)}, {X: x0, Y: c.Min.Y + vg.Length(side)},
	}
	c.FillPolygon(s.color, pts)
}

// lineThumb is a legend thumbnail: a line with an optional marker.
type lineThumb struct {
	line  draw.LineStyle
	glyph *draw.GlyphStyle
}

func (t lineThumb) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(t.line, c.Min.X, y, c.Max.X, y)
	if t.glyph != nil {
		c.DrawGlyphNoClip(*t.glyph, c.Center())
	}
}

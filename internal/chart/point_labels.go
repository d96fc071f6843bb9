package chart

import (
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// pointLabels writes a short label next to each point, merging the labels
// of points drawn at the same place ("8, 9") and moving a label to another
// side of its point when it would overlap a label or point already placed.
type pointLabels struct {
	pts   []labelledPoint
	style text.Style
	// clearance is the radius kept free around every point.
	clearance vg.Length
}

type labelledPoint struct {
	x, y float64
	text string
}

func (l pointLabels) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	type group struct {
		at    vg.Point
		texts []string
	}
	var groups []group
	for _, pt := range l.pts {
		at := vg.Point{X: tx(pt.x), Y: ty(pt.y)}
		merged := false
		for i := range groups {
			if dist(groups[i].at, at) < vg.Points(4) {
				groups[i].texts = append(groups[i].texts, pt.text)
				merged = true
				break
			}
		}
		if !merged {
			groups = append(groups, group{at: at, texts: []string{pt.text}})
		}
	}
	var taken []vg.Rectangle
	for _, g := range groups {
		r := l.clearance
		taken = append(taken, vg.Rectangle{Min: vg.Point{X: g.at.X - r, Y: g.at.Y - r}, Max: vg.Point{X: g.at.X + r, Y: g.at.Y + r}})
	}
	for _, g := range groups {
		txt := strings.Join(g.texts, ", ")
		size := l.style.Rectangle(txt).Size()
		gap := l.clearance
		// Candidate lower-left corners: NE, SE, NW, SW, then further out.
		cands := []vg.Point{
			{X: g.at.X + gap, Y: g.at.Y + gap/2},
			{X: g.at.X + gap, Y: g.at.Y - gap/2 - size.Y},
			{X: g.at.X - gap - size.X, Y: g.at.Y + gap/2},
			{X: g.at.X - gap - size.X, Y: g.at.Y - gap/2 - size.Y},
			{X: g.at.X - size.X/2, Y: g.at.Y + gap},
			{X: g.at.X - size.X/2, Y: g.at.Y - gap - size.Y},
			{X: g.at.X + 2*gap, Y: g.at.Y + 2*gap},
			{X: g.at.X + 2*gap, Y: g.at.Y - 2*gap - size.Y},
		}
		best := cands[0]
		for _, cand := range cands {
			box := vg.Rectangle{Min: cand, Max: vg.Point{X: cand.X + size.X, Y: cand.Y + size.Y}}
			if !overlapsAny(box, taken) && inside(box, c.Rectangle) {
				best = cand
				break
			}
		}
		taken = append(taken, vg.Rectangle{Min: best, Max: vg.Point{X: best.X + size.X, Y: best.Y + size.Y}})
		sty := l.style
		sty.XAlign, sty.YAlign = draw.XLeft, draw.YBottom
		c.FillText(sty, best, txt)
	}
}

func dist(a, b vg.Point) vg.Length {
	return vg.Length(math.Hypot(float64(a.X-b.X), float64(a.Y-b.Y)))
}

func overlapsAny(r vg.Rectangle, rs []vg.Rectangle) bool {
	for _, o := range rs {
		if r.Min.X < o.Max.X && o.Min.X < r.Max.X && r.Min.Y < o.Max.Y && o.Min.Y < r.Max.Y {
			return true
		}
	}
	return false
}

func inside(r, outer vg.Rectangle) bool {
	return r.Min.X >= outer.Min.X && r.Min.Y >= outer.Min.Y && r.Max.X <= outer.Max.X && r.Max.Y <= outer.Max.Y
}

package chart

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// pointLabels writes each point's label (its name) next to it, placed
// where it overlaps no other label, marker, whisker or line: the first free
// spot among positions around the point at growing distances, joined to
// the point by a thin leader line when it is not right beside it. Points
// drawn at the same place share one label, their names on separate lines.
type pointLabels struct {
	pts   []labelledPoint
	style text.Style
	// glyphR is the radius of the point markers.
	glyphR vg.Length
	// segments are lines in data coordinates the labels must not cross
	// (whiskers, the frontier).
	segments [][2]XY
}

type labelledPoint struct {
	x, y float64
	text string
}

// placed is a label's box and, when it stands off, its leader line.
type placed struct {
	box      vg.Rectangle
	text     string
	leader   bool
	from, to vg.Point
}

// labelInput is a label to place: its point and size in canvas units.
type labelInput struct {
	at   vg.Point
	text string
	size vg.Point
}

var leaderStyle = draw.LineStyle{Color: color.Gray{Y: 0x99}, Width: vg.Points(0.6)}

func (l pointLabels) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	var in []labelInput
	for _, pt := range l.pts {
		at := vg.Point{X: tx(pt.x), Y: ty(pt.y)}
		merged := false
		for i := range in {
			if dist(in[i].at, at) < vg.Points(4) {
				in[i].text += "\n" + pt.text
				merged = true
				break
			}
		}
		if !merged {
			in = append(in, labelInput{at: at, text: pt.text})
		}
	}
	for i := range in {
		in[i].size = l.style.Rectangle(in[i].text).Size()
	}
	var segs [][2]vg.Point
	for _, s := range l.segments {
		segs = append(segs, [2]vg.Point{{X: tx(s[0].X), Y: ty(s[0].Y)}, {X: tx(s[1].X), Y: ty(s[1].Y)}})
	}
	for _, pl := range placeLabels(c.Rectangle, in, l.glyphR, segs) {
		if pl.leader {
			c.StrokeLine2(leaderStyle, pl.from.X, pl.from.Y, pl.to.X, pl.to.Y)
		}
		sty := l.style
		sty.XAlign, sty.YAlign = draw.XLeft, draw.YTop
		c.FillText(sty, vg.Point{X: pl.box.Min.X, Y: pl.box.Max.Y}, pl.text)
	}
}

// Distances (in points) and directions tried around a point, nearest
// first; right of the point is preferred, then left, above and below.
var (
	labelRadii  = []float64{3, 10, 20, 32, 46, 62, 80}
	labelAngles = []float64{0, 30, -30, 180, 150, -150, 60, -60, 120, -120, 90, -90}
)

// placeLabels places every label inside bounds without overlapping the
// point markers (radius r), the segments or the labels and leader lines
// already placed. A label that fits nowhere takes the spot with the
// fewest overlaps.
func placeLabels(bounds vg.Rectangle, in []labelInput, r vg.Length, segs [][2]vg.Point) []placed {
	var markers []vg.Rectangle
	pad := r + vg.Points(1.5)
	for _, l := range in {
		markers = append(markers, vg.Rectangle{Min: vg.Point{X: l.at.X - pad, Y: l.at.Y - pad}, Max: vg.Point{X: l.at.X + pad, Y: l.at.Y + pad}})
	}
	var out []placed
	for _, l := range in {
		best, bestCost := placed{}, math.Inf(1)
		for _, rad := range labelRadii {
			for _, deg := range labelAngles {
				pl := candidate(l, float64(r)+rad, deg)
				cost := overlaps(pl, bounds, markers, segs, out)
				if rad > labelRadii[0] {
					cost += 0.001 * rad // nearer is better among equals
				}
				if cost < bestCost {
					best, bestCost = pl, cost
				}
			}
			if bestCost < 1 {
				break
			}
		}
		out = append(out, best)
	}
	return out
}

// candidate puts l's box at distance d from its point in direction deg,
// the box's nearest side facing the point.
func candidate(l labelInput, d, deg float64) placed {
	rad := deg * math.Pi / 180
	cx, cy := math.Cos(rad), math.Sin(rad)
	anchor := vg.Point{X: l.at.X + vg.Length(d*cx), Y: l.at.Y + vg.Length(d*cy)}
	min := vg.Point{X: anchor.X - l.size.X/2, Y: anchor.Y - l.size.Y/2}
	switch {
	case cx > 0.3:
		min.X = anchor.X
	case cx < -0.3:
		min.X = anchor.X - l.size.X
	}
	switch {
	case cy > 0.3:
		min.Y = anchor.Y
	case cy < -0.3:
		min.Y = anchor.Y - l.size.Y
	}
	box := vg.Rectangle{Min: min, Max: vg.Point{X: min.X + l.size.X, Y: min.Y + l.size.Y}}
	pl := placed{box: box, text: l.text}
	if d > float64(vg.Points(12)) {
		pl.leader, pl.from, pl.to = true, l.at, nearestOn(box, l.at)
	}
	return pl
}

// overlaps counts what pl collides with: 1 per marker, segment or leader
// crossed, 3 per label overlapped, 5 when it leaves bounds.
func overlaps(pl placed, bounds vg.Rectangle, markers []vg.Rectangle, segs [][2]vg.Point, done []placed) float64 {
	box := grow(pl.box, vg.Points(1))
	cost := 0.0
	if !inside(box, bounds) {
		cost += 5
	}
	for _, m := range markers {
		if intersects(box, m) {
			cost++
		}
	}
	for _, s := range segs {
		if segmentHits(s[0], s[1], box) {
			cost++
		}
	}
	for _, d := range done {
		if intersects(box, grow(d.box, vg.Points(1))) {
			cost += 3
		}
		if d.leader && segmentHits(d.from, d.to, box) {
			cost++
		}
		if pl.leader && segmentHits(pl.from, pl.to, d.box) {
			cost++
		}
	}
	if pl.leader {
		for _, m := range markers {
			// The leader may leave its own point's marker, not cross others.
			if !contains(m, pl.from) && segmentHits(pl.from, pl.to, m) {
				cost++
			}
		}
	}
	return cost
}

func grow(r vg.Rectangle, d vg.Length) vg.Rectangle {
	return vg.Rectangle{Min: vg.Point{X: r.Min.X - d, Y: r.Min.Y - d}, Max: vg.Point{X: r.Max.X + d, Y: r.Max.Y + d}}
}

func nearestOn(r vg.Rectangle, p vg.Point) vg.Point {
	return vg.Point{X: clamp(p.X, r.Min.X, r.Max.X), Y: clamp(p.Y, r.Min.Y, r.Max.Y)}
}

func clamp(v, lo, hi vg.Length) vg.Length {
	return vg.Length(math.Max(float64(lo), math.Min(float64(hi), float64(v))))
}

func intersects(a, b vg.Rectangle) bool {
	return a.Min.X < b.Max.X && b.Min.X < a.Max.X && a.Min.Y < b.Max.Y && b.Min.Y < a.Max.Y
}

// segmentHits reports whether segment ab meets rectangle r (Liang–Barsky
// clipping).
func segmentHits(a, b vg.Point, r vg.Rectangle) bool {
	t0, t1 := 0.0, 1.0
	dx, dy := float64(b.X-a.X), float64(b.Y-a.Y)
	for _, e := range [4][2]float64{
		{-dx, float64(a.X - r.Min.X)}, {dx, float64(r.Max.X - a.X)},
		{-dy, float64(a.Y - r.Min.Y)}, {dy, float64(r.Max.Y - a.Y)},
	} {
		p, q := e[0], e[1]
		if p == 0 {
			if q < 0 {
				return false
			}
			continue
		}
		t := q / p
		if p < 0 {
			t0 = math.Max(t0, t)
		} else {
			t1 = math.Min(t1, t)
		}
		if t0 > t1 {
			return false
		}
	}
	return true
}

func dist(a, b vg.Point) vg.Length {
	return vg.Length(math.Hypot(float64(a.X-b.X), float64(a.Y-b.Y)))
}

func inside(r, outer vg.Rectangle) bool {
	return r.Min.X >= outer.Min.X && r.Min.Y >= outer.Min.Y && r.Max.X <= outer.Max.X && r.Max.Y <= outer.Max.Y
}

func contains(r vg.Rectangle, p vg.Point) bool {
	return p.X >= r.Min.X && p.X <= r.Max.X && p.Y >= r.Min.Y && p.Y <= r.Max.Y
}

package chart

import (
	"fmt"
	"testing"

	"gonum.org/v1/plot/vg"
)

// TestLabelsDoNotCollide pins label placement on a crowded scatter like
// the report's cost vs p95 plot (labels once overlapped: "3, 4" on
// "11, 12"): no label overlaps another label or a marker, and every label
// stays inside the plot.
func TestLabelsDoNotCollide(t *testing.T) {
	bounds := vg.Rectangle{Max: vg.Point{X: 600, Y: 380}}
	at := []vg.Point{{X: 50, Y: 100}, {X: 54, Y: 104}, {X: 60, Y: 96}, {X: 160, Y: 90}, {X: 170, Y: 150}, {X: 175, Y: 152}, {X: 260, Y: 80}, {X: 420, Y: 220}, {X: 430, Y: 240},
		{X: 440, Y: 230}, {X: 300, Y: 170}, {X: 305, Y: 168}}
	var in []labelInput
	for i, p := range at {
		name := fmt.Sprintf("a-strategy-name-%d", i)
		in = append(in, labelInput{at: p, text: name, size: vg.Point{X: vg.Length(6 * len(name)), Y: 12}})
	}
	// Whiskers through some points, as the plot has.
	segs := [][2]vg.Point{{{X: 50, Y: 60}, {X: 50, Y: 140}}, {{X: 30, Y: 100}, {X: 90, Y: 100}}, {{X: 420, Y: 180}, {X: 420, Y: 270}}, {{X: 300, Y: 120}, {X: 300, Y: 220}}}
	got := placeLabels(bounds, in, 4.5, segs)
	if len(got) != len(in) {
		t.Fatalf("%d labels placed for %d", len(got), len(in))
	}
	for i, a := range got {
		if !inside(a.box, bounds) {
			t.Errorf("label %d outside the plot: %+v", i, a.box)
		}
		for j, b := range got[:i] {
			if intersects(a.box, b.box) {
				t.Errorf("labels %d and %d overlap", i, j)
			}
		}
		for j, p := range at {
			r := vg.Length(4.5)
			m := vg.Rectangle{Min: vg.Point{X: p.X - r, Y: p.Y - r}, Max: vg.Point{X: p.X + r, Y: p.Y + r}}
			if intersects(a.box, m) {
				t.Errorf("label %d covers the marker of point %d", i, j)
			}
		}
		for k, s := range segs {
			if segmentHits(s[0], s[1], a.box) {
				t.Errorf("label %d crosses whisker %d", i, k)
			}
		}
	}
}

func TestSegmentHits(t *testing.T) {
	r := vg.Rectangle{Min: vg.Point{X: 10, Y: 10}, Max: vg.Point{X: 20, Y: 20}}
	tests := []struct {
		a, b vg.Point
		want bool
	}{
		{vg.Point{X: 0, Y: 15}, vg.Point{X: 30, Y: 15}, true},  // through
		{vg.Point{X: 12, Y: 12}, vg.Point{X: 13, Y: 13}, true}, // inside
		{vg.Point{X: 0, Y: 0}, vg.Point{X: 5, Y: 30}, false},   // beside
		{vg.Point{X: 0, Y: 25}, vg.Point{X: 25, Y: 25}, false}, // above
		{vg.Point{X: 0, Y: 0}, vg.Point{X: 30, Y: 30}, true},   // diagonal
	}
	for _, tc := range tests {
		if got := segmentHits(tc.a, tc.b, r); got != tc.want {
			t.Errorf("segmentHits(%v, %v) = %v", tc.a, tc.b, got)
		}
	}
}

// TestNiceRangeKeepsEnds pins that a linear axis covers its data (whisker
// caps included) between labelled ticks: the sweep plots once cut whiskers
// off and left lines below the lowest tick.
func TestNiceRangeKeepsEnds(t *testing.T) {
	for _, tc := range [][2]float64{{7.5, 10.56}, {2.1, 2.4}, {0, 0.857}, {120, 20000}, {-3, 5}} {
		lo, hi := niceRange(tc[0], tc[1])
		if lo > tc[0] || hi < tc[1] {
			t.Errorf("niceRange(%v, %v) = [%v, %v] does not cover the data", tc[0], tc[1], lo, hi)
		}
		step := niceStep((hi - lo) / 6)
		if r := lo / step; r != float64(int64(r)) {
			t.Errorf("niceRange(%v, %v) = [%v, %v]: the low end is not a tick (step %v)", tc[0], tc[1], lo, hi, step)
		}
		if tc[0] >= 0 && lo < 0 {
			t.Errorf("niceRange(%v, %v) goes below 0", tc[0], tc[1])
		}
	}
	lo, hi := logRange(2.2, 25)
	if lo != 2 || hi != 50 {
		t.Errorf("logRange(2.2, 25) = [%v, %v], want [2, 50]", lo, hi)
	}
}

package chart

import (
	"bytes"
	"fmt"
	"image/color"
	"image/png"
	"math"
	"testing"

	"gonum.org/v1/plot"
)

func sampleFigures() map[string]Drawer {
	cats := []string{"alpha", "beta", "a-rather-long-strategy-name-that-goes-on"}
	series := func(n int, logish bool) []Series {
		var out []Series
		for i := range n {
			s := Series{Name: fmt.Sprintf("s%d", i), Style: SeriesStyle(i), Points: i%2 == 0}
			for k := range 10 {
				x := float64(k + 1)
				if logish {
					x = math.Pow(3, float64(k))
				}
				s.X = append(s.X, x)
				s.Y = append(s.Y, float64(k*10+i))
				s.YLow = append(s.YLow, float64(k*10+i)-2)
				s.YHigh = append(s.YHigh, float64(k*10+i)+2)
			}
			s.Marks = []XY{{X: s.X[4], Y: s.Y[4]}}
			out = append(out, s)
		}
		return out
	}
	return map[string]Drawer{
		"bars": BarFigure{
			Header: Header{Title: "Bars", Subtitle: "sub"}, Categories: cats, LegendTitle: "parts:", Note: "a note",
			Panels: []BarPanel{
				{XLabel: "x", Stacks: []Stack{{Name: "a", Color: ColorUncached, Values: []float64{1, 2, 3}}, {Name: "b", Color: ColorOutput, Values: []float64{3, 0, -1}}}},
				{Title: "second", XLabel: "y", Stacks: []Stack{{Name: "c", Values: []float64{0, 0, 0}}}, BarColors: []color.Color{palette[0], palette[1], palette[2]}},
			},
		},
		"bars empty":   BarFigure{Header: Header{Title: "Empty"}},
		"lines 24":     LineFigure{Header: Header{Title: "Lines"}, XLabel: "x", YLabel: "y", Series: series(24, false), RefY: []RefLine{{Y: 50, Label: "p50"}}, LegendNotes: []string{"note"}},
		"lines log":    LineFigure{Header: Header{Title: "Log"}, Series: series(3, true), LogX: true, YRange: XY{0, 100}},
		"lines NaN":    LineFigure{Series: []Series{{Name: "nan", X: []float64{math.NaN(), 0, 1}, Y: []float64{1, math.Inf(1), 2}}}, LogX: true},
		"lines none":   LineFigure{Header: Header{Title: "No series"}},
		"scatter":      ScatterFigure{Header: Header{Title: "Scatter"}, Points: []Point{{Name: "a", Style: SeriesStyle(0), X: 1, Y: 2, XLow: 0.9, XHigh: 1.1, HasX: true, OnFrontier: true}, {Name: "b", Style: SeriesStyle(1), X: 2, Y: 1, YLow: 0.5, YHigh: 1.5, HasY: true, OnFrontier: true}, {Name: "c", Style: SeriesStyle(2), X: math.NaN(), Y: math.NaN()}}},
		"scatter same": ScatterFigure{Points: []Point{{Name: "a", X: 1, Y: 1}, {Name: "b", X: 1, Y: 1}}},
	}
}

func TestFiguresEncodeDeterministically(t *testing.T) {
	w, h := PixelSize()
	for name, fig := range sampleFigures() {
		t.Run(name, func(t *testing.T) {
			p1, s1, err := Encode(fig)
			if err != nil {
				t.Fatal(err)
			}
			p2, s2, err := Encode(fig)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(p1, p2) || !bytes.Equal(s1, s2) {
				t.Fatal("two renderings differ")
			}
			img, err := png.Decode(bytes.NewReader(p1))
			if err != nil {
				t.Fatal(err)
			}
			if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
				t.Fatalf("size %v", b)
			}
		})
	}
}

func TestSeriesStyle(t *testing.T) {
	seen := map[color.RGBA]bool{}
	for i := range 12 {
		s := SeriesStyle(i)
		if seen[s.Color] || s.Dashes != nil {
			t.Fatalf("style %d: repeated colour or dashed", i)
		}
		seen[s.Color] = true
	}
	if s := SeriesStyle(12); s.Color != SeriesStyle(0).Color || s.Dashes == nil {
		t.Fatal("the 13th series is not a dashed first colour")
	}
	if SeriesStyle(-1).Color != SeriesStyle(0).Color {
		t.Fatal("negative index")
	}
}

func TestAbbreviate(t *testing.T) {
	if got := Abbreviate("anchor-e4-budget-or-categorical", 12); got != "ancho…orical" || len([]rune(got)) != 12 {
		t.Errorf("Abbreviate = %q", got)
	}
	if got := Abbreviate("short", 12); got != "short" {
		t.Errorf("Abbreviate(short) = %q", got)
	}
	got := Categories([]string{"prefix-aaaa-suffix", "prefix-bbbb-suffix"}, 9)
	if got[0] == got[1] {
		t.Errorf("Categories collapsed distinct names: %v", got)
	}
}

func TestTicks(t *testing.T) {
	for _, tc := range []struct{ in, want float64 }{{0.13, 0.2}, {1, 1}, {3, 5}, {7, 10}, {1200, 2000}} {
		if got := niceStep(tc.in); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("niceStep(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
	labels := func(ts []plot.Tick) (out []string) {
		for _, t := range ts {
			if t.Label != "" {
				out = append(out, t.Label)
			}
		}
		return out
	}
	if got := fmt.Sprint(labels(linearTicks(nil).Ticks(0, 60))); got != "[0 10 20 30 40 50 60]" {
		t.Errorf("linear ticks %s", got)
	}
	if got := fmt.Sprint(labels(logTicks(nil).Ticks(0.5, 30))); got != "[0.5 1 2 5 10 20]" {
		t.Errorf("log ticks %s", got)
	}
	if got := fmt.Sprint(labels(logTicks(nil).Ticks(1, 1e5))); got != "[1 10 100 1000 1e+04 1e+05]" {
		t.Errorf("wide log ticks %s", got)
	}
	if logTicks(nil).Ticks(0, 1) != nil {
		t.Error("log ticks over a non-positive range")
	}
}

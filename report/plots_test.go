package report

import (
	"bytes"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"

	"github.com/defersim/defersim/internal/chart"
	"github.com/defersim/defersim/sim"
)

func TestFiguresRenderDeterministically(t *testing.T) {
	res := sampleResults(t, 12, 60)
	if w, h := chart.PixelSize(); w != 960 || h != 600 {
		t.Fatalf("figure size %d×%d, want 960×600", w, h)
	}
	figs := figures(res)
	if len(figs) != 6 {
		t.Fatalf("%d figures, want 6", len(figs))
	}
	for _, f := range figs {
		t.Run(f.Name, func(t *testing.T) {
			png1, svg1, err := chart.Encode(f.draw)
			if err != nil {
				t.Fatal(err)
			}
			png2, svg2, err := chart.Encode(f.draw)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(png1, png2) || !bytes.Equal(svg1, svg2) {
				t.Fatal("rendering twice gave different bytes")
			}
			img, err := png.Decode(bytes.NewReader(png1))
			if err != nil {
				t.Fatal(err)
			}
			w, h := chart.SizeOf(f.draw)
			wantW, wantH := int(math.Round(float64(w/vg.Inch*chart.DPI))), int(math.Round(float64(h/vg.Inch*chart.DPI)))
			if wantW != 960 || wantH < 600 {
				t.Fatalf("figure size %d×%d, want 960 wide and at least 600 high", wantW, wantH)
			}
			if b := img.Bounds(); b.Dx() != wantW || b.Dy() != wantH {
				t.Fatalf("PNG is %d×%d, want %d×%d", b.Dx(), b.Dy(), wantW, wantH)
			}
			if !bytes.Contains(svg1, []byte("<svg")) {
				t.Fatal("SVG output has no <svg> element")
			}
			if strings.Count(f.About, ". ") != 1 || !strings.HasSuffix(f.About, ".") {
				t.Errorf("about text is not two sentences: %q", f.About)
			}
		})
	}
}

func TestFiguresFromSavedResults(t *testing.T) {
	// A results file re-read from disk renders to the same bytes.
	res := sampleResults(t, 3, 30)
	data, err := MarshalResults(res)
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeResults(data)
	if err != nil {
		t.Fatal(err)
	}
	a, b := figures(res), figures(back)
	for i := range a {
		pa, _, err := chart.Encode(a[i].draw)
		if err != nil {
			t.Fatal(err)
		}
		pb, _, _ := chart.Encode(b[i].draw)
		if !bytes.Equal(pa, pb) {
			t.Errorf("%s differs after a results.json round trip", a[i].Name)
		}
	}
}

func TestFiguresWithoutPricesOrData(t *testing.T) {
	res := sampleResults(t, 2, 10)
	res.Prices = nil
	empty, err := Build(syntheticOutcomes(2, 0, 1), syntheticInfo(), BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []*Results{res, empty} {
		for _, f := range figures(r) {
			if _, _, err := chart.Encode(f.draw); err != nil {
				t.Errorf("%s: %v", f.Name, err)
			}
		}
	}
}

func TestLogAxisChosenForWideLatencies(t *testing.T) {
	res := sampleResults(t, 2, 40)
	lf := firstReplyFigure(res).draw.(chart.SmallMultiples)
	if lf.LogX {
		t.Error("synthetic latencies within 20× got a log axis")
	}
	d := res.Strategies[0].Metrics["first_reply_ms"]
	d.Quantiles[100] = d.Quantiles[0] * 50
	res.Strategies[0].Metrics["first_reply_ms"] = d
	if lf := firstReplyFigure(res).draw.(chart.SmallMultiples); !lf.LogX {
		t.Error("latencies spanning 50× did not get a log axis")
	}
}

func TestParetoFront(t *testing.T) {
	pts := []chart.Point{{X: 1, Y: 5}, {X: 2, Y: 2}, {X: 3, Y: 3}, {X: 5, Y: 1}, {X: 2, Y: 2}}
	got := paretoFront(pts)
	want := []bool{true, true, false, true, true}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("point %d (%v,%v): front=%v, want %v", i, pts[i].X, pts[i].Y, got[i], want[i])
		}
	}
}

func TestSweepPlot(t *testing.T) {
	var results []*Results
	values := []float64{10, 20, 30}
	for i := range values {
		p := syntheticPrices
		r, err := Build(syntheticOutcomes(3, 30, uint64(i+1)), syntheticInfo(), BuildOptions{Prices: &p, Bootstrap: 100})
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, r)
	}
	dir := t.TempDir()
	if err := SweepPlot("trigger.count", values, results, "cost_usd", dir); err != nil {
		t.Fatal(err)
	}
	name := SweepPlotName("trigger.count", "cost_usd")
	if name != "sweep-trigger.count-cost_usd" {
		t.Errorf("sweep plot name %q", name)
	}
	f, err := os.Open(filepath.Join(dir, name+".png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, name+".svg")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		values  []float64
		results []*Results
		metric  string
	}{
		{"length mismatch", values[:2], results, "cost_usd"},
		{"no results", nil, nil, "cost_usd"},
		{"unknown metric", values, results, "bogus"},
		{"nil results", values, []*Results{results[0], nil, results[2]}, "cost_usd"},
	} {
		if err := SweepPlot("p", tc.values, tc.results, tc.metric, dir); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

// TestErrorsFigureShowsIgnoredArguments pins that the errors figure gets
// a panel for ignored arguments (accepted calls that lose an argument)
// when a strategy has any, between malformed calls and extra round trips,
// and keeps its two panels otherwise.
func TestErrorsFigureShowsIgnoredArguments(t *testing.T) {
	res := sampleResults(t, 3, 30)
	panels := func() []string {
		var out []string
		for _, p := range errorsFigure(res).draw.(chart.DotFigure).Panels {
			out = append(out, p.Title)
		}
		return out
	}
	if got := panels(); !slices.Equal(got, []string{"Malformed calls", "Extra round trips"}) {
		t.Fatalf("without ignored arguments: panels %v", got)
	}
	name := sim.Metrics[sim.MIgnoredArguments].Name
	d := res.Strategies[1].Metrics[name]
	d.Mean, d.MeanCI = 0.02, &Interval{Low: 0.01, High: 0.03}
	res.Strategies[1].Metrics[name] = d
	if got := panels(); !slices.Equal(got, []string{"Malformed calls", "Ignored arguments", "Extra round trips"}) {
		t.Fatalf("with ignored arguments: panels %v", got)
	}
	f := errorsFigure(res)
	if _, _, err := chart.Encode(f.draw); err != nil {
		t.Fatal(err)
	}
	if dp := f.draw.(chart.DotFigure).Panels[1]; dp.Values[1] != 20 || dp.Low[1] != 10 || dp.High[1] != 30 {
		t.Errorf("ignored arguments panel: %v [%v, %v] per 1,000 sessions, want 20 [10, 30]", dp.Values[1], dp.Low[1], dp.High[1])
	}
	if strings.Count(f.About, ". ") != 1 {
		t.Errorf("about text is not two sentences: %q", f.About)
	}
}

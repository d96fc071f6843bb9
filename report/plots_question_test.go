package report

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/chart"
	"github.com/defersim/defersim/sim"
)

// TestLegendOnlyWhatIsDrawn pins that a token kind that is 0 in every bar
// is not in the legend (the tokens plot once listed "uncached input" with
// no bar to show for it).
func TestLegendOnlyWhatIsDrawn(t *testing.T) {
	res := sampleResults(t, 2, 20)
	for i := range res.Strategies {
		d := res.Strategies[i].Metrics[sim.Metrics[sim.MUncachedTokens].Name]
		d.Mean = 0
		res.Strategies[i].Metrics[sim.Metrics[sim.MUncachedTokens].Name] = d
	}
	_, svg, err := chart.Encode(tokensFigure(res).draw)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(svg, []byte("uncached input")) {
		t.Error("legend names uncached input, which no bar draws")
	}
	if !bytes.Contains(svg, []byte("cache read")) {
		t.Error("legend lacks cache read, which the bars draw")
	}
}

// TestRatesPerThousandWithIntervals pins the rate plot: dots per 1,000
// sessions with the intervals of the means, on an axis from 0.
func TestRatesPerThousandWithIntervals(t *testing.T) {
	res := sampleResults(t, 3, 40)
	fig := errorsFigure(res).draw.(chart.DotFigure)
	for pi, m := range []int{sim.MMalformedCalls, sim.MExtraRoundTrips} {
		dp := fig.Panels[pi]
		if !strings.Contains(dp.XLabel, "per 1,000 sessions") {
			t.Errorf("panel %d: x label %q", pi, dp.XLabel)
		}
		for i := range res.Strategies {
			d := res.Strategies[i].Metrics[sim.Metrics[m].Name]
			if math.Abs(dp.Values[i]-d.Mean*1000) > 1e-9 {
				t.Errorf("panel %d strategy %d: %v, want %v", pi, i, dp.Values[i], d.Mean*1000)
			}
			if d.MeanCI != nil && (dp.Low[i] != d.MeanCI.Low*1000 || dp.High[i] != d.MeanCI.High*1000) {
				t.Errorf("panel %d strategy %d: interval [%v, %v], want the mean's ×1000", pi, i, dp.Low[i], dp.High[i])
			}
		}
	}
}

// TestSweepAxesNameTheirUnits pins one unit per axis, named in the axis
// label and matching the title (the title once said first_reply_ms over an
// axis in seconds, and the x axis had no unit).
func TestSweepAxesNameTheirUnits(t *testing.T) {
	var results []*Results
	values := []float64{2000, 8000}
	for i := range values {
		p := syntheticPrices
		r, err := Build(syntheticOutcomes(2, 20, uint64(i+1)), syntheticInfo(), BuildOptions{Prices: &p, Bootstrap: 50})
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, r)
	}
	fig, err := sweepFigure("strategy.trigger.budget", values, results, "first_reply_ms")
	if err != nil {
		t.Fatal(err)
	}
	lf := fig.draw.(chart.LineFigure)
	if lf.XLabel != "strategy.trigger.budget (estimated tokens)" {
		t.Errorf("x label %q", lf.XLabel)
	}
	if lf.YLabel != "first reply, mean per session (s)" || strings.Contains(lf.Title, "_ms") || !strings.Contains(lf.Title, ", s)") {
		t.Errorf("y label %q, title %q", lf.YLabel, lf.Title)
	}
	for _, tc := range []struct{ param, unit string }{
		{"model.latency.prefill_tps", "tokens/s"}, {"params.cold_call_prob", "probability"},
		{"strategy.warm.max_tools", "tools"}, {"params.default_tool_ms", "ms"}, {"catalog tools", ""},
	} {
		if got := paramUnit(tc.param); got != tc.unit {
			t.Errorf("paramUnit(%q) = %q, want %q", tc.param, got, tc.unit)
		}
	}
}

// TestSmallMultiplesHighlightOneStrategyEach pins the CDF and cache plots'
// design: one panel per strategy, that strategy drawn over the others in
// grey and the baseline dashed, and the cache plot by model step.
func TestSmallMultiplesHighlightOneStrategyEach(t *testing.T) {
	res := sampleResults(t, 4, 30)
	for _, f := range []figure{firstReplyFigure(res), cacheByRequestFigure(res)} {
		sm := f.draw.(chart.SmallMultiples)
		if len(sm.Panels) != 4 {
			t.Fatalf("%s: %d panels", f.Name, len(sm.Panels))
		}
		for i, pn := range sm.Panels {
			last := pn.Series[len(pn.Series)-1]
			if last.Name != res.Strategies[i].Name || last.Thin || last.Style.Color != chart.SeriesStyle(i).Color {
				t.Errorf("%s panel %d: highlighted %q", f.Name, i, last.Name)
			}
			for _, s := range pn.Series[:len(pn.Series)-1] {
				base := res.Strategy(s.Name).Baseline
				if base && s.Style.Dashes == nil || !base && (!s.Thin || s.Style.Color != contextStyle.Color) {
					t.Errorf("%s panel %d: context series %q styled %+v", f.Name, i, s.Name, s.Style)
				}
			}
		}
	}
	if sm := cacheByRequestFigure(res).draw.(chart.SmallMultiples); !strings.Contains(sm.XLabel, "model step") {
		t.Errorf("cache plot x label %q", sm.XLabel)
	}
}

func TestPanelStrategiesBounded(t *testing.T) {
	res := &Results{}
	for i := range 30 {
		res.Strategies = append(res.Strategies, StrategyResult{Name: fmt.Sprint("s", i), Baseline: i == 27})
	}
	got := panelStrategies(res)
	if len(got) != maxPanels || got[len(got)-1] != 27 {
		t.Errorf("panels %v: want %d with the baseline (27) among them", got, maxPanels)
	}
	res.Strategies = res.Strategies[:5]
	res.Strategies[0].Baseline = true
	if got := panelStrategies(res); len(got) != 5 {
		t.Errorf("panels %v, want all 5", got)
	}
}

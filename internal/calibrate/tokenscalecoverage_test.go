package calibrate

import (
	"fmt"
	"math"
	"testing"

	"github.com/defersim/defersim/sim/presets"
)

// TestTokenScaleIntervalCoverage pins how often the token_scale fit's 95%
// interval (unrounded) covers the recorded scale over 100 seeds of ±5
// tokens of recorder's jitter on the generated sessions: at 1.0 and 2.0,
// where every scaled count is whole, 96 and 96 of 100 (the interval is
// right: the 1.0081 ± 0.0054 docs/calibrate.md quoted is one seed's 2.8
// standard errors); at 1.3, 21 of 100, the fit biased by +0.0085 on
// average, because the engine rounds each scaled item to a whole token
// and the fit is linear in the unscaled counts (the known limitation the
// docs state). A fix of that bias moves the 1.3 row.
func TestTokenScaleIntervalCoverage(t *testing.T) {
	const seeds, jitter = 100, 5
	for _, tc := range []struct {
		scale        float64
		lo, hi       int     // covering seeds allowed
		bias, biasTo float64 // mean of fitted − recorded allowed
	}{
		// 95% of 100: 89..99 is within about 2.7 binomial standard
		// deviations.
		{1.0, 89, 99, -0.001, 0.001},
		{2.0, 89, 99, -0.001, 0.001},
		{1.3, 0, 30, 0.007, 0.010},
	} {
		t.Run(fmt.Sprint(tc.scale), func(t *testing.T) {
			p := presets.DefaultParams()
			p.TokenScale, p.RequestOverheadTokens, p.MessageOverheadTokens, p.ToolOverheadTokens = tc.scale, 500, 6, 8
			trace, cat := usageRecordedWith(t, "claude-sonnet-4.5", p, 0)
			cfg := config(t, trace, cat, "claude-sonnet-4.5", FitOn{Kind: FitEven})
			groups, _, err := scanGroups(&cfg.Data)
			if err != nil {
				t.Fatal(err)
			}
			setup, err := cfg.setup(cfg.Model)
			if err != nil {
				t.Fatal(err)
			}
			setup.ScaleUnits = true
			reqs, _, _, err := setup.collect(cfg.source(groups[0].key, false), cfg.Params)
			if err != nil {
				t.Fatal(err)
			}
			var rows []*Request
			for i := range reqs {
				if r := &reqs[i]; r.Fit() && r.HasUsage && r.RecordedInput() > 0 {
					rows = append(rows, r)
				}
			}
			msg, tool := make([]float64, len(rows)), make([]float64, len(rows))
			for i, r := range rows {
				msg[i], tool[i] = float64(r.MsgUnits), float64(r.ToolUnits)
			}
			covered, sum := 0, 0.0
			for seed := range uint64(seeds) {
				y := make([]float64, len(rows))
				for i, r := range rows {
					noise := int64(splitmix(uint64(i)+seed<<32)%(2*jitter+1)) - jitter
					y[i] = float64(r.RecordedInput() + noise - r.Sim0)
				}
				est, half, note := estimateTokenScale(rows, y, msg, tool, variance(msg) > 0, variance(tool) > 0, 1, Huber)
				if note != "" {
					t.Fatalf("seed %d: %s", seed, note)
				}
				if math.Abs(est-tc.scale) <= half {
					covered++
				}
				sum += est - tc.scale
			}
			if bias := sum / seeds; covered < tc.lo || covered > tc.hi || bias < tc.bias || bias > tc.biasTo {
				t.Errorf("recorded at %g: the 95%% interval covers it on %d of %d seeds (want %d..%d), mean bias %+.4f (want %+.3f..%+.3f)",
					tc.scale, covered, seeds, tc.lo, tc.hi, bias, tc.bias, tc.biasTo)
			} else {
				t.Logf("recorded at %g: covered on %d of %d seeds, mean bias %+.4f", tc.scale, covered, seeds, bias)
			}
		})
	}
}

package calibrate

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/defersim/defersim/sim/presets"
)

// TestTokenScaleIntervalCoverage pins that the token_scale fit's 95%
// interval covers the recorded scale on about 95 of 100 seeds of ±5
// tokens of recorder's jitter on the generated sessions, at scales where
// every scaled count is whole (1.0, 2.0) and where it is not (1.3, 1.17),
// and that the estimate's mean error is within ±0.002. The linear fit
// alone covered 1.3 on 21 of 100, biased by +0.0085, because the engine
// rounds each scaled item to a whole token; the profile over replays at
// grid scales (profileTokenScale) fixed it. The profile minimises the
// loss --loss names: huber and ols are held to 89..99, lad to 85..99
// (its interval under-covers a little: see docs/calibrate.md). Under
// huber σ settles within ScaleProfileScalePasses profiles on every seed:
// it went back and forth to the limit on 35 of the 400, between minima
// whose σs differed by 1e-12 (ScaleProfileSigmaTolerance).
func TestTokenScaleIntervalCoverage(t *testing.T) {
	const seeds, jitter = 100, 5
	for _, scale := range []float64{1.0, 1.3, 1.17, 2.0} {
		t.Run(fmt.Sprint(scale), func(t *testing.T) {
			start := time.Now()
			p := presets.DefaultParams()
			p.TokenScale, p.RequestOverheadTokens, p.MessageOverheadTokens, p.ToolOverheadTokens = scale, 500, 6, 8
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
			src := cfg.source(groups[0].key, false)
			reqs, _, _, err := setup.collect(src, cfg.Params)
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
			fitMsg, fitTool := variance(msg) > 0, variance(tool) > 0
			// The replays do not depend on the jitter: one set for every seed.
			sims := newScaleSims(rows, func(scales []float64) ([]map[reqKey]int64, error) {
				return setup.replayFitAt(src, cfg.Params, scales)
			})
			for _, loss := range []Loss{Huber, OLS, LAD} {
				covered, linCovered := 0, 0
				var sum, linSum float64
				passes, capped := 0, 0
				for seed := range uint64(seeds) {
					y, rec := make([]float64, len(rows)), make([]float64, len(rows))
					for i, r := range rows {
						noise := int64(splitmix(uint64(i)+seed<<32)%(2*jitter+1)) - jitter
						rec[i] = float64(r.RecordedInput() + noise)
						y[i] = rec[i] - float64(r.Sim0)
					}
					lin, linHalf, note := estimateTokenScale(rows, y, msg, tool, fitMsg, fitTool, 1, loss)
					if note != "" {
						t.Fatalf("seed %d: %s", seed, note)
					}
					if math.Abs(lin-scale) <= linHalf {
						linCovered++
					}
					linSum += lin - scale
					prof, note, err := profileTokenScale(sims, rec, msg, tool, fitMsg, fitTool, loss, lin, linHalf/1.96, 2*MaxScaleHalfWidth)
					if err != nil || note != "" {
						t.Fatalf("seed %d: %v %s", seed, err, note)
					}
					if prof.Lo <= scale && scale <= prof.Hi {
						covered++
					}
					sum += prof.Est - scale
					passes = max(passes, prof.Passes)
					if prof.Capped {
						capped++
					}
				}
				// 95% of 100: 89..99 is within about 2.7 binomial standard
				// deviations.
				bias := sum / seeds
				// lad's bound rests on an estimate of the residuals'
				// density at 0 (sparsity): 85..99 (docs/calibrate.md).
				least := 89
				if loss == LAD {
					least = 85
				}
				if capped > 0 {
					t.Errorf("recorded at %g, --loss %s: σ unsettled after %d profiles on %d of %d seeds", scale, loss, ScaleProfileScalePasses, capped, seeds)
				}
				if covered < least || covered > 99 || math.Abs(bias) > 0.002 {
					t.Errorf("recorded at %g, --loss %s: the 95%% interval covers it on %d of %d seeds (want %d..99), mean bias %+.4f (want within ±0.002)",
						scale, loss, covered, seeds, least, bias)
				}
				t.Logf("recorded at %g, --loss %s: covered on %d of %d seeds, mean bias %+.4f (linear fit alone: %d, %+.4f); %d fit requests, %d grid scales replayed, at most %d passes (σ unsettled after %d on %d seeds), %v",
					scale, loss, covered, seeds, bias, linCovered, linSum/seeds, len(rows), len(sims.byK), passes, ScaleProfileScalePasses, capped, time.Since(start).Round(time.Millisecond))
			}
		})
	}
}

package report

import (
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestMeanDiffIntervalNotShiftedByRounding pins that the mean difference's
// interval is not moved by float rounding: it was centred on the difference
// of the two means while MeanDiff is the mean of the paired differences, the
// same number rounded differently, so a bound that the bootstrap put at
// exactly 0 (resamples without the two sessions that differ) came out at
// 2.6e-18 and a strategy with two more malformed calls in 400 sessions was
// marked significant (the routed-search scenario's malformed_calls).
func TestMeanDiffIntervalNotShiftedByRounding(t *testing.T) {
	n := 400
	base, alt := make([]float64, n), make([]float64, n)
	for i := range n {
		base[i] = 0.1 * float64(i%7) // sums that round
		alt[i] = base[i]
	}
	alt[17]++
	alt[311]++
	o := outcomesOf(sim.MMalformedCalls, map[string][]float64{"base": base, "alt": alt}, []string{"base", "alt"})
	res, err := Build(o, sim.RunInfo{Baseline: "base", Seed: 11}, BuildOptions{Bootstrap: 1000})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Strategy("alt").VsBaseline["malformed_calls"]
	if c.MeanDiffCI == nil {
		t.Fatal("no interval")
	}
	// About e^-2 of the resamples hold neither differing session: their
	// difference is exactly 0, so the 2.5th percentile is 0.
	if c.MeanDiffCI.Low != 0 || c.Significant {
		t.Errorf("mean diff %v, CI %+v, significant %v; want a low bound of exactly 0, not significant",
			c.MeanDiff, *c.MeanDiffCI, c.Significant)
	}
}

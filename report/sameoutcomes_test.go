package report

import (
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestSameOutcomesComparesTheOverflow pins SameOutcomes, which
// every "unchanged" and "coincident" decision uses: equal digests with
// different counts of requests over the window are not the same outcome,
// and equal counts over different windows are (a sweep over the window
// changes it at every point).
func TestSameOutcomesComparesTheOverflow(t *testing.T) {
	over := func(window, requests int64) *StrategyResult {
		r := &StrategyResult{OutcomeDigest: "ab"}
		if requests > 0 {
			r.ContextOverflow = &sim.ContextOverflow{Window: window, Requests: requests, Sessions: 1, MaxInput: window + 1, MaxSession: "s1"}
		}
		return r
	}
	for _, tc := range []struct {
		name string
		a, b *StrategyResult
		want bool
	}{
		{"none on both sides", over(1000, 0), over(2000, 0), true},
		{"counted on one side", over(1000, 3), over(2000, 0), false},
		{"different counts", over(1000, 3), over(1000, 2), false},
		{"no digest", &StrategyResult{}, &StrategyResult{}, false},
	} {
		if got := SameOutcomes(tc.a, tc.b); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	a, b := over(1000, 3), over(1000, 3)
	b.ContextOverflow.Window = 5000
	if !SameOutcomes(a, b) {
		t.Errorf("the same requests counted over two windows: not the same outcome")
	}
}

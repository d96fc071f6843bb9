package plan

import (
	"strings"
	"testing"
)

// TestCheckMarginRefusesAPercentage pins that a --breakdown-margin at or
// above the largest growth factor is refused with what the flag means and
// what to type: 25 (a user meaning 25%) was read as 2500% and every rule
// reported as never breaking down. Margins a rule can reach pass, the
// default 0.25 with any factor above 1 included.
func TestCheckMarginRefusesAPercentage(t *testing.T) {
	tests := []struct {
		margin  float64
		factors []float64
		want    string // "" = accepted
	}{
		{0.25, []float64{1, 1.1}, ""},
		{0.25, []float64{1, 2, 4, 8, 16}, ""},
		// Below the largest factor: reachable with a point that
		// overshoots its factor, or added tools larger than today's.
		{1.5, []float64{1, 2}, ""},
		{2, []float64{1, 2}, "--breakdown-margin 2 asks where a rule gets more than 200% worse (3× today's cost or p95 first reply) on catalogs at most ×2 today's"},
		{15, []float64{1, 2, 4, 8, 16}, ""},
		{25, []float64{1, 2, 4, 8, 16}, "for 25% type 0.25 (below 16, the largest --growth factor)"},
		{25, []float64{1, 2}, "the margin is the share by which a cost or p95 first reply may exceed today's catalog's (0.25 = 25% worse)"},
		{-0.1, []float64{1, 2}, "want 0 or more"},
		// Factors growthFactors refuses are left to it.
		{25, []float64{0.5}, ""},
	}
	for _, tc := range tests {
		err := CheckMargin(tc.margin, tc.factors)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("margin %v, factors %v: %v, want accepted", tc.margin, tc.factors, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("margin %v, factors %v: %v, want an error with %q", tc.margin, tc.factors, err, tc.want)
		}
	}
}

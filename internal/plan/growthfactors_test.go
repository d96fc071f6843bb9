package plan

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/runner"
)

// TestGrowthFactorsNeedTodaysCatalog pins what --growth takes: factors
// of 1 or more holding 1 (today's catalog, which every size is compared
// with) and one above it, each once. `--growth 2` and `--growth 2,4`
// used to replay and report every rule as never breaking down (growth
// 1.00 from ×2 to ×2), `--growth 1,1` to replay today's catalog twice, and
// `--growth 1` a series of one point; a list read as percentages
// (100,150,200) is refused with the hint.
func TestGrowthFactorsNeedTodaysCatalog(t *testing.T) {
	for _, tc := range []struct {
		given []float64
		want  []float64 // nil: refused
		err   string
	}{
		{[]float64{1, 2, 4}, []float64{1, 2, 4}, ""},
		{[]float64{4, 1, 2}, []float64{1, 2, 4}, ""},
		{[]float64{1, 1.5}, []float64{1, 1.5}, ""},
		{nil, nil, "no growth factor"},
		{[]float64{2}, nil, "which the list lacks"},
		{[]float64{2, 4}, nil, "add 1 (--growth 1,2,4;"},
		{[]float64{100, 150, 200}, nil, "not percentages: 150% is 1.5"},
		{[]float64{1}, nil, "only today's catalog: add a factor above 1"},
		{[]float64{1, 1, 2}, nil, "1 is given twice"},
		{[]float64{1, 2, 2}, nil, "2 is given twice"},
		{[]float64{-1, 2}, nil, "-1 is below 1"},
		{[]float64{0, 1, 2}, nil, "0 is below 1"},
	} {
		got, err := growthFactors(tc.given)
		if tc.err == "" {
			if err != nil || !slices.Equal(got, tc.want) {
				t.Errorf("%v: %v, %v; want %v", tc.given, got, err, tc.want)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%v: error %v, want one containing %q", tc.given, err, tc.err)
		}
	}
	// Growth refuses before it replays anything.
	sc := small(t, 3)
	rc, err := runner.FromScenario(sc, runner.Overrides{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, _, err := Growth(context.Background(), GrowthConfig{Base: rc, Factors: []float64{2}, Seed: 5, Dir: dir}); err == nil ||
		!strings.Contains(err.Error(), "which the list lacks") {
		t.Errorf("Growth(--growth 2): %v, want refused", err)
	}
}

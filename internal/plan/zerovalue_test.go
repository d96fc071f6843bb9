package plan

import (
	"testing"

	"github.com/defersim/defersim/internal/runner"
)

// TestSweepNotesAZeroThatMeansNoLimit pins that a strategy sweep whose
// range holds 0 for a key where 0 is not a quantity (warm.max_tools and
// warm.max_tokens: 0 is unbounded; directory.desc_chars: the whole first
// line) notes it at that point: `sweep --param
// strategy.warm.max_tokens=0:4000:2000` printed the uncapped rule as the
// tightest cap of the range ($0.0688 at 0, $0.0721 at 2000, $0.0692 at
// 4000 for claude-code-default), a dip its plot drew as a curve.
func TestSweepNotesAZeroThatMeansNoLimit(t *testing.T) {
	reg, err := runner.DefaultRegistry()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		param  string
		values []float64
		want   map[int]string
	}{
		{"strategy.warm.max_tokens", []float64{0, 2000, 4000},
			map[int]string{0: "strategy.warm.max_tokens=0 is not a limit of 0: 0 stands for unbounded in this key (defersim components), so this point is the rule without that limit, not the smallest value of the range"}},
		{"strategy.warm.max_tools", []float64{2, 0}, map[int]string{1: "strategy.warm.max_tools=0 is not a limit of 0: 0 stands for unbounded in this key (defersim components), so this point is the rule without that limit, not the smallest value of the range"}},
		{"strategy.warm.max_tools", []float64{2, 4}, nil},
		{"strategy.trigger.budget", []float64{0, 1000}, nil},
		{"strategy.search.keyword_retries", []float64{0, 1}, nil},
		{"params.cold_call_prob", []float64{0, 0.1}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.param, func(t *testing.T) {
			got := zeroNotes(tc.param, tc.values, reg)
			if len(got) != len(tc.want) {
				t.Fatalf("notes %v, want %v", got, tc.want)
			}
			for i, w := range tc.want {
				if got[i] != w {
					t.Errorf("note at %d: %q, want %q", i, got[i], w)
				}
			}
		})
	}
}

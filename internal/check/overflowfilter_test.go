package check

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// TestOverflowWarnedWithEmptyStrategyList pins that an empty strategy
// list (check --strategies "", as a CI job passing an empty variable
// gives) checks every strategy, overflow warnings included: the warning
// filtered on only != nil, so an empty list compared every strategy and
// warned of none.
func TestOverflowWarnedWithEmptyStrategyList(t *testing.T) {
	over := &sim.ContextOverflow{Window: 200000, Requests: 3, Sessions: 1, MaxInput: 250000, MaxSession: "s1"}
	cur := &report.Results{Sessions: 10, Strategies: []report.StrategyResult{{Name: "eager", ContextOverflow: over}, {Name: "lazy"}}}
	base := &report.Results{Sessions: 10, Strategies: []report.StrategyResult{{Name: "eager"}, {Name: "lazy"}}}
	for _, tc := range []struct {
		name string
		only []string
		want int
	}{
		{"nil", nil, 1},
		{"empty", []string{}, 1},
		{"the overflowing one", []string{"eager"}, 1},
		{"another", []string{"lazy"}, 0},
	} {
		got := overflowWarnings(base, cur, tc.only)
		if len(got) != tc.want {
			t.Errorf("%s: %d warnings, want %d: %q", tc.name, len(got), tc.want, got)
		}
		if len(got) > 0 && !strings.Contains(got[0], "where the baseline's sent none") {
			t.Errorf("%s: %q does not say the baseline sent none", tc.name, got[0])
		}
	}
}

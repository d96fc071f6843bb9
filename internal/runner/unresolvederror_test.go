package runner

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestUnresolvedErrorSuggestsOnlyWhatTheCommandHas pins that recommend's
// refusal (FixedLimit) did not tell users to "raise --max-unresolved", a
// flag only run has, while run's refusal still names both ways to raise it.
func TestUnresolvedErrorSuggestsOnlyWhatTheCommandHas(t *testing.T) {
	r := &sim.ResolutionInfo{Unresolved: 5, UnresolvedShare: 0.05, MaxUnresolvedShare: 0.01}
	for _, tc := range []struct {
		name  string
		fixed bool
		want  bool // suggests raising the limit
	}{
		{"run", false, true},
		{"recommend", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg := (&UnresolvedError{Resolution: r, FixedLimit: tc.fixed}).Error()
			got := strings.Contains(msg, "--max-unresolved") && strings.Contains(msg, "max_unresolved")
			if got != tc.want || strings.Contains(msg, "raise") != tc.want {
				t.Errorf("suggests raising the limit: %v, want %v:\n%s", got, tc.want, msg)
			}
			if !strings.Contains(msg, "--allow-unresolved") {
				t.Errorf("no --allow-unresolved in:\n%s", msg)
			}
		})
	}
}

package report

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestCountsOfOneSingular pins the singular in report text for a count of
// one: "1 sessions · baseline …" was the subtitle of every plot of a
// one-session run, and the fidelity note said "1 sessions recorded under
// another strategy were not compared".
func TestCountsOfOneSingular(t *testing.T) {
	for _, tc := range []struct {
		name, got, want string
	}{
		{"subtitle, one session", subtitle(&Results{Sessions: 1}), "1 session"},
		{"subtitle, two sessions", subtitle(&Results{Sessions: 2}), "2 sessions"},
		{"other strategy, one", otherStrategyNote(&sim.Fidelity{OtherStrategy: 1, Strategy: "eager"}), "1 session recorded under another strategy was not compared"},
		{"other strategy, three", otherStrategyNote(&sim.Fidelity{OtherStrategy: 3, Strategy: "eager"}), "3 sessions recorded under another strategy were not compared"},
	} {
		if !strings.HasPrefix(tc.got, tc.want) {
			t.Errorf("%s: got %q, want it to start with %q", tc.name, tc.got, tc.want)
		}
	}
}

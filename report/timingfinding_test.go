package report

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/traces"
)

// TestTimingFindingsFlagSyntheticPauses pins that sessions without
// recorded times (meta timing=synthetic), whose user pauses the replay
// takes from params.user_think_ms, are a finding naming how many, the
// parameter and its value, and the metrics it sets; that an unknown
// timing value is flagged; and that recorded, partial, unmarked and
// earlier builds' counts add none.
func TestTimingFindingsFlagSyntheticPauses(t *testing.T) {
	think := []sim.Assumption{{Name: "user_think_ms", Value: "10000"}}
	for _, tc := range []struct {
		name   string
		timing traces.Timing
		want   []string // substrings, one per finding; nil = none
	}{
		{"earlier build", traces.Timing{}, nil},
		{"all recorded or unmarked", traces.Timing{Recorded: 6, Partial: 2, Unmarked: 2}, nil},
		{"mixed", traces.Timing{Recorded: 7, Synthetic: 3},
			[]string{"3 of 10 sessions read record no times (session_start meta timing=synthetic): the replay took params.user_think_ms (10000 ms)"}},
		{"all synthetic", traces.Timing{Synthetic: 10}, []string{"10 of 10 sessions read record no times"}},
		{"unknown value", traces.Timing{Recorded: 9, Other: 1}, []string{"1 of 10 sessions read has a session_start meta timing other than"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := &Results{}
			res.Run.Assumptions = think
			res.Run.Counts = sim.Counts{SessionsRead: 10, EventsRead: 100, SessionsByTiming: tc.timing}
			got := Findings(res)
			if len(got) != len(tc.want) {
				t.Fatalf("findings %q, want %d", got, len(tc.want))
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("finding %q, want %q", got[i], w)
				}
			}
			if tc.timing.Synthetic > 0 {
				f := got[0]
				for _, m := range []string{"session_ms", "cost_usd", "cache_hit_ratio"} {
					if !strings.Contains(f, m) {
						t.Errorf("finding %q does not name %s", f, m)
					}
				}
				if mixed := strings.Contains(f, "mixed into the figures with the 7 sessions"); mixed != (tc.timing.Recorded > 0) {
					t.Errorf("finding %q: says mixed with recorded sessions = %v", f, mixed)
				}
			}
		})
	}
}

package plan

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/traces"
)

// TestProjectWarnsOnSyntheticTimes pins that plan warns when some of the
// run's sessions recorded no times (their pauses are
// params.user_think_ms, which its session p50 carries), or carried some
// times over (timing=partial: 0 ms pauses there), in projection.warnings
// and the text plan, and not otherwise.
func TestProjectWarnsOnSyntheticTimes(t *testing.T) {
	for _, tc := range []struct {
		name   string
		timing traces.Timing
		want   string
	}{
		{"recorded", traces.Timing{Recorded: 100}, ""},
		{"some synthetic", traces.Timing{Recorded: 50, Synthetic: 50},
			"50 of 100 sessions read record no times (session_start meta timing=synthetic): the replay took params.user_think_ms"},
		// Partial sessions get 0 ms pauses where a time was carried
		// over; plan said nothing of them.
		{"some partial", traces.Timing{Recorded: 60, Partial: 40},
			"40 of 100 sessions read have some events' times carried over from the event before (session_start meta timing=partial): the replay read their times as recorded, so where a time was carried over the pause before the event is 0 ms"},
		{"one partial", traces.Timing{Recorded: 99, Partial: 1},
			"1 of 100 sessions read has some events' times carried over"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := countsResults(sim.RunInfo{Scenario: "s", Counts: sim.Counts{SessionsRead: 100, SessionsReplayed: 100, SessionsByTiming: tc.timing}})
			p, err := Project(res, Options{SessionsPerDay: 1000})
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == "" {
				if len(p.Warnings) != 0 {
					t.Fatalf("warnings %q, want none", p.Warnings)
				}
				return
			}
			if len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0], tc.want) || !strings.Contains(p.Warnings[0], "session p50") {
				t.Fatalf("warnings %q, want one with %q naming session p50", p.Warnings, tc.want)
			}
			var text strings.Builder
			if err := WriteProjection(&text, p); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(text.String(), "warning: "+p.Warnings[0]) {
				t.Errorf("warning not in the text plan:\n%s", text.String())
			}
		})
	}
}

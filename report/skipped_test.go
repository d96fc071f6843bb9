package report

import (
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestSkippedText pins that report.md said nothing of what a run skipped:
// 232 of 464 lines of a trace given with its sessions twice, skipped with
// --skip-bad, left a report.md that read like a clean run (only the
// terminal summary and report.html counted them). report.md now states
// the skipped lines by reason (replay_failed, which counts sessions, is
// stated as sessions) and nothing for a run that skipped nothing.
func TestSkippedText(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    sim.Counts
		want string
	}{
		{"nothing skipped", sim.Counts{LinesRead: 464, SessionsRead: 5}, ""},
		{"lines", sim.Counts{LinesRead: 464, LinesSkipped: 232, SkipReasons: map[string]int{"duplicate_session": 232}},
			"232 of 464 trace lines (--skip-bad) (duplicate_session 232); what they held is not in these numbers"},
		{"sessions", sim.Counts{SessionsRead: 42, SessionsSkipped: 2, SkipReasons: map[string]int{"replay_failed": 2}},
			"2 of 42 sessions read, whose replay failed; what they held is not in these numbers"},
		{"both", sim.Counts{LinesRead: 1500, LinesSkipped: 3, SessionsRead: 42, SessionsSkipped: 2,
			SkipReasons: map[string]int{"replay_failed": 2, "bad_json": 1, "truncated": 2}},
			"3 of 1,500 trace lines (--skip-bad) (bad_json 1, truncated 2); 2 of 42 sessions read, whose replay failed; what they held is not in these numbers"},
	} {
		if got := skippedText(tc.c); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

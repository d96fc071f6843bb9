package report

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestTraceFindingsFlagWhatTheReplayTookAsRecorded pins that sessions
// without a session_end and events whose time goes backwards, which the
// replay takes as recorded, are findings of the report (they were only a
// count in results.json and a warning on stderr), and that clean traces
// add none; and so are implausible lines and sessions a dated upgrade
// placed by 1970 times (run.counts.lines_implausible and
// sessions_epoch_dated), which were a warning on stderr alone.
func TestTraceFindingsFlagWhatTheReplayTookAsRecorded(t *testing.T) {
	for _, tc := range []struct {
		name   string
		counts sim.Counts
		want   []string
	}{
		{"clean", sim.Counts{SessionsRead: 10, EventsRead: 400}, nil},
		{"incomplete", sim.Counts{SessionsRead: 10, EventsRead: 400, SessionsIncomplete: 3},
			[]string{"3 of 10 sessions read have no session_end"}},
		{"backwards", sim.Counts{SessionsRead: 10, EventsRead: 400, EventsTimeBackwards: 12},
			[]string{"12 of 400 trace events are earlier than the event before them in their session"}},
		{"both", sim.Counts{SessionsRead: 10, EventsRead: 400, SessionsIncomplete: 1, EventsTimeBackwards: 2},
			[]string{"1 of 10 sessions", "2 of 400 trace events"}},
		{"implausible", sim.Counts{SessionsRead: 10, LinesRead: 410, EventsRead: 400, LinesImplausible: 2},
			[]string{"2 of 410 trace lines hold an implausible count or duration"}},
		{"epoch-dated", sim.Counts{SessionsRead: 10, SessionsReplayed: 9, EventsRead: 400, SessionsEpochDated: 4},
			[]string{"4 of 9 sessions replayed start in 1970 or earlier, before the scenario's dated upgrades"}},
	} {
		got := traceFindings(tc.counts)
		if len(got) != len(tc.want) {
			t.Errorf("%s: %d findings %q, want %d", tc.name, len(got), got, len(tc.want))
			continue
		}
		for i, w := range tc.want {
			if !strings.Contains(got[i], w) {
				t.Errorf("%s: finding %q, want %q", tc.name, got[i], w)
			}
		}
	}
	// And Findings carries them.
	res := &Results{}
	res.Run.Counts = sim.Counts{SessionsRead: 2, EventsRead: 9, EventsTimeBackwards: 1}
	if f := Findings(res); len(f) != 1 || !strings.Contains(f[0], "1 of 9 trace events") {
		t.Errorf("Findings = %q, want the time finding", f)
	}
}

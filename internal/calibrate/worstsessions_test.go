package calibrate

import (
	"context"
	"strings"
	"testing"

	"github.com/defersim/defersim/traces"
)

// TestWorstTenthNamesItsSessions pins that the held-out worst tenth names
// the sessions its requests come from: one held-out session whose every
// duration is 100 times too long took the p90 error from 10.5% to 98.9% on
// the tau2 telecom run, and the text said only which request kinds the
// worst tenth held and "a fit on little data" — not which session to look
// at.
func TestWorstTenthNamesItsSessions(t *testing.T) {
	_, cat := recorded(t)
	var outlier string
	trace := rewrite(t, "outlier.jsonl.gz", func(i int, s *traces.Session) {
		if i != 1 { // held out under --fit-on even
			return
		}
		outlier = s.ID
		slowDown(s, 100)
	})
	res, err := Run(context.Background(), config(t, trace, cat, "claude-sonnet-4.5", FitOn{Kind: FitEven}))
	if err != nil {
		t.Fatal(err)
	}
	ev := res.Models[0].HeldOut
	n := 0
	for _, k := range ev.Worst {
		n += k.Requests
	}
	if len(ev.WorstSessions) == 0 || ev.WorstSessions[0].Session != outlier {
		t.Fatalf("worst tenth by session %+v, want %s first", ev.WorstSessions, outlier)
	}
	var b strings.Builder
	if err := WriteText(&b, res); err != nil {
		t.Fatal(err)
	}
	if want := outlier + " "; !strings.Contains(b.String(), "    from ") || !strings.Contains(b.String(), want) {
		t.Errorf("the text does not name the worst tenth's sessions (%s first of %d requests):\n%s", outlier, n, b.String())
	}
}

// slowDown multiplies every recorded request time of s by factor.
func slowDown(s *traces.Session, factor int64) {
	for j := range s.Events {
		if e := &s.Events[j]; e.Type == traces.ModelRequest {
			e.DurationMs *= factor
			e.TTFTMs *= factor
		}
	}
}

// TestWorstSessionsLine pins how many sessions the line names.
func TestWorstSessionsLine(t *testing.T) {
	ws := []SessionCount{{"a", 5}, {"b", 2}, {"c", 1}, {"d", 1}, {"e", 1}}
	for _, tc := range []struct {
		n    int
		want string
	}{
		{1, "a 5"},
		{3, "a 5, b 2, c 1"},
		{5, "a 5, b 2, c 1, … (2 more)"},
	} {
		if got := worstSessions(ws[:tc.n], worstSessionsShown); got != tc.want {
			t.Errorf("%d sessions: %q, want %q", tc.n, got, tc.want)
		}
	}
}

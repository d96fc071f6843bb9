package recommend

import (
	"context"
	"strings"
	"testing"
)

// TestSharesOverSessionsThatCouldCall pins that a tool's shares, and the
// bounds that mark its decision uncertain, are over the training sessions
// whose catalog versions serve it: read_doc, which 2.0.0 added (renaming
// open_doc), opens every session replayed on 2.0.0. It used to be divided
// by every training session, those on 1.0.0 too: on a log 80% on 1.0.0 it
// opened "20.0%" of sessions, five times too low.
func TestSharesOverSessionsThatCouldCall(t *testing.T) {
	for _, tc := range []struct {
		name    string
		upgrade int // the first of the 40 sessions on 2.0.0
		tool    string
		// sessions that could call the tool, and its open share over them
		sessions int
		open     float64
	}{
		{"80% of the log before the upgrade", 32, "read_doc", 8, 1},
		{"half of the log before the upgrade", 20, "read_doc", 20, 1},
		{"a tool both versions serve", 32, "look", 40, 0},
		{"no session before the upgrade", 0, "read_doc", 40, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			trace, cat := renamedOpenerFixture(t, []string{"1.0.0", "2.0.0"}, tc.upgrade)
			cfg := defaultConfig(t, trace, cat)
			cfg.TestShare = 0
			p, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			var a *Assessment
			for i := range p.Tools {
				if p.Tools[i].Key == (toolKey{"srv", tc.tool}) {
					a = &p.Tools[i]
				}
			}
			if a == nil {
				t.Fatalf("no assessment of srv:%s in %+v", tc.tool, p.Tools)
			}
			if a.Sessions != tc.sessions || a.OpenShare != tc.open || a.BeforeReplyShare != tc.open {
				t.Errorf("sessions %d, opens %v, before reply %v; want %d, %v, %v", a.Sessions, a.OpenShare, a.BeforeReplyShare, tc.sessions, tc.open, tc.open)
			}
			// The bounds are over the same sessions: fewer, wider.
			opens := int(tc.open) * tc.sessions
			low, high := wilson(opens, tc.sessions, cfg.Rules.Confidence)
			if a.BeforeReplyLow != low || a.BeforeReplyHigh != high || a.UseLow != low || a.UseHigh != high {
				t.Errorf("bounds [%v, %v] (calls [%v, %v]), want [%v, %v] over %d sessions",
					a.BeforeReplyLow, a.BeforeReplyHigh, a.UseLow, a.UseHigh, low, high, tc.sessions)
			}
			note := "its shares are of the 8 of 40 training sessions whose catalog versions serve it"
			if tc.sessions == 8 != strings.Contains(a.Why, note) {
				t.Errorf("why %q: want %q only over fewer sessions than the 40 learnt from", a.Why, note)
			}
		})
	}
}

package recommend

import (
	"context"
	"strings"
	"testing"
)

// TestWhyOfAToolNoSessionCouldCall pins that the why of a tool no training
// session could call says it was never called, not a share of no session:
// read_doc, added by srv@2.0.0 after 40 sessions on 1.0.0, read
// "4-token schema called in 0.0% of sessions" before "its shares are of no
// session". A tool sessions could call keeps its share.
func TestWhyOfAToolNoSessionCouldCall(t *testing.T) {
	trace, cat := renamedOpenerFixture(t, []string{"1.0.0", "2.0.0"}, 40)
	cfg := defaultConfig(t, trace, cat)
	cfg.TestShare = 0
	p, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, a := range p.Tools {
		switch {
		case a.Sessions == 0:
			seen++
			if strings.Contains(a.Why, "% of sessions") || strings.Contains(a.Why, "% before the first reply") || !strings.Contains(a.Why, "never called") {
				t.Errorf("%s (no session could call it): why %q", toolLabel(a.Key), a.Why)
			}
		case !strings.Contains(a.Why, "% of sessions"):
			t.Errorf("%s (%d sessions could call it): why %q lacks its share", toolLabel(a.Key), a.Sessions, a.Why)
		}
	}
	if seen != 1 {
		t.Errorf("%d tools no session could call, want 1 (read_doc)", seen)
	}
}

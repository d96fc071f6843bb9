package recommend

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
)

// TestSmallValidationFlagged pins that a validation on fewer held-out
// sessions than a run calls a small sample says so, as run's summary does
// (SMALL SAMPLE), with a warning that its "no worse" verdicts say little.
// On the 22 SWE-agent trajectories, 5 were held out and recommend printed
// "no worse on cost and first reply than 14 of 14 strategies" with no word
// on the sample: a difference whose wide interval holds 0 counts as equal.
// A large held-out set carries no flag.
func TestSmallValidationFlagged(t *testing.T) {
	tests := []struct {
		sessions  int
		wantSmall bool
	}{
		{30, true},
		{300, false},
	}
	for _, tc := range tests {
		trace, cat := planted(t, tc.sessions)
		p, err := Run(context.Background(), defaultConfig(t, trace, cat))
		if err != nil {
			t.Fatal(err)
		}
		v := p.Validation
		if v == nil {
			t.Fatalf("%d sessions: no validation", tc.sessions)
		}
		if got := v.Sessions < report.SmallSampleBelow; got != tc.wantSmall {
			t.Fatalf("%d sessions: %d held out; the case wants small %v", tc.sessions, v.Sessions, tc.wantSmall)
		}
		if v.SmallSample != tc.wantSmall || (tc.wantSmall && v.SmallSampleBelow != report.SmallSampleBelow) {
			t.Errorf("%d held out: small_sample %v below %d, want %v", v.Sessions, v.SmallSample, v.SmallSampleBelow, tc.wantSmall)
		}
		var text bytes.Buffer
		if err := WriteText(&text, p); err != nil {
			t.Fatal(err)
		}
		warned := false
		for _, w := range p.Warnings {
			warned = warned || strings.HasPrefix(w, "the validation replayed")
		}
		for what, got := range map[string]bool{
			"warning": warned,
			"text":    strings.Contains(text.String(), "SMALL SAMPLE"),
			"summary": strings.Contains(v.Summary(), "SMALL SAMPLE"),
			"snippet": strings.Contains(string(Snippet(p)), "# warning: the validation replayed"),
		} {
			if got != tc.wantSmall {
				t.Errorf("%d held out: %s flags a small sample: %v, want %v", v.Sessions, what, got, tc.wantSmall)
			}
		}
	}
}

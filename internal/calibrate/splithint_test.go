package calibrate

import (
	"context"
	"strings"
	"testing"

	"github.com/defersim/defersim/traces"
)

// TestOneSidedGroupSaysWhatSplitsIt pins that a model group left with no
// session to fit on or none to judge on says why and what to pass: two
// models alternating in the file under --fit-on even (every session of one
// model at even positions) used to stop with "10 sessions to fit on and 0
// to judge on (need at least one of each)" and no hint that --fit-on counts
// positions across models, nor that a single session can never split.
func TestOneSidedGroupSaysWhatSplitsIt(t *testing.T) {
	_, cat := recorded(t)
	alternating := rewrite(t, "alt.jsonl.gz", func(i int, s *traces.Session) {
		if i%2 == 1 {
			s.Start().EnsureStart().Model = "gpt-4o"
		} else {
			s.Start().EnsureStart().Model = "claude-sonnet-4.5"
		}
	})
	single := rewrite(t, "one.jsonl.gz", func(i int, s *traces.Session) {
		if i == 0 {
			s.Start().EnsureStart().Model = "gpt-4o"
		} else {
			s.Start().EnsureStart().Model = "claude-sonnet-4.5"
		}
	})
	for _, tc := range []struct {
		name  string
		trace string
		fitOn FitOn
		want  []string
	}{
		{"models alternate under even", alternating, FitOn{Kind: FitEven},
			[]string{`sessions of model "gpt-4o": not calibrated: 0 sessions to fit on and 30 to judge on`, "not per model", "all fall on the held-out side", "--fit-on 0.5"}},
		{"one session of a model", single, FitOn{Kind: FitEven},
			[]string{`not calibrated: 1 session to fit on and 0 to judge on`, "calibrate needs at least two sessions of this model"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := config(t, tc.trace, cat, "claude-sonnet-4.5", tc.fitOn)
			cfg.UseRecorded = true
			res, err := Run(context.Background(), cfg)
			var msg string
			if err != nil {
				msg = err.Error()
			}
			for _, mf := range res.Models {
				msg += "; " + strings.Join(mf.Problems, "; ")
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message lacks %q:\n%s", w, msg)
				}
			}
		})
	}
}

// TestSplitHint pins the hint of each way a group ends up on one side.
func TestSplitHint(t *testing.T) {
	for _, tc := range []struct {
		name  string
		g     group
		fitOn FitOn
		test  bool
		want  string
	}{
		{"share, all fitted", group{fit: 3}, FitOn{Kind: FitShare, Share: 0.7}, false, "put all 3 sessions of this model on the fitted side and none on the held-out: another --seed"},
		{"share, all held out", group{held: 2}, FitOn{Kind: FitShare, Share: 0.7}, false, "on the held-out side and none on the fitted"},
		{"odd", group{held: 4}, FitOn{Kind: FitOdd}, false, "--fit-on odd counts positions"},
		{"test without it", group{fit: 4}, FitOn{Kind: FitAll}, true, "the --test files hold no session of this model"},
		{"test, none fitted", group{held: 4}, FitOn{Kind: FitAll}, true, "the TRACE files hold no session of this model in the --fit-on all selection"},
		{"all skipped", group{}, FitOn{Kind: FitEven}, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.g.splitHint(tc.fitOn, 42, tc.test)
			if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
				t.Errorf("hint %q, want it to contain %q", got, tc.want)
			}
		})
	}
}

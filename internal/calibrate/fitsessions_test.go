package calibrate

import (
	"context"
	"strings"
	"testing"

	"github.com/defersim/defersim/traces"
)

// TestFitNamesTheSessionItsErrorComesFrom pins that the latency fit names
// the fit sessions holding most of its squared error, and that a negative
// R² on the fit set says what it means and what to try: one fit session
// whose every duration was 100 times too long gave an R² of -0.155 on the
// tau2 telecom fit with no session named and no word on the sign.
func TestFitNamesTheSessionItsErrorComesFrom(t *testing.T) {
	_, cat := recorded(t)
	for _, tc := range []struct {
		name   string
		factor int64 // the outlier fit session's durations are multiplied by it
	}{
		{"one session 100 times too slow", 100},
		{"no outlier", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var outlier string
			trace := rewrite(t, "fitoutlier.jsonl.gz", func(i int, s *traces.Session) {
				if i != 2 { // fitted on under --fit-on even
					return
				}
				outlier = s.ID
				slowDown(s, tc.factor)
			})
			res, err := Run(context.Background(), config(t, trace, cat, "claude-sonnet-4.5", FitOn{Kind: FitEven}))
			if err != nil {
				t.Fatal(err)
			}
			mf := res.Models[0]
			l := mf.Latency
			if l == nil {
				t.Fatalf("no latency fit: %v", mf.Problems)
			}
			var sum float64
			for _, s := range l.ResidualSessions {
				sum += s.Share
			}
			if len(l.ResidualSessions) == 0 || sum < ResidualMostShare || sum > 1+1e-9 {
				t.Fatalf("sessions of the fit's squared error %+v: want shares summing to [%g, 1]", l.ResidualSessions, ResidualMostShare)
			}
			var b strings.Builder
			if err := WriteText(&b, res); err != nil {
				t.Fatal(err)
			}
			negative := strings.Contains(strings.Join(mf.Warnings, "\n"), "R² on its own fit set is")
			if negative != (l.RSquared < 0) {
				t.Errorf("fit R² %.3f, warning of a negative R²: %v", l.RSquared, negative)
			}
			if tc.factor == 1 {
				if l.ResidualSessions[0].Session == outlier && l.ResidualSessions[0].Share > 0.5 {
					t.Errorf("without an outlier one session holds %.0f%% of the squared error", 100*l.ResidualSessions[0].Share)
				}
				return
			}
			if got := l.ResidualSessions; len(got) != 1 || got[0].Session != outlier {
				t.Fatalf("sessions of the fit's squared error %+v, want only %s", got, outlier)
			}
			if !strings.Contains(b.String(), "of the fit's squared error from 1 session of ") || !strings.Contains(b.String(), outlier+" ") {
				t.Errorf("the text does not name %s as the fit's squared error:\n%s", outlier, b.String())
			}
			if !(l.RSquared < 0) {
				t.Fatalf("fit R² %.3f with one session 100 times too slow: the test no longer shows a negative R²", l.RSquared)
			}
			if h := header(res, mf); !strings.Contains(h, "mostly session "+outlier) || !strings.Contains(h, "--residuals absolute") {
				t.Errorf("the scenario header does not say what a negative fit R² means and what to try:\n%s", h)
			}
		})
	}
}

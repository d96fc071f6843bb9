package plan

import (
	"context"
	"testing"
)

// TestSweepOverTheContextWindow pins that a sweep over
// model.context_window runs (it was refused: "no strategy of the run
// reads it", although every strategy's requests over the window are
// counted), and that no strategy whose count of requests over the window
// changed across the values is called unchanged, in sweep.json's
// unchanged list or in a row's "vs previous point", though its outcome
// digest (every session's metric values) is the same at every value: the
// digest does not hold the count. A strategy whose count is the same at
// every value is, with a reason that says so and why its trigger decided
// the same.
func TestSweepOverTheContextWindow(t *testing.T) {
	sc := small(t, 5)
	for _, tc := range []struct {
		name string
		spec SweepSpec
		// changed: every request of every strategy exceeds the first
		// window (1000 tokens, less than any request's system prompt and
		// tools) and none the larger ones.
		changed bool
	}{
		{"a window every request exceeds, then larger ones", SweepSpec{Param: windowPath, From: 1000, To: 1001000, Step: 500000}, true},
		{"windows no request exceeds", SweepSpec{Param: windowPath, From: 501000, To: 1001000, Step: 500000}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sw, err := Sweep(context.Background(), SweepConfig{Scenario: sc, Spec: tc.spec, Dir: t.TempDir(), Bootstrap: -1})
			if err != nil {
				t.Fatal(err)
			}
			reasons := map[string]string{}
			for _, u := range sw.Unchanged {
				reasons[u.Strategy] = u.Reason
			}
			first, last := sw.Points[0].Results, sw.Points[len(sw.Points)-1].Results
			for _, s := range first.Strategies {
				o := s.ContextOverflow
				if tc.changed != (o != nil && o.Requests > 0) {
					t.Fatalf("%s: context_overflow %+v at %s: the fixture cannot tell", s.Name, o, sw.Points[0].Label)
				}
				if l := last.Strategy(s.Name); l.ContextOverflow != nil || l.OutcomeDigest != s.OutcomeDigest && s.Name == "eager" {
					t.Fatalf("%s at %s: context_overflow %+v, digest %s vs %s: want none, eager's digest unchanged",
						s.Name, sw.Points[len(sw.Points)-1].Label, l.ContextOverflow, l.OutcomeDigest, s.OutcomeDigest)
				}
				reason, flagged := reasons[s.Name]
				if flagged == tc.changed {
					t.Errorf("%s: unchanged %v (%q), but its requests over the window changed: %v", s.Name, flagged, reason, tc.changed)
				}
			}
			if !tc.changed {
				const want = `no request exceeded the context window at any value; its trigger "never" does not compare tokens with the context window`
				if reasons["eager"] != want {
					t.Errorf("eager: reason %q, want %q", reasons["eager"], want)
				}
			}
			// The rows: eager at the second point changed (its requests
			// over the window went from all to none) only when the first
			// window overflowed; at the third point it repeats the second.
			for _, r := range sw.Rows {
				if r.Strategy != "eager" {
					continue
				}
				want := r.Label != sw.Points[0].Label && (r.Label != sw.Points[1].Label || !tc.changed)
				if r.Unchanged != want {
					t.Errorf("eager at %s: vs previous point unchanged %v, want %v", r.Label, r.Unchanged, want)
				}
			}
		})
	}
}

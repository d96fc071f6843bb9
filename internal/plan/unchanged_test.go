package plan

import (
	"context"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/runner"
)

// TestSweepFlagsWhatChangesNothing pins issue 15's sweep criterion: a
// swept value that leaves every outcome of a strategy unchanged is
// flagged, with the reason where it can be derived (a budget below every
// session's estimated tool tokens: always deferred; a trigger that does
// not read the key), and rows repeating the previous point are marked.
func TestSweepFlagsWhatChangesNothing(t *testing.T) {
	sc := small(t, 20)
	sw, err := Sweep(context.Background(), SweepConfig{Scenario: sc,
		Spec: SweepSpec{Param: "strategy.trigger.budget", From: 1000, To: 3000, Step: 1000},
		Dir:  t.TempDir(), Bootstrap: -1})
	if err != nil {
		t.Fatal(err)
	}
	why := map[string]string{}
	for _, u := range sw.Unchanged {
		why[u.Strategy] = u.Reason
	}
	if len(why) != 3 {
		t.Fatalf("unchanged = %+v, want all 3 strategies", sw.Unchanged)
	}
	if r := why["anchor-e1-budget8k"]; !strings.Contains(r, "deferred mode was on for every request at every value") ||
		!strings.Contains(r, "always deferred") {
		t.Errorf("anchor-e1-budget8k: reason %q, want always deferred", r)
	}
	if r := why["claude-code-default"]; !strings.Contains(r, `trigger "always" does not read trigger.budget`) {
		t.Errorf("claude-code-default: reason %q, want its trigger does not read the key", r)
	}
	if len(sw.Notes) != 2 {
		t.Errorf("notes = %q, want eager and claude-code-default named as not reading the key", sw.Notes)
	}
	for _, r := range sw.Rows {
		if want := r.Label != sw.Rows[0].Label; r.Unchanged != want {
			t.Errorf("row %s %s: unchanged %v, want %v", r.Label, r.Strategy, r.Unchanged, want)
		}
	}
}

// TestSweepThatVaries pins the other side: a swept key that changes a
// strategy's outcomes does not flag it (the README's example on the
// default data is checked in cmd/defersim).
func TestSweepThatVaries(t *testing.T) {
	sc := small(t, 30)
	sw, err := Sweep(context.Background(), SweepConfig{Scenario: sc,
		Spec:      SweepSpec{Param: "strategy.warm.max_tools", From: 1, To: 5, Step: 4},
		Overrides: runner.Overrides{Strategies: []string{"claude-code-default"}},
		Dir:       t.TempDir(), Bootstrap: -1})
	if err != nil {
		t.Fatal(err)
	}
	if len(sw.Unchanged) != 0 || sw.Rows[1].Unchanged {
		t.Errorf("unchanged = %+v, rows %+v: warm.max_tools 1 and 5 should differ", sw.Unchanged, sw.Rows)
	}
}

// TestSweepValidForNoStrategy pins that a strategy.* path no strategy of
// the run reads (or can take) is an error, not a sweep of identical runs.
func TestSweepValidForNoStrategy(t *testing.T) {
	sc := small(t, 5)
	for _, tc := range []struct {
		param      string
		strategies []string
		want       string
	}{
		{"strategy.trigger.budget", []string{"eager", "claude-code-default"}, `does not read trigger.budget`},
		{"strategy.search.k", []string{"eager"}, `its trigger "never" never turns deferred mode on, and search.k is read only in deferred mode`},
	} {
		_, err := Sweep(context.Background(), SweepConfig{Scenario: sc,
			Spec:      SweepSpec{Param: tc.param, From: 1, To: 2, Step: 1},
			Overrides: runner.Overrides{Strategies: tc.strategies}, Dir: t.TempDir(), Bootstrap: -1})
		if err == nil || !strings.Contains(err.Error(), "valid for no strategy") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s over %v: err = %v, want valid for no strategy (%s)", tc.param, tc.strategies, err, tc.want)
		}
	}
}

// TestSweepPointValidForNoReader pins that a value no strategy reading the
// swept key can take stops the sweep (strategy.warm.max_tools=-2:2:2 used
// to replay a point labelled -2 with every strategy at its own value, and
// only a note said so).
func TestSweepPointValidForNoReader(t *testing.T) {
	sc := small(t, 5)
	for _, tc := range []struct {
		spec SweepSpec
		want string // "" = accepted
	}{
		{SweepSpec{Param: "strategy.warm.max_tools", From: -2, To: 2, Step: 2}, "strategy.warm.max_tools = -2 is valid for no strategy of this run that reads it"},
		{SweepSpec{Param: "strategy.search.k", From: 0, To: 2, Step: 1}, "strategy.search.k = 0 is valid for no strategy"},
		{SweepSpec{Param: "strategy.warm.max_tools", From: 0, To: 2, Step: 2}, ""},
	} {
		_, err := Sweep(context.Background(), SweepConfig{Scenario: sc, Spec: tc.spec,
			Overrides: runner.Overrides{Strategies: []string{"eager", "claude-code-default"}}, Dir: t.TempDir(), Bootstrap: -1})
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%+v: %v", tc.spec, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%+v: err = %v, want %q", tc.spec, err, tc.want)
		}
	}
}

// TestSweepNotesNeverSetOnce pins that a strategy the swept value can never
// be set on (warm.max_tools on a disabled warm set) is noted once for the
// sweep, not again at every point, and is flagged unchanged.
func TestSweepNotesNeverSetOnce(t *testing.T) {
	sc := small(t, 5)
	sw, err := Sweep(context.Background(), SweepConfig{Scenario: sc,
		Spec:      SweepSpec{Param: "strategy.warm.max_tools", From: 1, To: 3, Step: 1},
		Overrides: runner.Overrides{Strategies: []string{"anchor-e0-count30", "claude-code-default"}},
		Dir:       t.TempDir(), Bootstrap: -1})
	if err != nil {
		t.Fatal(err)
	}
	if len(sw.Notes) != 1 || !strings.Contains(sw.Notes[0], "anchor-e0-count30: strategy.warm.max_tools is not set at any value") {
		t.Errorf("notes = %q, want anchor-e0-count30 noted once as never set", sw.Notes)
	}
	for _, p := range sw.Points {
		if len(p.Notes) != 0 {
			t.Errorf("%s: notes %q repeat the sweep's", p.Label, p.Notes)
		}
	}
	if len(sw.Unchanged) == 0 || sw.Unchanged[0].Strategy != "anchor-e0-count30" {
		t.Errorf("unchanged = %+v, want anchor-e0-count30 flagged", sw.Unchanged)
	}
}

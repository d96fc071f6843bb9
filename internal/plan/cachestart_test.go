package plan

import (
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// cacheResults are results of one strategy recording cache_warm_start warm
// ("" = not recorded) and cache.ttl_s ttl, whose sessions last sessionS
// seconds on average (0: no session time).
func cacheResults(warm, ttl string, sessionS float64) *report.Results {
	run := sim.RunInfo{Scenario: "s", Model: "m", Counts: sim.Counts{SessionsRead: 100, SessionsReplayed: 100}}
	if warm != "" {
		run.Assumptions = []sim.Assumption{{Name: "cache.ttl_s", Value: ttl}, {Name: "cache_warm_start", Value: warm}}
	}
	res := countsResults(run)
	res.Strategies[0].Metrics["session_ms"] = report.Distribution{Count: 100, Mean: sessionS * 1000}
	return res
}

// TestProjectJudgesTheWarmStartBothWays pins that plan derives the warm
// start the projected traffic implies — Poisson session starts, a start
// warm when another session's cache entry is alive, an entry living the
// TTL plus the baseline's mean session: 1 − exp(−lifetime/gap) — and warns
// when params.cache_warm_start lies more than the tolerance from it in
// either direction. It used to warn one way only, on a cold assumption at a
// mean start gap within the TTL: results replayed with every session warm
// (cache_warm_start 1) projected at 20 sessions a day, a start every 4,320
// s against a 300 s TTL, were multiplied without a word, and a cold
// assumption at 200 a day (a 432 s gap, which still finds another session
// within the TTL half of the time) was said to hold. The figures
// themselves do not change.
func TestProjectJudgesTheWarmStartBothWays(t *testing.T) {
	tests := []struct {
		name     string
		warm     string // run.assumptions cache_warm_start; "" = not recorded
		perDay   float64
		ttl      string // run.assumptions cache.ttl_s
		sessionS float64
		tol      float64 // 0: the default
		implied  float64 // -1: none
		mismatch string
		inState  []string
		inWarn   []string
	}{
		{name: "mirror: warm 1 at 20 a day", warm: "1", perDay: 20, ttl: "300", sessionS: 90,
			implied: 1 - math.Exp(-390.0/4320), mismatch: "warmer",
			inState: []string{"every session finds its static prefix", "implies a warm start of 0.09", "300 s TTL plus a's (the baseline's) mean session of 90 s", "0.07 with the TTL alone", "warmer by 0.91, more than the 0.1 tolerance"},
			inWarn:  []string{"params.cache_warm_start is 1", "every 4320 s on average against m's 300 s cache TTL", "warm start of 0.09", "a 390 s cache lifetime", "warmer by 0.91", "understated", "set cache_warm_start: 0.09 under params:", "--param params.cache_warm_start=0:1:0.25"}},
		{name: "cold at 10K a day", warm: "0", perDay: 10000, ttl: "300", sessionS: 90,
			implied: 1 - math.Exp(-390/8.64), mismatch: "colder",
			inState: []string{"every session starts with a cold prompt cache", "every 8.64 s on average", "cache TTL of 300 s (m)", "implies a warm start of 1"},
			inWarn:  []string{"params.cache_warm_start is 0", "8.64 s on average against m's 300 s cache TTL", "colder by 1", "depends on the deployment", "overstated", "set cache_warm_start: 1 under params:"}},
		// The case the old heuristic said holds: the gap exceeds the TTL,
		// yet half the starts find another session within it.
		{name: "cold at 200 a day, gap past the TTL", warm: "0", perDay: 200, ttl: "300", sessionS: 90,
			implied: 1 - math.Exp(-390.0/432), mismatch: "colder",
			inState: []string{"implies a warm start of 0.59", "0.5 with the TTL alone"},
			inWarn:  []string{"warm start of 0.59", "set cache_warm_start: 0.59"}},
		{name: "cold at 20 a day holds", warm: "0", perDay: 20, ttl: "300", sessionS: 90,
			implied: 1 - math.Exp(-390.0/4320),
			inState: []string{"implies a warm start of 0.09", "holds within the 0.1 tolerance"}},
		{name: "cold at 20 a day, tolerance 0.05", warm: "0", perDay: 20, ttl: "300", sessionS: 90, tol: 0.05,
			implied: 1 - math.Exp(-390.0/4320), mismatch: "colder",
			inWarn: []string{"colder by 0.09, more than the warm-start tolerance 0.05"}},
		// Just past the tolerance: the difference is written with the
		// digits that show it past, not rounded to the tolerance.
		{name: "colder just past the tolerance", warm: "0", perDay: 86400 * 0.109 / 390, ttl: "300", sessionS: 90,
			implied: 1 - math.Exp(-0.109), mismatch: "colder",
			inState: []string{"colder by 0.103, more than the 0.1 tolerance"},
			inWarn:  []string{"colder by 0.103, more than the warm-start tolerance 0.1"}},
		{name: "warm 1 at 10K a day holds", warm: "1", perDay: 10000, ttl: "300", sessionS: 90,
			implied: 1 - math.Exp(-390/8.64),
			inState: []string{"holds within"}},
		{name: "half warm at the implied value", warm: "0.5", perDay: 86400 / 500.0, ttl: "300", sessionS: 46.6,
			implied: 1 - math.Exp(-346.6/500),
			inState: []string{"with probability 0.5", "implies a warm start of 0.5"}},
		// A one-hour TTL at 25 a day: the TTL alone already implies 0.65.
		{name: "one-hour TTL", warm: "0", perDay: 25, ttl: "3600", sessionS: 0,
			implied: 1 - math.Exp(-3600.0/3456), mismatch: "colder",
			inState: []string{"the 3600 s TTL alone (the results record no session time: a lower bound"}},
		{name: "no prompt cache", warm: "not read", perDay: 10000, ttl: "not read", implied: -1,
			inState: []string{"params.cache_warm_start is not read under m (no prompt cache to find warm)"}},
		{name: "no TTL recorded", warm: "0", perDay: 10000, ttl: "", implied: -1,
			inState: []string{"the results record no cache TTL of m, so no warm start is implied"}},
		{name: "results of an earlier build", warm: "", perDay: 10000, implied: -1,
			inState: []string{"the results record no params.cache_warm_start"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := cacheResults(tc.warm, tc.ttl, tc.sessionS)
			opt := Options{SessionsPerDay: tc.perDay}
			wantTol := DefaultWarmStartTolerance
			if tc.tol != 0 {
				opt.WarmStartTolerance, wantTol = &tc.tol, tc.tol
			}
			p, err := Project(res, opt)
			if err != nil {
				t.Fatal(err)
			}
			c := p.Cache
			if c == nil {
				t.Fatal("no cache statement")
			}
			if c.Tolerance != wantTol {
				t.Errorf("tolerance %v, want %v", c.Tolerance, wantTol)
			}
			if want := 86400 / tc.perDay; math.Abs(c.MeanStartGapSeconds-want) > 1e-9 {
				t.Errorf("mean gap %v s, want %v", c.MeanStartGapSeconds, want)
			}
			switch {
			case tc.implied < 0 && c.ImpliedWarmStart != nil:
				t.Errorf("implied warm start %v, want none", *c.ImpliedWarmStart)
			case tc.implied >= 0 && c.ImpliedWarmStart == nil:
				t.Errorf("no implied warm start, want %v", tc.implied)
			case tc.implied >= 0 && math.Abs(*c.ImpliedWarmStart-tc.implied) > 1e-12:
				t.Errorf("implied warm start %v, want %v", *c.ImpliedWarmStart, tc.implied)
			}
			if c.Mismatch != tc.mismatch {
				t.Errorf("mismatch %q, want %q", c.Mismatch, tc.mismatch)
			}
			for _, s := range tc.inState {
				if !strings.Contains(c.Statement, s) {
					t.Errorf("statement %q lacks %q", c.Statement, s)
				}
			}
			var text strings.Builder
			if err := WriteProjection(&text, p); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(text.String(), "\ncache: "+c.Statement+"\n") {
				t.Errorf("statement not in the text plan:\n%s", text.String())
			}
			if tc.mismatch == "" {
				if len(p.Warnings) != 0 {
					t.Errorf("warnings %q, want none", p.Warnings)
				}
				return
			}
			if len(p.Warnings) != 1 {
				t.Fatalf("warnings %q, want one", p.Warnings)
			}
			w := p.Warnings[0]
			for _, s := range tc.inWarn {
				if !strings.Contains(w, s) {
					t.Errorf("warning %q lacks %q", w, s)
				}
			}
			if !strings.Contains(text.String(), "warning: "+w) {
				t.Errorf("warning not in the text plan:\n%s", text.String())
			}
			// The statement and the warning leave the figures alone.
			res.Run.Assumptions = nil
			bare, err := Project(res, Options{SessionsPerDay: tc.perDay})
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(bare.Strategies, p.Strategies); d != "" {
				t.Errorf("figures changed (-without +with the assumptions):\n%s", d)
			}
		})
	}
}

// TestWarmStartToleranceBounds pins that a tolerance that is not a
// difference of probabilities below 1 is refused with what to type: 10
// (meant as 10%) would have silenced every warning.
func TestWarmStartToleranceBounds(t *testing.T) {
	for _, tc := range []struct {
		tol  float64
		want string // "" = accepted
	}{
		{0, ""}, {0.1, ""}, {0.99, ""},
		{-0.1, "want a difference of probabilities, 0 or more and below 1"},
		{math.NaN(), "want a difference of probabilities"},
		{1, "never differ by more than 1, so plan would never warn"},
		{10, "for 10% type 0.1"},
	} {
		err := CheckWarmStartTolerance("--warm-start-tolerance", tc.tol)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%v: %v, want accepted", tc.tol, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%v: error %v, want one saying %q", tc.tol, err, tc.want)
		}
		tol := tc.tol
		if _, err := Project(cacheResults("0", "300", 90), Options{SessionsPerDay: 10, WarmStartTolerance: &tol}); (err == nil) != (tc.want == "") {
			t.Errorf("%v: Project error %v", tc.tol, err)
		}
	}
}

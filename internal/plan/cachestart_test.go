package plan

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/sim"
)

// TestProjectStatesTheColdCacheAssumption pins that plan states the
// params.cache_warm_start its figures were replayed under, with the mean
// gap between session starts at the projected volume and the model's
// cache TTL read from the results, and warns when the gap is within the
// TTL while every session was replayed cold: at 10,000 sessions a day (a
// start every 8.64 s against a 300 s TTL) plan multiplied cold-start
// cache writes, cost and first reply by the volume without a word. The
// figures themselves do not change.
func TestProjectStatesTheColdCacheAssumption(t *testing.T) {
	tests := []struct {
		name    string
		perDay  float64
		warm    string // run.assumptions cache_warm_start; "" = not recorded
		ttl     string // run.assumptions cache.ttl_s
		gap     float64
		warn    bool
		inState []string
	}{
		{"10K a day, 5-minute TTL", 10000, "0", "300", 8.64, true, []string{"params.cache_warm_start 0 (results.json run.assumptions", "every session starts with a cold prompt cache", "every 8.64 s on average", "cache TTL of 300 s (m)"}},
		{"100 a day, 5-minute TTL", 100, "0", "300", 864, false, []string{"every 864 s on average", "cache TTL of 300 s"}},
		// The TTL is the model's: a one-hour cache at the same volume.
		{"100 a day, one-hour TTL", 100, "0", "3600", 864, true, []string{"cache TTL of 3600 s"}},
		// A gap equal to the TTL is not within it.
		{"gap equal to the TTL", 288, "0", "300", 300, false, []string{"every 300 s on average"}},
		{"warm start set", 10000, "0.5", "300", 8.64, false, []string{"params.cache_warm_start 0.5", "with probability 0.5"}},
		{"no prompt cache", 10000, "not read", "not read", 8.64, false, []string{"params.cache_warm_start is not read under m (no prompt cache to find warm)"}},
		{"results of an earlier build", 10000, "", "", 8.64, false, []string{"the results record no params.cache_warm_start"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run := sim.RunInfo{Scenario: "s", Model: "m", Counts: sim.Counts{SessionsRead: 100, SessionsReplayed: 100}}
			if tc.warm != "" {
				run.Assumptions = []sim.Assumption{{Name: "cache.ttl_s", Value: tc.ttl}, {Name: "cache_warm_start", Value: tc.warm}}
			}
			res := countsResults(run)
			p, err := Project(res, Options{SessionsPerDay: tc.perDay})
			if err != nil {
				t.Fatal(err)
			}
			if p.Cache == nil {
				t.Fatal("no cache statement")
			}
			if d := p.Cache.MeanStartGapSeconds - tc.gap; d > 1e-9 || d < -1e-9 {
				t.Errorf("mean gap %v s, want %v", p.Cache.MeanStartGapSeconds, tc.gap)
			}
			for _, s := range tc.inState {
				if !strings.Contains(p.Cache.Statement, s) {
					t.Errorf("statement %q lacks %q", p.Cache.Statement, s)
				}
			}
			if p.Cache.ColdStartUnlikely != tc.warn {
				t.Errorf("cold_start_unlikely %v, want %v", p.Cache.ColdStartUnlikely, tc.warn)
			}
			var text strings.Builder
			if err := WriteProjection(&text, p); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(text.String(), "\ncache: "+p.Cache.Statement+"\n") {
				t.Errorf("statement not in the text plan:\n%s", text.String())
			}
			if !tc.warn {
				if len(p.Warnings) != 0 {
					t.Errorf("warnings %q, want none", p.Warnings)
				}
				return
			}
			if len(p.Warnings) != 1 {
				t.Fatalf("warnings %q, want one", p.Warnings)
			}
			w := p.Warnings[0]
			for _, s := range []string{"params.cache_warm_start is 0", count(tc.gap) + " s on average", "m's " + tc.ttl + " s cache TTL",
				"depends on the deployment", "--param params.cache_warm_start=0:1:0.25", "set params.cache_warm_start in the scenario"} {
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

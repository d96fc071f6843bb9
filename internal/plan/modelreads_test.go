package plan

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/defersim/defersim/scenarios"
	"github.com/defersim/defersim/sim"
)

// TestSweepRefusesAModelOrParamKeyThatChangesNothing pins that a sweep of
// a cache key the model's cache kind does not read, of a param another
// value leaves unread or of the cached prefill rate without a prompt
// cache is an error before any point is replayed, not a table of
// identical runs. (The context window, which every strategy reads, is
// not: TestSweepOverTheContextWindow.)
func TestSweepRefusesAModelOrParamKeyThatChangesNothing(t *testing.T) {
	sc := small(t, 5)
	none := *sc
	none.Model.Cache = sim.CacheConfig{Kind: sim.CacheNone}
	for _, tc := range []struct {
		name, param string
		none        bool
		want        string
	}{
		{"a step under anthropic", "model.cache.step", false,
			`sweep model.cache.step changes nothing at any value: cache "anthropic" reads cache.ttl_s, cache.min_tokens, cache.breakpoints, cache.layout, cache.lookback, cache.write_multiplier, cache.read_multiplier; cache.step is read by cache "openai"`},
		{"a TTL without a cache", "model.cache.ttl_s", true,
			`sweep model.cache.ttl_s changes nothing at any value: cache "none" reads no cache key (no prompt cache: every input token is uncached); cache.ttl_s is read by cache "anthropic", cache "openai"`},
		{"nudge tokens without nudges", "params.nudge_tokens", false,
			"sweep params.nudge_tokens changes nothing at any value: params.nudge_prob is 0: no nudge is drawn, so its tokens are never counted"},
		{"a warm start without a cache", "params.cache_warm_start", true,
			"sweep params.cache_warm_start changes nothing at any value: the model's cache.kind is none: there is no prompt cache to find warm"},
		{"a cached prefill rate without a cache", "model.latency.cached_prefill_tps", true,
			"sweep model.latency.cached_prefill_tps changes nothing at any value: the model's cache.kind is none: no token is ever read from a prompt cache, so the cached prefill rate is never applied"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := sc
			if tc.none {
				s = &none
			}
			dir := t.TempDir()
			_, err := Sweep(context.Background(), SweepConfig{Scenario: s,
				Spec: SweepSpec{Param: tc.param, From: 0, To: 1, Step: 1}, Dir: dir, Bootstrap: -1})
			if err == nil || err.Error() != tc.want {
				t.Fatalf("err = %v\nwant %s", err, tc.want)
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 0 {
				t.Errorf("%d entries written, want none (nothing replayed)", len(ents))
			}
		})
	}
}

// TestSweepGivesACacheKeyNoDeferralReason pins that a strategy a
// model.cache.* sweep leaves unchanged gets no reason drawn from deferral
// ("deferred mode was off …, so how tools are deferred never applied" was
// given to eager for cache.lookback, which every strategy reads).
func TestSweepGivesACacheKeyNoDeferralReason(t *testing.T) {
	sc := small(t, 5)
	sw, err := Sweep(context.Background(), SweepConfig{Scenario: sc,
		Spec: SweepSpec{Param: "model.cache.lookback", From: 20, To: 25, Step: 5}, Dir: t.TempDir(), Bootstrap: -1})
	if err != nil {
		t.Fatal(err)
	}
	flagged := false
	for _, u := range sw.Unchanged {
		flagged = flagged || u.Strategy == "eager"
		if strings.Contains(u.Reason, "deferred") {
			t.Errorf("%s: reason %q speaks of deferral", u.Strategy, u.Reason)
		}
	}
	if !flagged {
		t.Errorf("unchanged = %+v, want eager flagged (a lookback past 20 blocks finds nothing more here)", sw.Unchanged)
	}
}

// TestSweepTakesUnreadReasonsFromTheTable pins that a strategy a params.*
// sweep leaves unchanged because it does not read the key gets the reason
// of the strategy-reads table (sim.StrategyUnread), as a run would state
// it: list_ms under discovery cached used to get no reason; a strategy
// that reads the key is not given it.
func TestSweepTakesUnreadReasonsFromTheTable(t *testing.T) {
	sc := small(t, 5)
	cached := *sc
	cached.Strategies = nil
	for _, s := range sc.Strategies {
		c := s
		c.Name, c.Discovery = s.Name+"-cached", "cached"
		cached.Strategies = append(cached.Strategies, s, c)
	}
	for _, tc := range []struct {
		name  string
		sc    *scenarios.Scenario
		spec  SweepSpec
		want  map[string]string // strategy → reason it must have
		reads []string          // strategies that read the key: no table reason
	}{
		{"list time", &cached, SweepSpec{Param: "params.list_ms", From: 100, To: 200, Step: 100},
			map[string]string{"eager-cached": `its discovery is "cached": it makes no tools/list call`,
				"claude-code-default-cached": `its discovery is "cached": it makes no tools/list call`},
			[]string{"eager", "claude-code-default"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sw, err := Sweep(context.Background(), SweepConfig{Scenario: tc.sc, Spec: tc.spec, Dir: t.TempDir(), Bootstrap: -1})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, u := range sw.Unchanged {
				got[u.Strategy] = u.Reason
			}
			for name, want := range tc.want {
				if r, ok := got[name]; !ok || r != want {
					t.Errorf("%s: unchanged %v, reason %q\nwant %q", name, ok, r, want)
				}
			}
			for _, name := range tc.reads {
				if r := got[name]; strings.Contains(r, "does not compare") || strings.Contains(r, "makes no tools/list") {
					t.Errorf("%s reads %s, but got the reason %q", name, tc.spec.Param, r)
				}
			}
		})
	}
}

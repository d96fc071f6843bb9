package runner

import (
	"context"
	"reflect"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestCachedPrefillRateUnreadWithoutACache pins sim.LatencyKeyUnread on
// the engine and in the assumptions: under cache.kind none (even with
// every session starting warm) changing latency.cached_prefill_tps changes
// no metric of any strategy, and run.assumptions states it "not read" with
// the reason (it was stated as a value in force); under an anthropic cache
// the same change does change the times, so the replay can tell.
func TestCachedPrefillRateUnreadWithoutACache(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the embedded data four times")
	}
	cfg := testConfig(t, "traces: [embedded:trace.jsonl.gz]\ncatalogs: [embedded:catalog]\nmodel: claude-sonnet-4.5\n"+
		"servers:\n  desktop: {local: true}\nstrategies: [eager, anchor-e1-budget8k, claude-code-default]\n", Overrides{})
	cfg.Bootstrap, cfg.Shard = -1, Shard{Index: 0, Count: 4}
	none := cfg
	none.Model.Cache = sim.CacheConfig{Kind: sim.CacheNone}
	none.Params.CacheWarmStart = 1
	run := func(c Config, rate float64) *Output {
		t.Helper()
		c.Model.Latency.CachedPrefillTPS = rate
		out, err := Run(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	metrics := func(out *Output) map[string]any {
		m := map[string]any{}
		for _, s := range out.Results.Strategies {
			m[s.Name] = s.Metrics
		}
		return m
	}
	for _, tc := range []struct {
		name   string
		cfg    Config
		unread bool
	}{
		{"cache none", none, true},
		{"cache anthropic", cfg, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := run(tc.cfg, 71000), run(tc.cfg, 7100)
			if same := reflect.DeepEqual(metrics(a), metrics(b)); same != tc.unread {
				t.Errorf("metrics the same at cached_prefill_tps 71000 and 7100: %v, want %v", same, tc.unread)
			}
			var got sim.Assumption
			for _, as := range a.Results.Run.Assumptions {
				if as.Name == "latency.cached_prefill_tps" {
					got = as
				}
			}
			const why = "model latency: the model's cache.kind is none: no token is ever read from a prompt cache, so the cached prefill rate is never applied"
			if want := (got.Value == notRead && got.Source == why); want != tc.unread {
				t.Errorf("assumption %+v, want not read (%s): %v", got, why, tc.unread)
			}
		})
	}
}

// TestContextWindowReadsHoldOnTheEngine pins sim.Registry.TriggerIgnoresWindow
// against the engine: under every strategy of readsBases whose trigger the
// table says does not compare tokens with the window (every trigger but
// percent), a window a hundred times the size changes no outcome digest
// (the window acts on it only through the count of requests over it, which
// the digest does not hold); under one whose trigger does
// (claude-code-auto10) it does, so the replay can tell.
func TestContextWindowReadsHoldOnTheEngine(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the embedded data twice")
	}
	servers, _ := embeddedServers(t)
	reg, err := DefaultRegistry()
	if err != nil {
		t.Fatal(err)
	}
	bases := readsBases(t, servers)
	cfg := testConfig(t, "traces: [embedded:trace.jsonl.gz]\ncatalogs: [embedded:catalog]\nmodel: claude-sonnet-4.5\n"+
		"servers:\n  desktop: {local: true}\nstrategies: [eager]\n", Overrides{})
	cfg.Strategies, cfg.Baseline, cfg.CheckReads, cfg.Bootstrap = bases, "eager", nil, -1
	cfg.Shard = Shard{Index: 0, Count: 4}
	large := cfg
	large.Model.ContextWindow = cfg.Model.ContextWindow * 100
	a, b := outcomeDigests(t, cfg), outcomeDigests(t, large)
	unread := 0
	for _, s := range bases {
		why := reg.TriggerIgnoresWindow(s)
		switch same := a[s.Name] == b[s.Name]; {
		case why != "" && !same:
			t.Errorf("%s: declared to ignore the window (%s), but a larger window changed its outcomes", s.Name, why)
		case why != "":
			unread++
		case s.Name == "claude-code-auto10" && same:
			t.Errorf("%s reads the window, but a window a hundred times larger changed nothing: the proof cannot tell", s.Name)
		}
	}
	if unread < 10 {
		t.Errorf("only %d strategies declared to ignore the window: the proof covers too little", unread)
	}
}

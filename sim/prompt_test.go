package sim_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
	"github.com/defersim/defersim/traces"
)

// checkStrategies is every strategy preset plus variants that reach the
// other branches of the prompt, registry and search code: fingerprint keys
// and capped warm sets, lazy loading layers, the other search modes, a
// scope that defers only some tools, and no directory with retries.
func checkStrategies(t *testing.T) []sim.Strategy {
	t.Helper()
	var out []sim.Strategy
	for _, name := range presets.StrategyNames() {
		s, err := presets.Strategy(name)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	variant := func(base string, f func(*sim.Strategy)) {
		s, err := presets.Strategy(base)
		if err != nil {
			t.Fatal(err)
		}
		s.Name = fmt.Sprintf("%s-v%d", base, len(out))
		f(&s)
		out = append(out, s)
	}
	variant("anchor-e7-per-tool", func(s *sim.Strategy) { s.Warm.Key = "fingerprint" })
	variant("anchor-e7-per-tool", func(s *sim.Strategy) { s.Warm.MaxTools, s.Warm.Eviction = 3, "lru" })
	variant("anchor-e1-budget8k", func(s *sim.Strategy) { s.Transport, s.Discovery = "lazy", "lazy" })
	variant("codex-cli", func(s *sim.Strategy) { s.Transport, s.Discovery = "lazy", "cached" })
	variant("codex-cli", func(s *sim.Strategy) { s.Transport, s.Discovery = "lazy", "eager" })
	variant("codex-cli", func(s *sim.Strategy) { s.Search.Mode = "regex" })
	variant("codex-cli", func(s *sim.Strategy) { s.Search.Mode = "routed" })
	variant("codex-cli", func(s *sim.Strategy) { s.Directory.Format, s.Directory.Notice = "by-domain", true })
	variant("codex-cli", func(s *sim.Strategy) { s.Directory.Format, s.Directory.DescChars = "names-desc", 40 })
	variant("codex-cli", func(s *sim.Strategy) { s.Directory.Format = "by-server" })
	variant("codex-cli", func(s *sim.Strategy) {
		s.Scope, s.AlwaysDefer, s.Trigger = "always-defer-only", []string{"get_*", "list_*"}, sim.Trigger{Mode: "never", Categorical: true}
	})
	variant("anchor-e6-never-defer-openers", func(s *sim.Strategy) {
		s.Search.Mode, s.Directory.Format, s.Search.KeywordRetries = "substring", "none", 2
	})
	return out
}

// TestIncrementalPromptsMatchFromScratch replays generated sessions under
// many strategies, models and assumptions, checking every request's
// incrementally assembled prompt against one assembled from scratch (see
// ReplayChecked), and that the replay's memos (server sets, rankers,
// directories, prompts) leave every outcome as a fresh replay finds it.
func TestIncrementalPromptsMatchFromScratch(t *testing.T) {
	if testing.Short() {
		t.Skip("generates and replays a trace")
	}
	cat, sessions := genTrace(t, 80)
	reg, err := runner.DefaultRegistry()
	if err != nil {
		t.Fatal(err)
	}
	domains, err := runner.DefaultDomains()
	if err != nil {
		t.Fatal(err)
	}

	base := presets.DefaultParams()
	base.Tokenizer = "bytes/3.5"
	stochastic := base
	stochastic.NudgeProb, stochastic.ColdCallProb, stochastic.CacheWarmStart = 0.3, 0.3, 0.5
	for _, tc := range []struct {
		model  string
		params sim.Params
	}{
		{"claude-sonnet-4.5", base},
		{"claude-haiku-4.5", stochastic},
		{"gpt-5", base},
	} {
		t.Run(tc.model, func(t *testing.T) {
			model, err := presets.Model(tc.model)
			if err != nil {
				t.Fatal(err)
			}
			eng, err := sim.NewEngine(sim.Config{Strategies: checkStrategies(t), Model: model, Params: tc.params,
				Catalog: cat, Seed: 1, Registry: reg, Domains: domains})
			if err != nil {
				t.Fatal(err)
			}
			for i, s := range sessions {
				n := sim.ExtractNeed(s)
				if i%5 == 0 && len(n.Servers) > 0 {
					// A server named twice: its tools appear twice.
					n.Servers = append(n.Servers, n.Servers[0])
				}
				got, err := eng.ReplayChecked(n)
				if err != nil {
					t.Fatalf("session %s: %v", s.ID, err)
				}
				// The same need replayed again, by a new replayer over the
				// engine's now warm memos.
				n2 := sim.ExtractNeed(s)
				n2.Servers = n.Servers
				if d := cmp.Diff(got, eng.ReplayNeed(n2)); d != "" {
					t.Fatalf("session %s: replays differ (-checked +again):\n%s", s.ID, d)
				}
			}
		})
	}
}

// TestRankersIgnoreKPastTheCorpus pins the part of the Ranker contract the
// engine's memo relies on for every registered mode: asking for more
// results than the corpus holds is asking for the corpus size.
func TestRankersIgnoreKPastTheCorpus(t *testing.T) {
	cat, sessions := genTrace(t, 20)
	reg, err := runner.DefaultRegistry()
	if err != nil {
		t.Fatal(err)
	}
	var docs []sim.ToolDoc
	queries := []string{"", "file", "read", "select:" + "x"}
	for _, srv := range cat.LatestAll() {
		for _, tl := range srv.Tools {
			docs = append(docs, sim.ToolDoc{Name: tl.Name, Server: srv.Name, Description: tl.Description, Schema: tl.InputSchema})
			queries = append(queries, tl.Name, "select:"+tl.Name)
		}
	}
	for _, s := range sessions {
		for _, ev := range s.Events {
			if ev.Type == traces.UserMessage {
				queries = append(queries, ev.Text)
			}
		}
	}
	n := len(docs)
	for _, mode := range reg.SearchModes()[1:] {
		f, _ := reg.Ranker(mode)
		rk, err := f(docs)
		if err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
		for _, q := range queries {
			want := rk.Rank(q, n)
			for _, k := range []int{n + 1, n + 8, 10000} {
				if got := rk.Rank(q, k); !slices.Equal(got, want) {
					t.Errorf("%s: Rank(%q, %d) = %v, Rank(q, %d) = %v", mode, q, k, got, n, want)
				}
			}
		}
	}
}

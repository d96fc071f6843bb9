package sim_test

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/scenarios"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/gen"
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

// TestFastReplayMatchesReference replays generated sessions under many
// strategies, models and assumptions with the fast replayer (one replayer
// for every session, as a worker) and with the reference replayer
// (reference_test.go), requiring the same prompts, outcomes and fidelity
// pairs; and that the replay's memos (server sets, rankers, directories,
// prompts) leave every outcome as a fresh replay finds it.
func TestFastReplayMatchesReference(t *testing.T) {
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
	stochastic.NudgeProb, stochastic.ColdCallProb, stochastic.CacheWarmStart, stochastic.RelistProb = 0.3, 0.3, 0.5, 0.5
	for _, tc := range []struct {
		model  string
		params sim.Params
	}{
		{"claude-sonnet-4.5", base},
		{"claude-haiku-4.5", stochastic},
		{"gpt-5", base},
		{"gpt-5-kinds", base},
	} {
		t.Run(tc.model, func(t *testing.T) {
			model, err := presets.Model(strings.TrimSuffix(tc.model, "-kinds"))
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasSuffix(tc.model, "-kinds") {
				// Every request kind its own time (requestkind.go).
				model.Latency.Kinds = sim.KindMs{TurnText: 100, TurnCall: 200, ToolText: 300, ToolCall: 400, Repeat: 500}
			}
			eng, err := sim.NewEngine(sim.Config{Strategies: checkStrategies(t), Model: model, Params: tc.params,
				Catalog: cat, Seed: 1, Registry: reg, Domains: domains})
			if err != nil {
				t.Fatal(err)
			}
			check := eng.NewReferenceCheck()
			for i, s := range sessions {
				if i%5 == 0 {
					s = withServerTwice(s) // its tools appear twice
				}
				if err := check.Session(s, int64(i)); err != nil {
					t.Fatal(err)
				}
				// The same session replayed again, by a new replayer over
				// the engine's now warm memos.
				// cmp.Diff only when they differ: it walks the outcomes by
				// reflection, a tenth of the test's time when run on each.
				n := sim.ExtractNeed(s)
				if first, again := eng.ReplayNeed(n), eng.ReplayNeed(sim.ExtractNeed(s)); !reflect.DeepEqual(first, again) {
					t.Fatalf("session %s: replays differ (-first +again):\n%s", s.ID, cmp.Diff(first, again))
				}
			}
			t.Logf("%d sessions, %d prompts compared", len(sessions), check.Requests)
		})
	}
}

// TestManyServersMatchReference pins the directory memo past 64 servers:
// a session's registry of more than 64 tables (the memo's key spills its
// listed-table bits into a string) must give every prompt the reference
// replayer builds, directories included.
func TestManyServersMatchReference(t *testing.T) {
	if testing.Short() {
		t.Skip("generates and replays a trace")
	}
	p := gen.Defaults()
	p.Sessions, p.Servers = 30, 90
	cat, sessions := genTraceWith(t, p)
	reg, err := runner.DefaultRegistry()
	if err != nil {
		t.Fatal(err)
	}
	domains, err := runner.DefaultDomains()
	if err != nil {
		t.Fatal(err)
	}
	model, err := presets.Model("claude-sonnet-4.5")
	if err != nil {
		t.Fatal(err)
	}
	params := presets.DefaultParams()
	params.Tokenizer = "bytes/3.5"
	// The strategies whose directories list servers as they are
	// discovered, so that which tables are listed varies.
	var strategies []sim.Strategy
	for _, s := range checkStrategies(t) {
		if s.Discovery == "lazy" || s.Discovery == "cached" {
			strategies = append(strategies, s)
		}
	}
	eng, err := sim.NewEngine(sim.Config{Strategies: strategies, Model: model, Params: params,
		Catalog: cat, Seed: 1, Registry: reg, Domains: domains})
	if err != nil {
		t.Fatal(err)
	}
	check := eng.NewReferenceCheck()
	for i, s := range sessions {
		if err := check.Session(s, int64(i)); err != nil {
			t.Fatal(err)
		}
	}
	if len(cat.ServerNames()) <= 64 {
		t.Fatalf("the catalog has %d servers: the test needs more than 64", len(cat.ServerNames()))
	}
	t.Logf("%d servers, %d sessions, %d strategies, %d prompts compared", len(cat.ServerNames()), len(sessions), len(strategies), check.Requests)
}

// withServerTwice returns a copy of s whose session_start names its first
// server twice.
func withServerTwice(s *traces.Session) *traces.Session {
	c := *s
	c.Events = slices.Clone(s.Events)
	for i := range c.Events {
		if ev := &c.Events[i]; ev.Type == traces.SessionStart && len(ev.Servers()) > 0 {
			fields := *ev.StartFields // c's own: s keeps its servers
			fields.Servers = append(slices.Clone(fields.Servers), fields.Servers[0])
			ev.StartFields = &fields
		}
	}
	return &c
}

// TestShippedScenariosMatchReference replays every shipped scenario (the
// embedded default and scenarios/*.yaml) with the fast replayer and the
// reference replayer, session by session, and requires the same prompts,
// outcomes and fidelity pairs. Scenarios whose inputs are not here (the
// real catalogs of ../shared/data, an example's own traces) are skipped.
func TestShippedScenariosMatchReference(t *testing.T) {
	if testing.Short() {
		t.Skip("replays every shipped scenario twice")
	}
	files, err := filepath.Glob("../scenarios/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no shipped scenarios (%v)", err)
	}
	for _, name := range append([]string{"default"}, files...) {
		if filepath.Base(name) == "default.yaml" {
			continue // the embedded default
		}
		t.Run(strings.TrimSuffix(filepath.Base(name), ".yaml"), func(t *testing.T) {
			load := scenarios.Default
			if name != "default" {
				load = func() (*scenarios.Scenario, error) { return scenarios.Load(name) }
			}
			sc, err := load()
			if err != nil {
				t.Fatal(err)
			}
			if err := sc.CheckPaths(); err != nil {
				t.Skipf("inputs not here: %v", err)
			}
			eng, cfg := scenarioEngine(t, sc)
			check := eng.NewReferenceCheck()
			var idx int64
			for s, err := range runner.Sessions(cfg) {
				if err != nil {
					t.Fatal(err)
				}
				if err := check.Session(s, idx); err != nil {
					t.Fatal(err)
				}
				idx++
			}
			if idx == 0 || check.Requests == 0 {
				t.Fatalf("%d sessions, %d prompts: nothing compared", idx, check.Requests)
			}
			t.Logf("%d sessions, %d strategies, %d prompts compared", idx, len(eng.Strategies()), check.Requests)
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

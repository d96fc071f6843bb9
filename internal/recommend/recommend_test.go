package recommend

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/scenarios"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
	"github.com/defersim/defersim/traces/gen"
)

// planted generates the default synthetic data set (planted openers
// web_search and web_fetch, the fallback memory_recall and the rare,
// large screenshot) and returns its trace and catalog.
func planted(t *testing.T, sessions int) (string, string) {
	t.Helper()
	p := gen.Defaults()
	p.Sessions = sessions
	g, err := gen.New(p)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := g.WriteDir(dir, gen.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, gen.TraceFile), filepath.Join(dir, gen.CatalogDir)
}

func defaultConfig(t *testing.T, trace, cat string) Config {
	t.Helper()
	sc, err := scenarios.Default()
	if err != nil {
		t.Fatal(err)
	}
	cur, _ := sc.Strategy(sc.Baseline)
	return Config{Traces: []string{trace}, Catalogs: []string{cat}, Model: sc.Model, Params: sc.Params,
		Current: cur, Seed: 7, TestShare: 0.3, Rules: DefaultRules(), Bootstrap: 200,
		Presets: []string{"eager", "anchor-e6-never-defer-openers", "claude-code-default"}}
}

// TestFindsPlantedOpeners: the generator plants web_search (opens 30% of
// sessions) and web_fetch (5%, and used in 10% more); the recommender must
// put both on the never-defer list and the rare 3,500-byte screenshot on
// the always-defer list, and its proposal must beat sending every schema
// on the held-out sessions.
func TestFindsPlantedOpeners(t *testing.T) {
	trace, cat := planted(t, 300)
	p, err := Run(context.Background(), defaultConfig(t, trace, cat))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"web_search", "web_fetch"} {
		if !slices.Contains(p.Strategy.NeverDefer, want) {
			t.Errorf("never-defer %v lacks planted opener %s", p.Strategy.NeverDefer, want)
		}
	}
	if !slices.Contains(p.Strategy.AlwaysDefer, "screenshot") {
		t.Errorf("always-defer %v lacks the rare, large screenshot", p.Strategy.AlwaysDefer)
	}
	if slices.Contains(p.Strategy.NeverDefer, "screenshot") {
		t.Error("screenshot is never-deferred")
	}
	if p.Training+p.HeldOut != 300 || p.HeldOut == 0 {
		t.Errorf("split %d + %d sessions", p.Training, p.HeldOut)
	}
	v := p.Validation
	if v == nil {
		t.Fatal("no validation")
	}
	names := []string{}
	for _, r := range v.Rows {
		names = append(names, r.Strategy)
	}
	if diff := cmp.Diff([]string{proposalName, "eager", "anchor-e6-never-defer-openers", "claude-code-default"}, names); diff != "" {
		t.Errorf("validated strategies (-want +got):\n%s", diff)
	}
	for _, r := range v.Rows {
		if r.Strategy == "eager" && (r.CostDiff >= 0 || r.FirstReplyDiff >= 0 || r.Verdict != dominates) {
			t.Errorf("proposal vs eager: Δcost %v, Δfirst reply %v, %s", r.CostDiff, r.FirstReplyDiff, r.Verdict)
		}
	}
}

// TestSnippetParses: the snippet is a valid strategies entry that resolves
// to the proposed strategy.
func TestSnippetParses(t *testing.T) {
	_, _, p := proposeAll(t)
	if p.Validation != nil {
		t.Error("validation without held-out sessions")
	}
	doc := "name: snippet\nstrategies:\n" + indent(string(Snippet(p)))
	sc, err := scenarios.Parse([]byte(doc), "snippet.yaml", "")
	if err != nil {
		t.Fatalf("snippet does not parse: %v\n%s", err, doc)
	}
	got, ok := sc.Strategy(proposalName)
	if !ok {
		t.Fatal("no recommended strategy")
	}
	want := p.Strategy
	for _, s := range []*sim.Strategy{&got, &want} {
		s.Description, s.Source = "", ""
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("snippet strategy (-proposal +parsed):\n%s", diff)
	}
}

// TestSnippetLoadsAndRuns pins that recommend's snippet, pasted into a
// scenario, loads and runs in both its forms: mode tokens, and mode
// always with scope always-defer-only. It writes every trigger key
// (count: 0, percent: 0, counter: bytes/3.5 under a trigger that reads
// neither), and a run refuses a key no component of its strategy reads
// unless the value is the key's zero or default (runner
// TestScenarioKeysNoComponentReads).
func TestSnippetLoadsAndRuns(t *testing.T) {
	trace, cat, p := proposeAll(t)
	if p.Strategy.Trigger.Mode != sim.TriggerTokens || len(p.Strategy.AlwaysDefer) == 0 {
		t.Fatalf("proposal %+v: want mode tokens with an always-defer list (the planted screenshot)", p.Strategy.Trigger)
	}
	always := *p
	always.Strategy.Trigger = sim.Trigger{Mode: sim.TriggerAlways}
	always.Strategy.Scope = sim.ScopeAlwaysDeferOnly
	for _, q := range []*Proposal{p, &always} {
		t.Run(q.Strategy.Trigger.Mode, func(t *testing.T) {
			snippet := string(Snippet(q))
			if !strings.Contains(snippet, "    count: 0\n") || !strings.Contains(snippet, "    percent: 0\n") {
				t.Fatalf("snippet no longer writes the zero trigger keys this test is about:\n%s", snippet)
			}
			doc := fmt.Sprintf("name: snippet\ntraces: [%q]\ncatalogs: [%q]\nstrategies:\n%s", trace, cat, indent(snippet))
			sc, err := scenarios.Parse([]byte(doc), "snippet.yaml", "")
			if err != nil {
				t.Fatalf("snippet does not load: %v\n%s", err, doc)
			}
			rc, err := runner.FromScenario(sc, runner.Overrides{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			rc.Bootstrap = -1
			if _, err := runner.Run(context.Background(), rc); err != nil {
				t.Fatalf("snippet does not run: %v\n%s", err, doc)
			}
		})
	}
}

// proposeAll runs recommend on a planted trace of 120 sessions, all of
// them learnt from (no held-out share), and returns the trace, its
// catalog and the proposal.
func proposeAll(t *testing.T) (trace, cat string, p *Proposal) {
	t.Helper()
	trace, cat = planted(t, 120)
	cfg := defaultConfig(t, trace, cat)
	cfg.TestShare = 0
	p, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return trace, cat, p
}

func indent(s string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if l != "" {
			b.WriteString("  " + l)
		}
	}
	return b.String()
}

func TestDecisions(t *testing.T) {
	e := toolsArrayEconomy()
	tests := []struct {
		name string
		u    toolUsage
		tok  int64
		want string
	}{
		{"frequent opener", toolUsage{Opens: 60, Uses: 60, FirstTurn: 50, BeforeReply: 50, Calls: 80}, 300, neverDefer},
		{"opener seen twice", toolUsage{Opens: 2, Uses: 2, FirstTurn: 2, BeforeReply: 2, Calls: 2}, 300, byBudget},
		{"rare and large", toolUsage{Uses: 2, Calls: 2}, 2000, alwaysDefer},
		{"rare and small", toolUsage{Uses: 2, Calls: 2}, 50, byBudget},
		{"common, never before reply", toolUsage{Uses: 80, Calls: 200}, 800, byBudget},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := assess(e, e, DefaultRules(), 500, toolKey{"s", "t"}, &tc.u, 200, 200, Schema{Tokens: tc.tok}, false)
			if a.Decision != tc.want {
				t.Errorf("decision %s, want %s (%s)", a.Decision, tc.want, a.Why)
			}
		})
	}
}

// toolsArrayEconomy is the economy the decision tests price with:
// claude-sonnet-4.5, tools-array injection, 10 requests of a 30,000-token
// mean prompt (20,000 the first), 15,000 of it deferrable schema.
func toolsArrayEconomy() *Economy {
	m, _ := presets.Model("claude-sonnet-4.5")
	return &Economy{Model: m, Params: presets.DefaultParams(), Injection: sim.InjectToolsArray, Requests: 10,
		FirstPrompt: 20000, MeanPrompt: 30000, SearchOutput: searchOutputTokens, DeferredSchema: 15000}
}

func TestIsHeldOut(t *testing.T) {
	n := 0
	for i := range 10000 {
		id := "s" + string(rune('a'+i%26)) + strings.Repeat("x", i%7) + string(rune('0'+i%10)) + string(rune(i))
		first := isHeldOut(3, id, 0.3)
		if first {
			n++
		}
		if again := isHeldOut(3, id, 0.3); again != first {
			t.Fatal("not deterministic")
		}
	}
	if n < 2800 || n > 3200 {
		t.Errorf("%d of 10000 held out at share 0.3", n)
	}
	if isHeldOut(1, "x", 0) || !isHeldOut(1, "x", 1) {
		t.Error("shares 0 and 1 not respected")
	}
}

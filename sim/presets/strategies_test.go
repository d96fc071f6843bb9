package presets

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/sim"
)

func mustStrategy(t *testing.T, name string) sim.Strategy {
	t.Helper()
	s, err := Strategy(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestEveryStrategyPresetValidates(t *testing.T) {
	names := StrategyNames()
	if len(names) < 13 {
		t.Fatalf("only %d presets", len(names))
	}
	seen := map[string]bool{}
	for _, name := range names {
		if seen[name] {
			t.Errorf("preset %q listed twice", name)
		}
		seen[name] = true
		s := mustStrategy(t, name)
		if s.Name != name {
			t.Errorf("%s: Name = %q", name, s.Name)
		}
		if err := s.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if s.Description == "" || s.Source == "" {
			t.Errorf("%s: missing description or source", name)
		}
		// The source cites a file users have (reports show it), not the
		// developers' REFERENCE notes.
		if name != "eager" && (!strings.Contains(s.Source, "docs/presets.md") || strings.Contains(s.Source, "REFERENCE")) {
			t.Errorf("%s: source %q does not cite docs/presets.md", name, s.Source)
		}
		// Presets come back normalized: normalizing again changes nothing.
		n := s
		n.Normalize()
		if d := cmp.Diff(s, n); d != "" {
			t.Errorf("%s: not normalized (-got +normalized):\n%s", name, d)
		}
	}
}

func TestStrategyPresetFacts(t *testing.T) {
	type facts struct {
		mode        string
		count       int
		budget      int64
		counter     string
		percent     float64
		categorical bool
		scope       string
		always      int // len(AlwaysDefer)
		never       []string
		warmOff     bool
		warmTools   int
		warmTokens  int64
		eviction    string
		injection   string
		searchMode  string
		k           int
		familyCore  int
		rejected    string
		echo        bool
	}
	const all = allMatches
	tests := map[string]facts{
		"eager":                           {mode: "never", counter: "bytes/3.5", scope: "mcp", eviction: "lrl", injection: "tools-array", searchMode: "select", k: 5, rejected: "retry"},
		"anchor-e0-count30":               {mode: "count", count: 30, counter: "bytes/3.5", scope: "mcp", warmOff: true, eviction: "lrl", injection: "tools-array", searchMode: "substring", k: all, rejected: "execute", echo: true},
		"anchor-e1-budget8k":              {mode: "tokens", budget: 8000, counter: "bytes/3.5", scope: "mcp", eviction: "lrl", injection: "tools-array", searchMode: "substring", k: all, rejected: "execute", echo: true},
		"anchor-e4-budget-or-categorical": {mode: "tokens", budget: 8000, counter: "bytes/3.5", categorical: true, scope: "mcp", always: 13, eviction: "lrl", injection: "tools-array", searchMode: "substring", k: all, rejected: "execute", echo: true},
		"anchor-e6-never-defer-openers":   {mode: "tokens", budget: 8000, counter: "bytes/3.5", categorical: true, scope: "mcp", always: 13, never: []string{"web_search", "web_fetch"}, eviction: "lrl", injection: "tools-array", searchMode: "keyword", k: all, rejected: "execute", echo: true},
		"anchor-e7-per-tool":              {mode: "any-cold", counter: "bytes/3.5", scope: "mcp", always: 13, never: []string{"web_search", "web_fetch"}, eviction: "lrl", injection: "tools-array", searchMode: "bm25", k: 8, rejected: "execute", echo: true},
		"anchor-e9-warm-capped":           {mode: "any-cold", counter: "bytes/3.5", scope: "mcp", always: 13, never: []string{"web_search", "web_fetch"}, warmTools: 16, warmTokens: 8000, eviction: "lrl", injection: "tools-array", searchMode: "bm25", k: 8, familyCore: 7, rejected: "retry", echo: true},
		"claude-code-default":             {mode: "always", counter: "bytes/3.5", scope: "mcp", eviction: "lrl", injection: "inline", searchMode: "keyword", k: 5, rejected: "retry"},
		"claude-code-auto10":              {mode: "percent", percent: 10, counter: "o200k_base", scope: "mcp", eviction: "lrl", injection: "inline", searchMode: "keyword", k: 5, rejected: "retry"},
		"anthropic-api-inline":            {mode: "always", counter: "bytes/3.5", scope: "mcp", eviction: "lrl", injection: "inline", searchMode: "bm25-anthropic", k: 5, rejected: "retry"},
		"anthropic-api-inline-regex":      {mode: "always", counter: "bytes/3.5", scope: "mcp", eviction: "lrl", injection: "inline", searchMode: "regex", k: 5, rejected: "retry"},
		"copilot-cli-30":                  {mode: "count", count: 29, counter: "bytes/3.5", scope: "mcp", eviction: "lrl", injection: "tools-array", searchMode: "bm25", k: 5, rejected: "retry"},
		"codex-cli":                       {mode: "always", counter: "bytes/3.5", scope: "mcp", eviction: "lrl", injection: "tools-array", searchMode: "bm25", k: 8, rejected: "retry"},
		"qwen-code":                       {mode: "always", counter: "bytes/3.5", scope: "mcp", eviction: "lrl", injection: "inline", searchMode: "bm25", k: 5, rejected: "retry"},
	}
	if len(tests) != len(StrategyNames()) {
		t.Errorf("facts pinned for %d presets, %d exist", len(tests), len(StrategyNames()))
	}
	for name, want := range tests {
		s := mustStrategy(t, name)
		got := facts{
			mode: s.Trigger.Mode, count: s.Trigger.Count, budget: s.Trigger.Budget, counter: s.Trigger.Counter,
			percent: s.Trigger.Percent, categorical: s.Trigger.Categorical, scope: s.Scope, always: len(s.AlwaysDefer),
			never: s.NeverDefer, warmOff: s.Warm.Disabled, warmTools: s.Warm.MaxTools, warmTokens: s.Warm.MaxTokens,
			eviction: s.Warm.Eviction, injection: s.Injection, searchMode: s.Search.Mode, k: s.Search.K,
			familyCore: len(s.Search.FamilyCore), rejected: s.Rejected, echo: s.EchoSchema,
		}
		if d := cmp.Diff(want, got, cmp.AllowUnexported(facts{})); d != "" {
			t.Errorf("%s (-want +got):\n%s", name, d)
		}
		if s.Warm.Key != "name" {
			t.Errorf("%s: warm key %q, want name", name, s.Warm.Key)
		}
		// The anchor runtime's cache layout (REFERENCE §1) in every era; the
		// other runtimes document none and keep the model's.
		wantLayout := ""
		if strings.HasPrefix(name, "anchor-") {
			wantLayout = sim.LayoutCurrentUser
		}
		if s.CacheLayout != wantLayout {
			t.Errorf("%s: cache layout %q, want %q", name, s.CacheLayout, wantLayout)
		}
	}
}

func TestAnchorAlwaysDeferList(t *testing.T) {
	s := mustStrategy(t, "anchor-e4-budget-or-categorical")
	for _, want := range []string{"computer", "screenshot", "applescript", "accessibility", "computer_use", "wait_for",
		"ghostty", "process", "schedule_create", "schedule_list", "schedule_remove", "schedule_update", "browser_*"} {
		if !slices.Contains(s.AlwaysDefer, want) {
			t.Errorf("always_defer lacks %q", want)
		}
	}
	if slices.Contains(s.AlwaysDefer, "memory_recall") {
		t.Error("memory_recall was taken off the always-defer list")
	}
	e9 := mustStrategy(t, "anchor-e9-warm-capped")
	if !slices.Equal(e9.Search.Family, []string{"browser_*"}) {
		t.Errorf("e9 family = %v", e9.Search.Family)
	}
	for _, c := range e9.Search.FamilyCore {
		if !strings.HasPrefix(c, "browser_") {
			t.Errorf("family core %q is not a browser_ tool", c)
		}
	}
}

func TestStrategyPresetsAreFresh(t *testing.T) {
	a := mustStrategy(t, "anchor-e9-warm-capped")
	a.AlwaysDefer[0] = "changed"
	a.NeverDefer[0] = "changed"
	a.Search.FamilyCore[0] = "changed"
	b := mustStrategy(t, "anchor-e9-warm-capped")
	if b.AlwaysDefer[0] == "changed" || b.NeverDefer[0] == "changed" || b.Search.FamilyCore[0] == "changed" {
		t.Fatal("presets share slices between calls")
	}
}

func TestUnknownStrategyPreset(t *testing.T) {
	_, err := Strategy("sometimes")
	if err == nil || !strings.Contains(err.Error(), `unknown strategy preset "sometimes"`) || !strings.Contains(err.Error(), "anchor-e1-budget8k") {
		t.Fatalf("err = %v", err)
	}
}

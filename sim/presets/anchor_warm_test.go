package presets

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/traces"
)

// Versions of a memory server: 2 makes "query" required in recall; 3 only
// adds annotations (what the model sees is unchanged). A web server stays
// at one version.
var (
	memV1 = `{"name":"recall","description":"Recall facts.","inputSchema":{"type":"object","properties":{"topic":{"type":"string"}}}}`
	memV2 = `{"name":"recall","description":"Recall facts.","inputSchema":{"type":"object","properties":{"topic":{"type":"string"},"query":{"type":"string"}},"required":["query"]}}`
	memV3 = `{"name":"recall","description":"Recall facts.","inputSchema":{"type":"object","properties":{"topic":{"type":"string"},"query":{"type":"string"}},"required":["query"]},"annotations":{"readOnlyHint":true}}`
	fetch = `{"name":"fetch","description":"Fetch a URL.","inputSchema":{"type":"object","properties":{"url":{"type":"string"}},"required":["url"]}}`
)

// TestAnchorClearsWarmSetOnRegistryChange pins the anchor runtime's warm-set
// rule (REFERENCE §1, "Warm set"): entries are keyed by name, but the whole
// set is cleared when the registry-wide fingerprint changes, checked at the
// start of each run. So a server upgraded in the middle of a run leaves the
// stale schema in view until the run ends (one stale call, malformed: the
// new version requires "query"); at the next run start every loaded schema
// goes, the changed tool's and the unchanged tool's alike (two more
// searches); a release that changes nothing the model sees (annotations)
// clears nothing. Without the rule (warm.clear never), the stale schema
// stays for the session (a second stale, malformed call) and nothing is
// searched again.
func TestAnchorClearsWarmSetOnRegistryChange(t *testing.T) {
	cat := testCatalog(t,
		testServer{"mem", "1", []string{memV1}}, testServer{"mem", "2", []string{memV2}}, testServer{"mem", "3", []string{memV3}},
		testServer{"web", "1", []string{fetch}})
	n := need([]traces.ServerRef{{Name: "mem", Version: "1"}, {Name: "web", Version: "1"}},
		userSay("recall my topic and fetch the page"),
		callTool("mem", "recall", `{"topic":"a"}`), // cold: search 1 loads recall@1
		callTool("web", "fetch", `{"url":"u"}`),    // cold: search 2 loads fetch
		answer(),
		upgrade("mem", "2"),                        // mid-run: the anchor checks only at run start
		callTool("mem", "recall", `{"topic":"b"}`), // stale (recall@1 in view): missing "query"
		answer(),
		userSay("again"), // run start, fingerprint changed: cleared
		callTool("mem", "recall", `{"topic":"c","query":"q"}`), // cold again: search 3 loads recall@2
		callTool("web", "fetch", `{"url":"v"}`),                // cleared too: search 4
		answer(),
		upgrade("mem", "3"), // annotations only: same fingerprint
		userSay("once more"),
		callTool("web", "fetch", `{"url":"w"}`), // still warm
		answer())
	names := []string{"searches", "stale_warm_calls", "malformed_calls", "malformed_missing_required", "stale_valid_calls"}
	cleared := map[string]float64{"searches": 4, "stale_warm_calls": 1, "malformed_calls": 1, "malformed_missing_required": 1, "stale_valid_calls": 0}
	kept := map[string]float64{"searches": 2, "stale_warm_calls": 2, "malformed_calls": 2, "malformed_missing_required": 2, "stale_valid_calls": 0}
	for _, era := range []string{"anchor-e1-budget8k", "anchor-e4-budget-or-categorical", "anchor-e6-never-defer-openers",
		"anchor-e7-per-tool", "anchor-e9-warm-capped"} {
		t.Run(era, func(t *testing.T) {
			s := mustStrategy(t, era)
			if s.Warm.Clear != sim.WarmClearRegistryChange {
				t.Fatalf("warm.clear = %q, want %s", s.Warm.Clear, sim.WarmClearRegistryChange)
			}
			// Deferred mode on from the start (this catalog is far below the
			// budget) and exact loads: only the warm set is under test.
			s.Trigger = sim.Trigger{Mode: sim.TriggerAlways}
			s.Search = sim.Search{Mode: "select"}
			off := s
			off.Name += "-no-clear"
			off.Warm.Clear = ""
			e := testEngine(t, cat, []sim.Strategy{s, off}, nil)
			out := e.ReplayNeed(n)
			if d := cmp.Diff(cleared, metricsOf(out[0], names...)); d != "" {
				t.Errorf("%s (-want +got):\n%s", era, d)
			}
			if d := cmp.Diff(kept, metricsOf(out[1], names...)); d != "" {
				t.Errorf("%s without clearing (-want +got):\n%s", era, d)
			}
		})
	}
}

// TestOnlyAnchorPresetsClearTheirWarmSet pins which presets use the
// clearing: the anchor's eras with a warm set (E1 on; E0 has none), and no
// other runtime (REFERENCE §2 documents no such rule for them; Codex CLI's
// is reported to keep stale schemas).
func TestOnlyAnchorPresetsClearTheirWarmSet(t *testing.T) {
	want := map[string]bool{"anchor-e1-budget8k": true, "anchor-e4-budget-or-categorical": true,
		"anchor-e6-never-defer-openers": true, "anchor-e7-per-tool": true, "anchor-e9-warm-capped": true}
	for _, name := range StrategyNames() {
		s := mustStrategy(t, name)
		if got := s.Warm.Clear == sim.WarmClearRegistryChange; got != want[name] {
			t.Errorf("%s: clears on registry change = %v, want %v", name, got, want[name])
		}
	}
}

// TestAnchorE9WarmCapCountsWithTheEstimator pins E9's warm cap (REFERENCE
// §1: 16 schemas / 8,000 tokens, least recently loaded evicted, never the
// newest) counted with the anchor's estimator: the compact OpenAI function
// form, bytes / 3.5 rounded up per tool. Tools of 7,000 bytes are 2,000
// tokens each: four fill the cap exactly (8,000 is not over it), a fifth
// evicts the first loaded, which then needs a new search. Seventeen tools
// of 350 bytes (100 tokens each) pass the 16-schema cap: the seventeenth
// evicts the first. One tool of 28,003 bytes (8,001 tokens) alone is over
// the cap but is the newest: it stays. Counted as before (o200k_base plus
// 8 per tool), the 7,000-byte tools are far smaller and nothing is evicted.
func TestAnchorE9WarmCapCountsWithTheEstimator(t *testing.T) {
	e9 := mustStrategy(t, "anchor-e9-warm-capped")
	if e9.Warm.MaxTools != 16 || e9.Warm.MaxTokens != 8000 || e9.Warm.Counter != "bytes/3.5" || e9.Warm.Eviction != sim.EvictLRL {
		t.Fatalf("e9 warm set %+v", e9.Warm)
	}
	e9.Search = sim.Search{Mode: "select"}
	content := e9
	content.Name, content.Warm.Counter = "content-counted", ""
	servers := []traces.ServerRef{{Name: "s", Version: "1"}}
	// loadAll calls tools 0..n-1 once each, then tool 0 again.
	loadAll := func(n int) *sim.Need {
		steps := []sim.Step{userSay("go")}
		for i := range n {
			steps = append(steps, callTool("s", fmt.Sprintf("tool_%02d", i), `{}`))
		}
		return need(servers, append(steps, callTool("s", "tool_00", `{}`), answer())...)
	}
	catalogOf := func(sizes ...int) *catalog.Catalog {
		var tools []string
		for i, size := range sizes {
			tools = append(tools, paddedTool(t, fmt.Sprintf("tool_%02d", i), size))
		}
		tools = append(tools, paddedTool(t, "never_called", 400)) // keeps a deferred tool cold
		return testCatalog(t, testServer{"s", "1", tools})
	}
	repeat := func(size, n int) []int {
		out := make([]int, n)
		for i := range out {
			out[i] = size
		}
		return out
	}
	for _, tc := range []struct {
		name                string
		sizes               []int
		e9Searches, content float64
	}{
		{"four of 2,000 fill the cap", repeat(7000, 4), 4, 4},
		{"a fifth evicts the first", repeat(7000, 5), 6, 5},
		{"the seventeenth schema evicts the first", repeat(350, 17), 18, 18},
		{"sixteen fit", repeat(350, 16), 16, 16},
		{"the newest stays", []int{28003}, 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := testEngine(t, catalogOf(tc.sizes...), []sim.Strategy{e9, content}, nil).ReplayNeed(loadAll(len(tc.sizes)))
			if got := out[0].Values[sim.MSearches]; got != tc.e9Searches {
				t.Errorf("e9: %v searches, want %v", got, tc.e9Searches)
			}
			if got := out[1].Values[sim.MSearches]; got != tc.content {
				t.Errorf("counted as tools[] content: %v searches, want %v", got, tc.content)
			}
		})
	}
}

// TestAnchorE9CapCanEvictAToolItsStepCalls pins the difference
// docs/presets.md names for E9: one model step that calls five tools of
// 2,000 estimated tokens each (7,000 bytes / 3.5) loads all five before its
// request, in one select: search, so the fifth load evicts the first
// (8,000 tokens is the cap). The call to the first then reaches execution
// with no schema in view: it counts in calls_without_schema and is neither
// rejected nor malformed, though E9 rejects cold calls. Four such tools
// fit, and no call is without its schema.
func TestAnchorE9CapCanEvictAToolItsStepCalls(t *testing.T) {
	e9 := mustStrategy(t, "anchor-e9-warm-capped")
	e9.Search = sim.Search{Mode: "select"}
	servers := []traces.ServerRef{{Name: "s", Version: "1"}}
	names := []string{"searches", "calls_without_schema", "malformed_calls", "extra_round_trips"}
	for _, tc := range []struct {
		tools int
		want  map[string]float64
	}{
		{4, map[string]float64{"searches": 1, "calls_without_schema": 0, "malformed_calls": 0, "extra_round_trips": 1}},
		{5, map[string]float64{"searches": 1, "calls_without_schema": 1, "malformed_calls": 0, "extra_round_trips": 1}},
	} {
		var tools []string
		step := sim.Step{Kind: sim.StepModel, Usage: &traces.Usage{Output: 20}}
		for i := range tc.tools {
			name := fmt.Sprintf("tool_%02d", i)
			tools = append(tools, paddedTool(t, name, 7000))
			step.Calls = append(step.Calls, callTool("s", name, `{}`).Calls...)
		}
		tools = append(tools, paddedTool(t, "never_called", 400)) // keeps a deferred tool cold
		cat := testCatalog(t, testServer{"s", "1", tools})
		out := testEngine(t, cat, []sim.Strategy{e9}, nil).ReplayNeed(need(servers, userSay("go"), step, answer()))
		if d := cmp.Diff(tc.want, metricsOf(out[0], names...)); d != "" {
			t.Errorf("%d tools in one step (-want +got):\n%s", tc.tools, d)
		}
	}
}

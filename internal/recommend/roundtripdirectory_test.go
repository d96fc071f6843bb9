package recommend

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
)

// firstCallTrace writes n sessions alike but for the tool each calls: one
// request, naming no server (every catalog server at its latest), whose
// tool call ends the session. The first calls rare, the others common. So
// every session's first prompt under eager is the same, and it is the
// mean prompt too.
func firstCallTrace(t *testing.T, dir string, n int, common, rare toolKey) string {
	t.Helper()
	var b strings.Builder
	for i := range n {
		id, k := fmt.Sprintf("s-%03d", i), common
		if i == 0 {
			k = rare
		}
		fmt.Fprintf(&b, `{"v":1,"type":"session_start","session":"%s","t":"2026-03-02T09:00:00Z","system_prompt_tokens":500}
{"type":"user","session":"%[1]s","t":"2026-03-02T09:00:00Z","text":"Hello."}
{"type":"model_request","session":"%[1]s","t":"2026-03-02T09:00:00Z","id":"req-1"}
{"type":"tool_call","session":"%[1]s","t":"2026-03-02T09:00:01Z","request":"req-1","duration_ms":100,"call_id":"call-1","tool":"%s","server":"%s","args":{},"status":"ok","result_bytes":40,"result_tokens":10}
`, id, k.Tool, k.Server)
	}
	path := filepath.Join(dir, fmt.Sprintf("first-%d.jsonl", n))
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestSearchPromptIsWhatTheRunSends pins that the round trip and each load
// price the search request's prompt a run of the proposal sends, for a
// base of each directory format: the first prompt less the deferred
// schemas, plus the tool_search definition and the base's directory of the
// deferrable tools. The expectation is a replay: the proposal in deferred
// mode (trigger always, scope mcp) over the session whose first request
// calls a deferred tool, whose first request is then the search request;
// its input tokens are the round trip's prompt, and, every session being
// one request, the load's. They used to leave the directory out: under
// names-desc the round trip's milliseconds and each load's dollars were
// priced on a prompt hundreds of tokens short.
func TestSearchPromptIsWhatTheRunSends(t *testing.T) {
	_, cat := planted(t, 1)
	common, rare := toolKey{Server: "web", Tool: "web_search"}, toolKey{Server: "calendar", Tool: "count_events"}
	dir := t.TempDir()
	training := firstCallTrace(t, dir, 100, common, rare)
	needs := firstCallTrace(t, dir, 1, common, rare)
	prompts := map[string]float64{}
	for _, d := range []sim.Directory{{Format: "none"}, {Format: "names"}, {Format: "names-desc"}, {Format: "by-server"}, {Format: "by-domain"}} {
		t.Run(d.Format, func(t *testing.T) {
			base, err := presets.Strategy("claude-code-default")
			if err != nil {
				t.Fatal(err)
			}
			base.Name, base.Directory = "base-"+d.Format, d
			cfg := defaultConfig(t, training, cat)
			cfg.Base, cfg.TestShare = &base, 0
			p, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			decision := map[toolKey]string{}
			for _, a := range p.Tools {
				decision[a.Key] = a.Decision
			}
			if decision[common] != neverDefer || decision[rare] == neverDefer || decision[rare] == "" {
				t.Fatalf("%v is %q and %v %q: the test needs the first direct and the second deferred", common, decision[common], rare, decision[rare])
			}
			if e := p.Economy; e.Directory != p.DirectoryTokens || e.DirectoryFormat != d.Format {
				t.Errorf("the economics price a %d-token %s directory, the budget a %d-token %s one", e.Directory, e.DirectoryFormat, p.DirectoryTokens, p.DirectoryFormat)
			}
			on := p.Strategy
			on.Name, on.Trigger, on.Scope = "on", sim.Trigger{Mode: sim.TriggerAlways}, sim.ScopeMCP
			catSrcs, err := runner.CatalogSources([]string{cat}, nil)
			if err != nil {
				t.Fatal(err)
			}
			out, err := runner.Run(context.Background(), runner.Config{Scenario: "search-prompt", Seed: 1, Baseline: "on",
				Strategies: []sim.Strategy{on}, Model: cfg.Model, Params: cfg.Params, Traces: runner.PathSources(needs), Catalogs: catSrcs})
			if err != nil {
				t.Fatal(err)
			}
			reqs := out.Run.Outcomes.ByRequestIndex[0]
			if len(reqs) < 2 || reqs[0].Sessions != 1 || reqs[0].Extra != 1 {
				t.Fatalf("requests %+v: want the session's first request to be an extra (search) request", reqs)
			}
			sent := float64(reqs[0].Input)
			if got := p.Economy.roundTripPrompt(); got != sent {
				t.Errorf("the round trip prices a %.1f-token search prompt, the run sends %.0f (directory %d tokens)", got, sent, p.Economy.Directory)
			}
			if got := p.Economy.loadPrompt(); got != sent {
				t.Errorf("a load prices a %.1f-token search prompt, the run sends %.0f (directory %d tokens)", got, sent, p.Economy.Directory)
			}
			if want := "plus the " + fmt.Sprint(cfg.Params.SearchToolCount()) + "-token tool_search definition and " + directoryWords(d.Format, p.DirectoryTokens); !strings.Contains(p.RoundTripCache, want) {
				t.Errorf("cache assumption %q does not say %q", p.RoundTripCache, want)
			}
			prompts[d.Format] = sent
		})
	}
	// The formats send different prompts: the directory is in them.
	if vs := slices.Compact(slices.Sorted(func(yield func(float64) bool) {
		for _, v := range prompts {
			if !yield(v) {
				return
			}
		}
	})); len(vs) < 4 {
		t.Errorf("search prompts %v: want the formats to differ", prompts)
	}
}

package recommend

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// TestGoldenSnippetAndTable pins the snippet, the per-tool table, the
// Markdown report and the CSV evidence of a hand-made proposal, with one
// uncertain decision (memory:search_notes, needed before the first reply in
// 2 of 200 sessions, near its break-even share) marked in each.
func TestGoldenSnippetAndTable(t *testing.T) {
	m, _ := presets.Model("claude-sonnet-4.5")
	e := Economy{Model: m, Params: presets.DefaultParams(), Injection: sim.InjectInline, Requests: 12,
		FirstPrompt: 20000, MeanPrompt: 26000, SearchOutput: searchOutputTokens, DeferredSchema: 12000}
	usage := map[string]*toolUsage{
		"web_search":   {Opens: 60, Uses: 70, FirstTurn: 50, BeforeReply: 48, Calls: 90},
		"screenshot":   {Uses: 3, Calls: 3},
		"list_notes":   {Opens: 5, Uses: 40, FirstTurn: 6, BeforeReply: 6, Calls: 55},
		"search_notes": {Opens: 2, Uses: 12, FirstTurn: 2, BeforeReply: 2, Calls: 14},
	}
	var tools []Assessment
	for _, k := range []toolKey{{"desktop", "screenshot"}, {"memory", "list_notes"}, {"memory", "search_notes"}, {"web", "web_search"}} {
		sc := Schema{Tokens: map[string]int64{"screenshot": 900, "list_notes": 150, "search_notes": 100, "web_search": 300}[k.Tool], Versions: 1}
		if k.Tool == "list_notes" {
			sc.Versions, sc.Drift = 2, []string{"2.0.0 (breaking)"}
		}
		tools = append(tools, assess(&e, &e, DefaultRules(), 500, k, usage[k.Tool], 200, 200, sc, false))
	}
	base, _ := presets.Strategy("claude-code-default")
	p := &Proposal{BaseName: "claude-code-default", Tools: tools, Economy: e, RoundTripMs: e.RoundTripMs(), RoundTripCache: e.CacheAssumption(),
		Rules: DefaultRules(), Expensive: 500, Training: 200, HeldOut: 80, TestShare: 0.3, Seed: 42, BreakEvenTokens: 900, Budget: 1500,
		RegistryEstimated: 40000, DirectoryFormat: "names", DirectoryTokens: 16, OnlyDirectoryTokens: 7, ModeTokens: 103, ListScope: sim.ScopeMCP}
	p.Strategy = proposalStrategy(base, tools, p)
	// The budget's bounds as written (TestBudgetSpread derives them).
	p.Spread = &BudgetSpread{BreakEvenLow: 700, BreakEvenHigh: 1150, Low: 1250, High: 1800, Mode: modeAbove}
	summarize(p)
	if p.UncertainDecisions != 1 || !tools[2].Uncertain {
		t.Fatalf("%d uncertain decisions (search_notes uncertain: %v), want search_notes alone", p.UncertainDecisions, tools[2].Uncertain)
	}
	var text, md, csv bytes.Buffer
	if err := WriteText(&text, p); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(&md, p); err != nil {
		t.Fatal(err)
	}
	if err := WriteCSV(&csv, p); err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string][]byte{"snippet.yaml": Snippet(p), "table.txt": text.Bytes(), "report.md": md.Bytes(), "tools.csv": csv.Bytes()} {
		path := filepath.Join("testdata", name)
		if *update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update to create it)", err)
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}

package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestEngineDocLoadingLayers recomputes the table of docs/engine.md's
// "Example: the loading-layers scenario" from a run of
// scenarios/loading-layers.yaml (embedded data, seed 7, 350 sessions):
// each strategy's row, as the page formats it, must be on the page. All
// rows but one are current: eager's mean first reply is 10.05 s
// (10,054.5 ms), which the page rounded up to 10.06 s.
func TestEngineDocLoadingLayers(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	_, page := docPage(t, "engine.md")
	out := t.TempDir()
	if stdout, stderr, code := cliRun(t, "run", filepath.Join(root, "scenarios", "loading-layers.yaml"), "-o", out, "-q", "--no-report"); code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, stdout, stderr)
	}
	var res docResults
	readJSON(t, filepath.Join(out, "results.json"), &res)
	if want := fmt.Sprintf("On seed %d (%d sessions;", res.Run.Seed, res.Run.Counts.Sessions); !strings.Contains(page, want) {
		t.Errorf("docs/engine.md does not say %q", want)
	}
	label := map[string]string{
		"eager":                      "eager",
		"eager-lazy-connect":         "eager, lazy connect (cached catalog)",
		"claude-code-default":        "claude-code-default",
		"claude-code-lazy-connect":   "claude-code-default, lazy connect",
		"claude-code-lazy-discovery": "claude-code-default, lazy discovery",
	}
	// ms formats a time as the table does: 0, whole ms below a second,
	// else seconds with two decimals.
	ms := func(v float64) string {
		switch {
		case fmt.Sprintf("%.0f", v) == "0":
			return "0"
		case v < 1000:
			return fmt.Sprintf("%.0f ms", v)
		}
		return fmt.Sprintf("%.2f s", v/1000)
	}
	if len(res.Strategies) != len(label) {
		t.Fatalf("%d strategies, the page has %d rows", len(res.Strategies), len(label))
	}
	for _, s := range res.Strategies {
		m := s.Metrics
		row := fmt.Sprintf("| %s | %s | %s | %s | %s | %s | $%.3f |", label[s.Name],
			ms(m["first_reply_ms"].P50), ms(m["first_reply_ms"].Mean), ms(m["first_reply_connect_ms"].Mean),
			ms(m["first_reply_list_ms"].Mean), ms(m["first_reply_search_ms"].Mean), m["cost_usd"].Mean)
		if !strings.Contains(page, "\n"+row+"\n") {
			t.Errorf("docs/engine.md lacks the row of %s:\n%s", s.Name, row)
		}
	}
}

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSweepShowsRequestsOverTheWindow pins that defersim sweep shows, per
// point and strategy, the requests over the model's context window when
// some point has them: a "requests over window" column in the text and
// Markdown tables, rows[].context_overflow in sweep.json and --format
// json, and one stderr warning naming the strategies and points (eager's
// 5149 → 917 → 0 over the embedded data as the window goes 20000 →
// 40000 → 60000, its cost the same at each). A sweep where nothing
// overflows has no column, no field and no warning. Before, a point where
// a strategy's requests would be refused looked like any other.
func TestSweepShowsRequestsOverTheWindow(t *testing.T) {
	sweep := func(param, format string) (stdout, stderr string) {
		t.Helper()
		stdout, stderr, code := cliRun(t, "sweep", "--param", param, "--strategies", "eager,anchor-e9-warm-capped,claude-code-default",
			"--bootstrap", "-1", "--format", format, "-o", filepath.Join(t.TempDir(), "sw"))
		if code != 0 {
			t.Fatalf("sweep %s: exit %d\n%s%s", param, code, stdout, stderr)
		}
		return stdout, stderr
	}
	const warning = "defersim: warning: requests over the context window in the sweep: "
	for _, tc := range []struct {
		param string
		over  bool
		// eager's count at each point (0: none).
		eager []int64
	}{
		{"model.context_window=20000:60000:20000", true, []int64{5149, 917, 0}},
		{"model.context_window=200000:400000:200000", false, []int64{0, 0}},
	} {
		text, stderr := sweep(tc.param, "text")
		if got := strings.Count(stderr, warning); got != map[bool]int{true: 1, false: 0}[tc.over] {
			t.Errorf("%s: %d overflow warnings on stderr, want over=%v:\n%s", tc.param, got, tc.over, stderr)
		}
		if tc.over && !strings.Contains(stderr, warning+"eager at model.context_window=20000: 5149 requests over the 20000-token window in 350 sessions") {
			t.Errorf("%s: the warning does not name eager at 20000:\n%s", tc.param, stderr)
		}
		md, _ := sweep(tc.param, "markdown")
		for name, out := range map[string]string{"text": text, "markdown": md} {
			if strings.Contains(out, "requests over window") != tc.over {
				t.Errorf("%s, %s: the column is there: %v, want %v:\n%s", tc.param, name, !tc.over, tc.over, out)
			}
		}
		if tc.over && (!strings.Contains(text, "5149 (350 sessions)") || !strings.Contains(text, "eager                  $0.351 ")) {
			t.Errorf("%s: the text table lacks eager's 5149 requests:\n%s", tc.param, text)
		}
		js, _ := sweep(tc.param, "json")
		if strings.Contains(js, `"context_overflow"`) != tc.over {
			t.Errorf("%s: context_overflow in the JSON: %v, want %v", tc.param, !tc.over, tc.over)
		}
		var doc struct {
			Rows []struct {
				Strategy        string                  `json:"strategy"`
				CostUSD         struct{ Value float64 } `json:"cost_usd"`
				ContextOverflow *struct {
					Requests int64 `json:"requests"`
				} `json:"context_overflow"`
			} `json:"rows"`
		}
		if err := json.Unmarshal([]byte(js), &doc); err != nil {
			t.Fatal(err)
		}
		var got []int64
		var cost []float64
		for _, r := range doc.Rows {
			if r.Strategy != "eager" {
				continue
			}
			n := int64(0)
			if r.ContextOverflow != nil {
				n = r.ContextOverflow.Requests
			}
			got, cost = append(got, n), append(cost, r.CostUSD.Value)
		}
		if len(got) != len(tc.eager) {
			t.Fatalf("%s: %d eager rows, want %d", tc.param, len(got), len(tc.eager))
		}
		for i := range got {
			if got[i] != tc.eager[i] || cost[i] != cost[0] {
				t.Errorf("%s: eager's requests over the window %v (cost %v), want %v at the same cost", tc.param, got, cost, tc.eager)
				break
			}
		}
	}
}

// TestPlanSaysRequestsOverTheWindow pins that defersim plan says which
// projected strategies sent requests over the model's context window (a
// warning in the text and Markdown plans and on stderr for JSON and CSV,
// projection.strategies[].context_overflow in plan.json) and at which
// --growth sizes they do (under a 60000-token window eager's requests fit
// the embedded catalog, ×1, and exceed it at ×2: a warning naming ×2, the
// table's column, plan.json growth[].context_overflow). Before, plan
// projected and grew the cost of refused requests without a word.
func TestPlanSaysRequestsOverTheWindow(t *testing.T) {
	dir := t.TempDir()
	scenario := func(window string) string {
		p := filepath.Join(dir, "w"+window+".yaml")
		text := "name: w" + window + "\nseed: 42\ntraces: [embedded:trace.jsonl.gz]\ncatalogs: [embedded:catalog]\n" +
			"model: {preset: claude-sonnet-4.5, context_window: " + window + "}\nstrategies: [eager, claude-code-default]\n"
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	run := func(window string) (scen, results string) {
		scen = scenario(window)
		out := filepath.Join(dir, "run"+window)
		if stdout, stderr, code := cliRun(t, "run", scen, "--bootstrap", "-1", "--no-report", "-o", out); code != 0 {
			t.Fatalf("run: exit %d\n%s%s", code, stdout, stderr)
		}
		return scen, filepath.Join(out, "results.json")
	}
	const projWarn = "eager sent 917 requests over the model's 40000-token context window in 119 of 350 sessions (the largest 47293 tokens, session gen-000205)"
	_, r40 := run("40000")
	for _, format := range []string{"text", "markdown", "json", "csv"} {
		stdout, stderr, code := cliRun(t, "plan", r40, "--sessions-per-day", "1000", "--format", format, "-o", filepath.Join(dir, "plan40-"+format))
		if code != 0 {
			t.Fatalf("plan --format %s: exit %d\n%s%s", format, code, stdout, stderr)
		}
		where := stdout
		if format == "csv" {
			where = stderr
		}
		if !strings.Contains(where, projWarn) || strings.Contains(where, "claude-code-default sent") {
			t.Errorf("plan --format %s does not warn of eager alone:\nstdout:\n%s\nstderr:\n%s", format, stdout, stderr)
		}
	}
	scen60, r60 := run("60000")
	out := filepath.Join(dir, "plan60")
	stdout, stderr, code := cliRun(t, "plan", r60, "--sessions-per-day", "1000", "--growth", "1,2", "--scenario", scen60, "--bootstrap", "-1", "-o", out)
	if code != 0 {
		t.Fatalf("plan --growth: exit %d\n%s%s", code, stdout, stderr)
	}
	if strings.Contains(stdout, "sent") && strings.Contains(stdout, "over the model's 60000-token context window") {
		t.Errorf("plan --growth: the projection of ×1 warns, though its requests fit:\n%s", stdout)
	}
	const growWarn = "warning: requests over the context window as the catalog grows: eager at ×2.008 (×2 asked; tools=267): 5149 requests over the 60000-token window in 350 sessions, the largest 84322 tokens"
	if !strings.Contains(stdout, growWarn) || !strings.Contains(stdout, "requests over window") {
		t.Errorf("plan --growth does not warn of eager at ×2, or lacks the column:\n%s", stdout)
	}
	const breakLegend = "⚠ at that size the strategy sends requests over the 60000-token context window: its break is measured on figures that include requests a provider would refuse"
	if !strings.Contains(stdout, "eager                tools=267 ⚠     tools=267 ⚠ ") || !strings.Contains(stdout, "\n"+breakLegend) {
		t.Errorf("plan --growth's breakdown table does not mark eager's breaks at ×2, where it overflows:\n%s", stdout)
	}
	data, err := os.ReadFile(filepath.Join(out, "plan.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Growth []struct {
			Factor          float64 `json:"factor"`
			ContextOverflow []struct {
				Strategy string `json:"strategy"`
				Requests int64  `json:"requests"`
			} `json:"context_overflow"`
		} `json:"growth"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Growth) != 2 || len(doc.Growth[0].ContextOverflow) != 0 || len(doc.Growth[1].ContextOverflow) != 1 ||
		doc.Growth[1].ContextOverflow[0].Strategy != "eager" || doc.Growth[1].ContextOverflow[0].Requests != 5149 {
		t.Errorf("plan.json growth: %+v, want eager's 5149 requests at ×2 alone", doc.Growth)
	}
	md, _, _ := cliRun(t, "plan", r60, "--sessions-per-day", "1000", "--growth", "1,2", "--scenario", scen60, "--bootstrap", "-1", "--format", "markdown", "-o", filepath.Join(dir, "plan60md"))
	if !strings.Contains(md, "> **Warning:** requests over the context window as the catalog grows: eager at ×2.008 (×2 asked; tools=267)") {
		t.Errorf("plan --growth --format markdown does not warn of eager at ×2:\n%s", md)
	}
	if !strings.Contains(md, "| eager | tools=267 ⚠ | tools=267 ⚠ |") || !strings.Contains(md, "\n"+breakLegend) {
		t.Errorf("plan --growth --format markdown does not mark eager's breaks at ×2:\n%s", md)
	}
}

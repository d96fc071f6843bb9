package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunWarnsOfStrategyRecommendedForAnotherModel pins that a strategy
// recommend chose for one model or tokenizer, pasted into a scenario and
// replayed with another, is flagged: only the snippet's free-text
// description named the model, so `run --model gpt-4o` replayed lists and
// a budget priced on claude-sonnet-4.5 and said nothing. The snippet's
// recommended_for key now travels into the run: run, merge and sweep warn
// on stderr, results.json records it (run.assumptions), the report's
// findings and check's warnings repeat it; the same model and tokenizer,
// or a snippet pasted without the key, give no warning.
func TestRunWarnsOfStrategyRecommendedForAnotherModel(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the sample trace several times (-short)")
	}
	const warning = "defersim: warning: Strategy recommended was recommended for "
	dir := t.TempDir()
	snip := filepath.Join(dir, "snippet.yaml")
	if out, errs, code := cliIn(t, nil, "recommend", "../../scenarios/default/trace.jsonl.gz", "--test-share", "0", "-q", "-o", snip); code != 0 {
		t.Fatalf("recommend: exit %d:\n%s%s", code, out, errs)
	}
	b, err := os.ReadFile(snip)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "\n  recommended_for:\n    model: \"claude-sonnet-4.5\"\n    tokenizer: \"o200k_base\"\n    model_values: \"") {
		t.Fatalf("the snippet records no recommended_for:\n%s", b)
	}
	def, err := os.ReadFile("../../scenarios/default.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// paste writes the default scenario with the snippet (less the lines
	// dropped) under strategies: and extra appended, as a user pastes it.
	paste := func(name string, drop func(string) bool, extra string) string {
		var ind strings.Builder
		for _, l := range strings.SplitAfter(string(b), "\n") {
			if l != "" && (drop == nil || !drop(l)) {
				ind.WriteString("  " + l)
			}
		}
		doc := strings.Replace(string(def), "\nstrategies:\n", "\nstrategies:\n"+ind.String(), 1) + extra
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	with := paste("with.yaml", nil, "")
	withTok := paste("tok.yaml", nil, "params:\n  tokenizer: cl100k_base\n")
	without := paste("without.yaml", func(l string) bool {
		return strings.Contains(l, "recommended_for:") || strings.HasPrefix(l, "    model: ") || strings.HasPrefix(l, "    tokenizer: ") || strings.HasPrefix(l, "    model_values: ")
	}, "")
	tests := []struct {
		name     string
		scenario string
		args     []string
		want     string // "" = no warning
	}{
		{"the model recommended for", with, nil, ""},
		{"--model gpt-4o", with, []string{"--model", "gpt-4o"}, "model claude-sonnet-4.5 (its recommended_for) and this run replays it with model gpt-4o"},
		{"another tokenizer", withTok, nil, "tokenizer o200k_base (its recommended_for) and this run replays it with tokenizer cl100k_base"},
		{"pasted without the key", without, []string{"--model", "gpt-4o"}, ""},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, "run"+string(rune('a'+i)))
			args := append([]string{"run", tc.scenario, "--strategies", "recommended,eager", "-q", "-o", out}, tc.args...)
			stdout, errs, code := cliIn(t, nil, args...)
			if code != 0 {
				t.Fatalf("exit %d:\n%s%s", code, stdout, errs)
			}
			if got := strings.Contains(errs, warning); got != (tc.want != "") || !strings.Contains(errs, tc.want) {
				t.Errorf("stderr warns %t, want %t (%q):\n%s", got, tc.want != "", tc.want, errs)
			}
			rb, err := os.ReadFile(filepath.Join(out, "results.json"))
			if err != nil {
				t.Fatal(err)
			}
			var res struct {
				Run struct {
					Assumptions []struct{ Name, Value string }
				}
			}
			if err := json.Unmarshal(rb, &res); err != nil {
				t.Fatal(err)
			}
			var recorded string
			for _, a := range res.Run.Assumptions {
				if a.Name == "strategy.recommended.recommended_for.model" {
					recorded = a.Value
				}
			}
			if wantRec := map[bool]string{true: "", false: "claude-sonnet-4.5"}[tc.scenario == without]; recorded != wantRec {
				t.Errorf("results.json run.assumptions strategy.recommended.recommended_for.model %q, want %q", recorded, wantRec)
			}
			md, err := os.ReadFile(filepath.Join(out, "report.md"))
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(string(md), "Strategy recommended was recommended for"); got != (tc.want != "") {
				t.Errorf("report.md findings say it %t, want %t", got, tc.want != "")
			}
			if tc.want == "" {
				return
			}
			results := filepath.Join(out, "results.json")
			stdout, errs, code = cliIn(t, nil, "check", "--baseline", results, results)
			if code != 0 || !strings.Contains(stdout, "warning: current: Strategy recommended was recommended for") {
				t.Errorf("check: exit %d, want 0 and the warning:\n%s%s", code, stdout, errs)
			}
		})
	}
	t.Run("merge and sweep", func(t *testing.T) {
		var shards []string
		for _, s := range []string{"0/2", "1/2"} {
			out := filepath.Join(dir, "shard"+s[:1])
			shards = append(shards, out)
			if stdout, errs, code := cliIn(t, nil, "run", with, "--strategies", "recommended,eager", "--model", "gpt-4o", "--shard", s, "--no-report", "-q", "-o", out); code != 0 {
				t.Fatalf("shard %s: exit %d:\n%s%s", s, code, stdout, errs)
			}
		}
		stdout, errs, code := cliIn(t, nil, append([]string{"merge", "-q", filepath.Join(dir, "merged")}, shards...)...)
		if code != 0 || strings.Count(errs, warning) != 1 {
			t.Errorf("merge: exit %d, want 0 and one warning:\n%s%s", code, stdout, errs)
		}
		stdout, errs, code = cliIn(t, nil, "sweep", with, "--strategies", "recommended,eager", "--model", "gpt-4o", "--param", "strategy.warm.max_tools=2:4:2", "-q", "-o", filepath.Join(dir, "sweep"))
		if w := strings.Replace(warning, "warning: ", "warning: at every value: ", 1); code != 0 || strings.Count(errs, w) != 1 {
			t.Errorf("sweep: exit %d, want 0 and the warning once over its 2 values, at every value:\n%s%s", code, stdout, errs)
		}
	})
}

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/sim/presets"
)

// TestCheckWarnsOfRecommendedForAsRun pins that check said of a run's
// recommended_for what run said: a scenario whose model is the preset
// claude-sonnet-4.5 renamed my-sonnet, its strategy recommended for
// claude-sonnet-4.5, ran without a warning, but check (which reads
// results.json, where the run's model has no preset) warned "replays it
// with model my-sonnet". The run now records its comparison (the
// assumption strategy.a.recommended_for.run_model), which check and merge
// read; with model_values recorded, a model with the same name but other
// values warns in run, merge and check alike, naming what differs.
func TestCheckWarnsOfRecommendedForAsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the embedded sessions")
	}
	const warning = "Strategy a was recommended for"
	p, err := presets.Model("claude-sonnet-4.5")
	if err != nil {
		t.Fatal(err)
	}
	digest := p.ValuesDigest()
	tests := []struct {
		name, model, key string
		want             string // in every warning; "": none
	}{
		{"renamed preset, no model_values", "{preset: claude-sonnet-4.5, name: my-sonnet}", "{model: claude-sonnet-4.5}", ""},
		{"renamed preset, its values", "{preset: claude-sonnet-4.5, name: my-sonnet}", "{model: claude-sonnet-4.5, model_values: " + digest + "}", ""},
		{"same name, another price", "{preset: claude-sonnet-4.5, pricing: {input_per_mtok: 6}}", "{model: claude-sonnet-4.5, model_values: " + digest + "}",
			fmt.Sprintf("model claude-sonnet-4.5 (its recommended_for) and this run replays it with model claude-sonnet-4.5 with other values (pricing.input_per_mtok, not %g)", p.Pricing.InputPerMTok)},
		{"another model, no model_values", "gpt-4o", "{model: claude-sonnet-4.5}", "only the model's name was compared"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			sc := filepath.Join(dir, "s.yaml")
			yaml := "name: s\nseed: 42\ntraces: [embedded:trace.jsonl.gz]\nmodel: " + tc.model + "\nstrategies:\n  - eager\n" +
				"  - {name: a, base: claude-code-default, recommended_for: " + tc.key + "}\n"
			if err := os.WriteFile(sc, []byte(yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			flags := []string{"--catalogs", "embedded:catalog", "-q", "--no-report", "--bootstrap", "-1"}
			// said is the recommended_for warnings of one command.
			said := func(what, out string) []string {
				var ws []string
				for _, l := range strings.Split(out, "\n") {
					if i := strings.Index(l, warning); i >= 0 {
						ws = append(ws, l[i:])
					}
				}
				if (len(ws) > 0) != (tc.want != "") || len(ws) > 1 || len(ws) == 1 && !strings.Contains(ws[0], tc.want) {
					t.Errorf("%s warns %q, want one warning holding %q (none when \"\")", what, ws, tc.want)
				}
				return ws
			}
			run := filepath.Join(dir, "run")
			stdout, stderr, code := cliRun(t, append([]string{"run", sc, "-o", run}, flags...)...)
			if code != 0 {
				t.Fatalf("run: exit %d\n%s%s", code, stdout, stderr)
			}
			ran := said("run", stderr)
			results := filepath.Join(run, "results.json")
			stdout, stderr, code = cliRun(t, "check", "--baseline", results, results)
			if code != 0 {
				t.Fatalf("check: exit %d\n%s%s", code, stdout, stderr)
			}
			if checked := said("check", stdout); fmt.Sprint(checked) != fmt.Sprint(ran) {
				t.Errorf("check warns %q, run %q", checked, ran)
			}
			var shards []string
			for _, s := range []string{"0/2", "1/2"} {
				out := filepath.Join(dir, "shard"+s[:1])
				shards = append(shards, out)
				if stdout, stderr, code := cliRun(t, append([]string{"run", sc, "--shard", s, "-o", out}, flags...)...); code != 0 {
					t.Fatalf("shard %s: exit %d\n%s%s", s, code, stdout, stderr)
				}
			}
			merged := filepath.Join(dir, "merged")
			stdout, stderr, code = cliRun(t, append([]string{"merge", "-q", merged}, shards...)...)
			if code != 0 {
				t.Fatalf("merge: exit %d\n%s%s", code, stdout, stderr)
			}
			if m := said("merge", stderr); fmt.Sprint(m) != fmt.Sprint(ran) {
				t.Errorf("merge warns %q, run %q", m, ran)
			}
			var res struct {
				Run struct {
					Assumptions []struct{ Name, Value string }
				}
			}
			b, err := os.ReadFile(filepath.Join(merged, "results.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &res); err != nil {
				t.Fatal(err)
			}
			var compared string
			for _, a := range res.Run.Assumptions {
				if a.Name == "strategy.a.recommended_for.run_model" {
					compared = a.Value
				}
			}
			if want := map[bool]string{true: "the recorded model"}[tc.want == ""]; tc.want == "" && compared != want || tc.want != "" && (compared == "" || compared == "the recorded model") {
				t.Errorf("merged results.json strategy.a.recommended_for.run_model %q", compared)
			}
		})
	}
}

// TestRecommendedForModelValues pins the model_values key of
// recommended_for: the same model written another way — a vendor's
// spelling of the preset, or the preset's values written out in full
// under another name — gives no warning, and a digest that is not 12
// lowercase hex digits stops the load at its line.
func TestRecommendedForModelValues(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the embedded sessions")
	}
	p, err := presets.Model("claude-sonnet-4.5")
	if err != nil {
		t.Fatal(err)
	}
	digest := p.ValuesDigest()
	inline, err := json.Marshal(struct {
		Name          string `json:"name"`
		ContextWindow int64  `json:"context_window"`
		Pricing       any    `json:"pricing"`
		Cache         any    `json:"cache"`
		Latency       any    `json:"latency"`
	}{"house-model", p.ContextWindow, p.Pricing, p.Cache, p.Latency})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, model, key string
		code             int
		want             string // in stderr; "": no recommended_for warning
	}{
		{"vendor spelling", "claude-sonnet-4.5", "{model: claude-sonnet-4-5-20250929, model_values: " + digest + "}", 0, ""},
		{"the preset's values written out", string(inline), "{model: claude-sonnet-4.5, model_values: " + digest + "}", 0, ""},
		{"written out, another latency", strings.Replace(string(inline), `"overhead_ms":`, `"overhead_ms":1`, 1), "{model: claude-sonnet-4.5, model_values: " + digest + "}", 0,
			"replays it with model house-model"},
		{"not a digest", "claude-sonnet-4.5", "{model: claude-sonnet-4.5, model_values: 8331C58F8BC4}", 2,
			`s.yaml:7: strategies[1].recommended_for.model_values: "8331C58F8BC4" is not a model values digest`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			sc := filepath.Join(dir, "s.yaml")
			yaml := "name: s\nseed: 42\ntraces: [embedded:trace.jsonl.gz]\nmodel: " + tc.model + "\nstrategies:\n  - eager\n" +
				"  - {name: a, base: claude-code-default, recommended_for: " + tc.key + "}\n"
			if err := os.WriteFile(sc, []byte(yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			stdout, stderr, code := cliRun(t, "run", sc, "--catalogs", "embedded:catalog", "-q", "--no-report", "--bootstrap", "-1", "-o", filepath.Join(dir, "out"))
			if code != tc.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, tc.code, stdout, stderr)
			}
			warned := strings.Contains(stderr, "Strategy a was recommended for")
			if tc.want == "" && warned || tc.want != "" && !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr, want %q (\"\": no warning):\n%s", tc.want, stderr)
			}
		})
	}
}

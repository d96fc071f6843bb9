package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReportRerenderedSaysTokenizerAsRun pins that the report defersim
// report re-renders from a run's results.json says of the tokenizer what
// run's own report said: for a preset renamed (model: {preset:
// claude-sonnet-4.5, name: my-sonnet}) run's report called o200k_base a
// stand-in (run line, plots, "What these numbers rest on") and the
// re-rendered one did not, results.json not carrying the preset; a gpt-4o
// renamed my-gpt and counted with cl100k_base had the finding in neither.
// results.json now carries run.model_preset when the model's name does
// not resolve to it, and only then.
func TestReportRerenderedSaysTokenizerAsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the embedded sessions")
	}
	tests := []struct {
		name, model, params string
		want                string // in both reports' findings
		preset              bool   // results.json holds model_preset
	}{
		{"renamed claude", "{preset: claude-sonnet-4.5, name: my-sonnet}", "", "a stand-in: claude-sonnet-4.5's tokenizer is not published", true},
		{"renamed gpt-4o, another counter", "{preset: gpt-4o, name: my-gpt}", "params: {tokenizer: cl100k_base}\n",
			"Prompt content was counted with cl100k_base (params.tokenizer), not with my-gpt's own o200k_base", true},
		{"claude by its name", "claude-sonnet-4.5", "", "a stand-in: claude-sonnet-4.5's tokenizer is not published", false},
		{"claude's values, named by a spelling", "{preset: claude-sonnet-4.5, name: anthropic/claude-sonnet-4.5}", "", "a stand-in: claude-sonnet-4.5's tokenizer is not published", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			sc := filepath.Join(dir, "s.yaml")
			yaml := "name: s\nseed: 42\ntraces: [embedded:trace.jsonl.gz]\nmodel: " + tc.model + "\n" + tc.params + "strategies:\n  - eager\n"
			if err := os.WriteFile(sc, []byte(yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			run := filepath.Join(dir, "run")
			if stdout, stderr, code := cliRun(t, "run", sc, "-o", run, "--catalogs", "embedded:catalog", "-q", "--bootstrap", "-1"); code != 0 {
				t.Fatalf("run: exit %d\n%s%s", code, stdout, stderr)
			}
			again := filepath.Join(dir, "again")
			if stdout, stderr, code := cliRun(t, "report", filepath.Join(run, "results.json"), "-o", again, "-q"); code != 0 {
				t.Fatalf("report: exit %d\n%s%s", code, stdout, stderr)
			}
			read := func(path string) string {
				b, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				return string(b)
			}
			ran, rendered := read(filepath.Join(run, "report.md")), read(filepath.Join(again, "report.md"))
			if diff := cmp.Diff(ran, rendered); diff != "" {
				t.Errorf("the re-rendered report.md differs from run's (-run +re-rendered):\n%s", diff)
			}
			if !strings.Contains(ran, tc.want) {
				t.Errorf("run's report.md does not say %q", tc.want)
			}
			if got := strings.Contains(read(filepath.Join(run, "results.json")), `"model_preset"`); got != tc.preset {
				t.Errorf("results.json holds model_preset: %v, want %v", got, tc.preset)
			}
		})
	}
}

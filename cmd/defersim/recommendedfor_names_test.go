package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRecommendedForComparesModelsAsRecorded pins that recommended_for's
// model is compared as every model name is (presets.SameModel): the key
// "claude-sonnet-4-5" under the default claude-sonnet-4.5, and a scenario
// model renamed claude-sonnet-4-5-20250929 with the preset's values,
// warned as another model; a misspelt model loaded and then warned on
// every run, and now stops the load at its line as an unknown tokenizer
// does. Another model still warns.
func TestRecommendedForComparesModelsAsRecorded(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the embedded sessions")
	}
	const warning = "defersim: warning: Strategy a was recommended for"
	tests := []struct {
		name, model, key string
		code             int
		want             string // in stderr; "": no warning
	}{
		{"dashed spelling", "claude-sonnet-4.5", "claude-sonnet-4-5", 0, ""},
		{"renamed preset", "{preset: claude-sonnet-4.5, name: claude-sonnet-4-5-20250929}", "claude-sonnet-4.5", 0, ""},
		{"another model", "claude-sonnet-4.5", "gpt-4o", 0, warning + " model gpt-4o"},
		{"misspelt", "claude-sonnet-4.5", "claude-sonet-4.5", 2, `s.yaml:7: strategies[1].recommended_for.model: unknown model "claude-sonet-4.5"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			sc := filepath.Join(dir, "s.yaml")
			yaml := "name: s\nseed: 42\ntraces: [embedded:trace.jsonl.gz]\nmodel: " + tc.model + "\nstrategies:\n  - eager\n" +
				"  - {name: a, base: claude-code-default, recommended_for: {model: " + tc.key + "}}\n"
			if err := os.WriteFile(sc, []byte(yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			stdout, stderr, code := cliRun(t, "run", sc, "--catalogs", "embedded:catalog", "-q", "--no-report", "--bootstrap", "-1", "-o", filepath.Join(dir, "out"))
			if code != tc.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, tc.code, stdout, stderr)
			}
			if tc.want == "" {
				if strings.Contains(stderr, warning) {
					t.Errorf("warned of the same model:\n%s", stderr)
				}
				return
			}
			if !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr lacks %q:\n%s", tc.want, stderr)
			}
		})
	}
}

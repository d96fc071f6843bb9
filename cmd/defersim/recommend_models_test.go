package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestRecommendNotesSeveralRecordedModels pins that recommend over sessions
// recording more than one model says it prices them all as one model (in
// its text output, its JSON notes and its snippet). Over the tau2 airline
// runs (openai/gpt-oss-120b and gpt-4.1-mini) it warned about the first
// session's model only and priced the other run's 50 sessions the same way
// without a word.
func TestRecommendNotesSeveralRecordedModels(t *testing.T) {
	if testing.Short() {
		t.Skip("replays generated sessions")
	}
	trace, cat := genData(t, "20")
	two := filepath.Join(t.TempDir(), "two.jsonl")
	splitModels(t, trace, two, func(string) bool { return false })
	const note = `20 of 20 sessions were recorded with another model than the one recommend prices with ("acme-a" in 10, "acme-b" in 10); the rules and the validation price and time them as claude-sonnet-4.5`
	for _, tc := range []struct {
		name  string
		trace string
		want  bool
	}{{"one model", trace, false}, {"two models", two, true}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			snippet := filepath.Join(dir, "snippet.yaml")
			out, errs, code := cliRun(t, "recommend", tc.trace, "--catalogs", cat, "--format", "json", "--bootstrap", "-1", "-o", snippet)
			if code != 0 {
				t.Fatalf("exit %d\n%s%s", code, out, errs)
			}
			var doc struct {
				Notes   []string `json:"notes"`
				Snippet string   `json:"snippet"`
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(strings.Join(doc.Notes, "\n"), note); got != tc.want {
				t.Errorf("JSON notes have the models note: %v, want %v: %q", got, tc.want, doc.Notes)
			}
			if got := strings.Contains(doc.Snippet, "# note: "+note); got != tc.want {
				t.Errorf("snippet has the models note: %v, want %v:\n%s", got, tc.want, doc.Snippet)
			}
			text, errs, code := cliRun(t, "recommend", tc.trace, "--catalogs", cat, "--bootstrap", "-1")
			if code != 0 {
				t.Fatalf("text: exit %d\n%s%s", code, text, errs)
			}
			if got := strings.Contains(text, "note: "+note); got != tc.want {
				t.Errorf("text has the models note: %v, want %v:\n%s", got, tc.want, text)
			}
		})
	}
}

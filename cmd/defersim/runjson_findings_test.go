package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRunJSONSummaryHasFindings pins that `run --format json` (and merge's)
// carries the findings the text summary prints as Note: lines: the JSON
// summary had counts, means and failures only, so a script reading it
// missed that every request went over the model's context window, that a
// scenario entry matched nothing, or that a strategy was recommended for
// another model. "findings" now holds the very lines.
func TestRunJSONSummaryHasFindings(t *testing.T) {
	dir := t.TempDir()
	sc := filepath.Join(dir, "warns.yaml")
	yaml := "name: warns\nseed: 42\ntraces: [embedded:trace.jsonl.gz]\n" +
		"model: {preset: claude-sonnet-4.5, context_window: 8000}\n" +
		"strategies:\n  - eager\n" +
		"  - {name: a, base: claude-code-default, never_defer: [screenshott], recommended_for: {model: gpt-4o}}\n"
	if err := os.WriteFile(sc, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"run", sc, "--catalogs", "embedded:catalog", "--no-report", "--bootstrap", "-1", "--strategies", "eager,a"}
	text, errs, code := cliRun(t, append(args, "-o", filepath.Join(dir, "text"))...)
	if code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, text, errs)
	}
	var notes []string
	for _, l := range strings.Split(text, "\n") {
		if n, ok := strings.CutPrefix(l, "Note:"); ok {
			notes = append(notes, strings.TrimLeft(n, " "))
		}
	}
	js, errs, code := cliRun(t, append(args, "-o", filepath.Join(dir, "json"), "--format", "json")...)
	if code != 0 {
		t.Fatalf("run --format json: exit %d\n%s%s", code, js, errs)
	}
	var sum struct {
		Findings []string `json:"findings"`
	}
	if err := json.Unmarshal([]byte(js), &sum); err != nil {
		t.Fatalf("%v:\n%s", err, js)
	}
	if diff := cmp.Diff(notes, sum.Findings); diff != "" {
		t.Errorf("findings differ from the text summary's Note: lines (-text +json):\n%s", diff)
	}
	for _, want := range []string{"requests over the context window", `"screenshott"`, "Strategy a was recommended for model gpt-4o"} {
		found := false
		for _, f := range sum.Findings {
			found = found || strings.Contains(f, want)
		}
		if !found {
			t.Errorf("no finding says %q: %q", want, sum.Findings)
		}
	}
}

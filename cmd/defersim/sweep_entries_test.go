package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSweepWarnsOfListEntriesAsRunDoes pins that sweep says, once, the
// scenario's list entries that match nothing in the catalogs, as run and
// merge do: each point's results.json recorded them
// (run.scenario_entries_unmatched) while sweep printed nothing, so a
// misspelt never_defer swept clean.
func TestSweepWarnsOfListEntriesAsRunDoes(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the embedded sessions")
	}
	dir := t.TempDir()
	sc := filepath.Join(dir, "mine.yaml")
	yaml := "name: mine\ntraces: [embedded:trace.jsonl.gz]\nstrategies:\n  - {name: a, base: claude-code-default, never_defer: [screenshott, web_search]}\n"
	if err := os.WriteFile(sc, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	const entry = `strategy a: never_defer[0]: "screenshott": matches no tool of any server version in the catalogs (--catalogs); did you mean "screenshot"?`
	stdout, stderr, code := cliRun(t, "sweep", sc, "--catalogs", "embedded:catalog", "--param", "params.cold_call_prob=0:0.1:0.1",
		"--bootstrap", "-1", "-o", filepath.Join(dir, "sweep"))
	if code != 0 {
		t.Fatalf("sweep: exit %d\n%s%s", code, stdout, stderr)
	}
	if n := strings.Count(stderr, entry); n != 1 {
		t.Errorf("sweep's stderr names %q %d times, want once:\n%s", entry, n, stderr)
	}
}

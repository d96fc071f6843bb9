package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
)

// TestUnmatchedEntriesReachResultsAndMerge pins that a scenario entry
// matching nothing in the run's catalogs (under --catalogs) is recorded
// in results.json (run.scenario_entries_unmatched) and said by the
// report's findings and by merge: it was a stderr warning of run alone,
// so the results file, the report and a merged run of shards looked clean
// while a misspelt never_defer changed nothing.
func TestUnmatchedEntriesReachResultsAndMerge(t *testing.T) {
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
	outs := map[string]string{}
	for _, shard := range []string{"", "0/2", "1/2"} {
		out := filepath.Join(dir, "run"+strings.ReplaceAll(shard, "/", "-"))
		args := []string{"run", sc, "--catalogs", "embedded:catalog", "--bootstrap", "-1", "-o", out}
		if shard != "" {
			args = append(args, "--shard", shard)
		}
		stdout, stderr, code := cliRun(t, args...)
		if code != 0 {
			t.Fatalf("run %s: exit %d\n%s%s", shard, code, stdout, stderr)
		}
		if !strings.Contains(stderr, entry) {
			t.Errorf("run %s: stderr does not name %q:\n%s", shard, entry, stderr)
		}
		outs[shard] = out
	}
	merged := filepath.Join(dir, "merged")
	stdout, stderr, code := cliRun(t, "merge", merged, outs["0/2"], outs["1/2"])
	if code != 0 {
		t.Fatalf("merge: exit %d\n%s%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, entry) {
		t.Errorf("merge: stderr does not name %q:\n%s", entry, stderr)
	}
	for _, out := range []string{outs[""], merged} {
		res, err := report.ReadResults(filepath.Join(out, "results.json"))
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Run.UnmatchedEntries; len(got) != 1 || got[0] != entry {
			t.Errorf("%s: run.scenario_entries_unmatched = %q, want [%q]", filepath.Base(out), got, entry)
		}
		md, err := os.ReadFile(filepath.Join(out, "report.md"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(md), "1 entry of the scenario's lists matches nothing in the run's catalogs") {
			t.Errorf("%s: report.md has no finding of the unmatched entry", filepath.Base(out))
		}
	}
}

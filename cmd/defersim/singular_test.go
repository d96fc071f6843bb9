package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRunSummarySaysOneInTheSingular pins the singular of a count of 1 in
// the run summary and the headline of report.md: a run of one session
// under one strategy printed "replayed 1 of 1 sessions … under 1
// strategies" and "1 sessions × 1 strategies"; two strategies stay
// plural ("2 strategies", not "2 strategys"). report.html's small-sample
// warning ("Small sample: 1 sessions") and the subtitle of every plot
// ("1 sessions · baseline …") are pinned here too.
func TestRunSummarySaysOneInTheSingular(t *testing.T) {
	dir := t.TempDir()
	if out, code := runCLI(t, "trace", "gen", "-o", dir, "--sessions", "1", "--seed", "3", "-q"); code != 0 {
		t.Fatalf("trace gen: exit %d: %s", code, out)
	}
	trace, cats := filepath.Join(dir, "trace.jsonl.gz"), filepath.Join(dir, "catalog")
	for _, tc := range []struct {
		strategies string
		summary    []string
		headline   string
	}{
		{"eager", []string{"replayed 1 of 1 session (0 skipped; ", " read, 0 skipped) under 1 strategy\n"}, "1 session × 1 strategy, "},
		{"eager,claude-code-default", []string{"replayed 1 of 1 session (0 skipped; ", " under 2 strategies\n"}, "1 session × 2 strategies, "},
	} {
		t.Run(tc.strategies, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "run")
			stdout, stderr, code := cliRun(t, "run", "--traces", trace, "--catalogs", cats, "--strategies", tc.strategies, "-o", out)
			if code != 0 {
				t.Fatalf("run: exit %d: %s", code, stderr)
			}
			checkOutput(t, "run summary", stdout, tc.summary, []string{"1 sessions", "1 strategies", "strategys"})
			md, err := os.ReadFile(filepath.Join(out, "report.md"))
			if err != nil {
				t.Fatal(err)
			}
			checkOutput(t, "report.md", string(md), []string{"\n" + tc.headline}, []string{"1 sessions", "1 strategies", "strategys"})
			html, err := os.ReadFile(filepath.Join(out, "report.html"))
			if err != nil {
				t.Fatal(err)
			}
			checkOutput(t, "report.html", string(html), []string{"<strong>Small sample:</strong> 1 session, "}, []string{"1 sessions", "1 strategies", "strategys"})
			svg, err := os.ReadFile(filepath.Join(out, "plots", "cost-per-session.svg"))
			if err != nil {
				t.Fatal(err)
			}
			checkOutput(t, "cost-per-session.svg", string(svg), []string{">1 session · baseline eager"}, []string{"1 sessions", "1 strategies", "strategys"})
		})
	}
}

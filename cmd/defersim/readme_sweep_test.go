package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/plan"
)

// TestREADMESweepVaries pins issue 15's sweep criterion on the README: its
// sweep example, run as written on the embedded default data, varies — the
// warm-set size trades re-searches against tokens (fewer extra round
// trips for both deferring strategies; Copilot's cost rises, Claude Code's
// falls, as the README says) — and the strategy it cannot change (eager)
// is flagged unchanged, in sweep.json and in the plot's legend, rather
// than shown as eight identical rows.
func TestREADMESweepVaries(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var cmdline string
	for _, line := range strings.Split(string(readme), "\n") {
		if strings.HasPrefix(line, "| sweep a parameter |") {
			if _, rest, ok := strings.Cut(line, "`"); ok {
				cmdline, _, _ = strings.Cut(rest, "`")
			}
		}
	}
	args := strings.Fields(cmdline)
	if len(args) < 2 || args[0] != "defersim" || args[1] != "sweep" {
		t.Fatalf("README's sweep row holds no `defersim sweep …` command: %q", cmdline)
	}
	dir := t.TempDir()
	if out, code := runCLI(t, append(args[1:], "-o", dir, "--bootstrap", "-1", "-q")...); code != 0 {
		t.Fatalf("%s: exit %d:\n%s", cmdline, code, out)
	}
	sw := readSweepJSON(t, dir)
	first, last := map[string]plan.SeriesRow{}, map[string]plan.SeriesRow{}
	for _, r := range sw.Rows {
		if _, ok := first[r.Strategy]; !ok {
			first[r.Strategy] = r
		}
		last[r.Strategy] = r
	}
	if len(sw.Unchanged) != 1 || sw.Unchanged[0].Strategy != "eager" || sw.Unchanged[0].Reason == "" {
		t.Errorf("unchanged = %+v, want eager alone, with a reason", sw.Unchanged)
	}
	// The plot flags it too, in the legend.
	svg, err := os.ReadFile(filepath.Join(dir, "sweep-strategy.warm.max_tools-cost_usd.svg"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(svg), "eager (unchanged)") || strings.Contains(string(svg), "claude-code-default (unchanged)") {
		t.Error("the sweep plot's legend does not flag eager (alone) as unchanged")
	}
	for _, s := range []string{"claude-code-default", "copilot-cli-30"} {
		f, l := first[s], last[s]
		t.Logf("%s: cost %.4f → %.4f USD, extra round trips %.2f → %.2f", s, f.CostUSD.Value, l.CostUSD.Value, f.ExtraTrips, l.ExtraTrips)
		if l.ExtraTrips >= f.ExtraTrips {
			t.Errorf("%s: extra round trips %.2f → %.2f, want fewer with a larger warm set", s, f.ExtraTrips, l.ExtraTrips)
		}
	}
	if c := first["copilot-cli-30"].CostUSD.Value; last["copilot-cli-30"].CostUSD.Value <= c {
		t.Errorf("copilot-cli-30: cost does not rise from %.4f as the README says", c)
	}
	if c := first["claude-code-default"].CostUSD.Value; last["claude-code-default"].CostUSD.Value >= c {
		t.Errorf("claude-code-default: cost does not fall from %.4f as the README says", c)
	}
}

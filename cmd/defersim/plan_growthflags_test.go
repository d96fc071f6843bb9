package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
)

// TestPlanGrowthFlagsNeedGrowth pins that plan refuses a flag only --growth
// reads when --growth is not given: `plan results.json --sessions-per-day N
// --scenario acme.yaml` projected the results and ignored the scenario
// without a word — even one that does not exist — so a user who meant it to
// set the prices, or the run, read a plan that did not use it.
func TestPlanGrowthFlagsNeedGrowth(t *testing.T) {
	dir := t.TempDir()
	res := filepath.Join(dir, "results.json")
	if err := report.WriteResults(res, checkResults("f", 0.2)); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		flag string
		args []string
	}{
		{"--scenario", []string{"--scenario", filepath.Join(dir, "no-such.yaml")}},
		{"--model", []string{"--model", "gpt-4o"}},
		{"--traces", []string{"--traces", "t.jsonl.gz"}},
		{"--catalogs", []string{"--catalogs", "catalogs"}},
		{"--growth-from", []string{"--growth-from", "catalogs"}},
		{"--growth-tolerance", []string{"--growth-tolerance", "0.2"}},
		{"--metrics", []string{"--metrics", "cost_usd"}},
		{"--breakdown-margin", []string{"--breakdown-margin", "0.5"}},
		{"--bootstrap", []string{"--bootstrap", "-1"}},
		{"--workers", []string{"--workers", "2"}},
		{"--allow-unresolved", []string{"--allow-unresolved"}},
	}
	for _, tc := range tests {
		t.Run(tc.flag, func(t *testing.T) {
			args := append([]string{"plan", res, "--sessions-per-day", "1000", "-o", filepath.Join(dir, "plan")}, tc.args...)
			got, code := runJobCmd(t, args...)
			if code != 2 || !strings.Contains(got, tc.flag+" is read only with --growth") {
				t.Errorf("exit %d, want 2 naming %s; output:\n%s", code, tc.flag, got)
			}
		})
	}
	// Without them the projection runs.
	if got, code := runJobCmd(t, "plan", res, "--sessions-per-day", "1000", "-o", filepath.Join(dir, "plan")); code != 0 {
		t.Errorf("plain projection: exit %d:\n%s", code, got)
	}
}

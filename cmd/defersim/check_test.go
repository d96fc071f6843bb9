package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

func checkResults(fp string, cost float64) *report.Results {
	d := report.Distribution{Count: 50, Mean: cost, P50: cost, P95: 2 * cost, P90: 2 * cost, P99: 2 * cost, Max: 3 * cost,
		MeanCI: &report.Interval{Low: 0.9 * cost, High: 1.1 * cost}}
	// Every metric of the table, as a results file has them: 0 but cost.
	ms := map[string]report.Distribution{"cost_usd": d}
	for _, m := range sim.Metrics {
		if m.Name != "cost_usd" {
			ms[m.Name] = report.Distribution{Count: 50}
		}
	}
	return &report.Results{SchemaVersion: report.SchemaVersion, Metrics: sim.Metrics[:], Sessions: 50,
		Run:        sim.RunInfo{Scenario: "s", ScenarioFingerprint: fp, Seed: 1, Baseline: "eager"},
		Strategies: []report.StrategyResult{{Name: "eager", Baseline: true, Metrics: ms}}}
}

func TestCheckCmdExitStatus(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, r *report.Results) string { return writeResultsFile(t, dir, name, r) }
	base := write("base.json", checkResults("f1", 1))
	same := write("same.json", checkResults("f1", 1))
	worse := write("worse.json", checkResults("f1", 1.5))
	other := write("other.json", checkResults("f2", 1))
	md := filepath.Join(dir, "summary.md")
	tests := []struct {
		name     string
		args     []string
		wantCode int
		want     string
	}{
		{"re-run", []string{"check", "--baseline", base, same}, 0, "no regression"},
		{"worse", []string{"check", "--baseline", base, worse, "--markdown", md}, 1, "REGRESSION: 1 of"},
		{"worse but tolerated", []string{"check", "--baseline", base, worse, "--rel", "cost_usd=60%"}, 0, "no regression"},
		{"other scenario", []string{"check", "--baseline", base, other}, 2, ""},
		{"no baseline", []string{"check", same}, 2, ""},
		{"bad key", []string{"check", "--baseline", base, same, "--abs", "nope=1"}, 2, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, code := runJobCmd(t, tc.args...)
			if code != tc.wantCode {
				t.Fatalf("exit %d, want %d; output:\n%s", code, tc.wantCode, got)
			}
			if !strings.Contains(got, tc.want) {
				t.Errorf("output lacks %q:\n%s", tc.want, got)
			}
		})
	}
	data, err := os.ReadFile(md)
	if err != nil || !strings.Contains(string(data), "**regression**") {
		t.Errorf("markdown summary: %v\n%s", err, data)
	}
}

// runJobCmd runs the CLI with args and returns its output and exit
// status (plain errors map to 2, as main does).
func runJobCmd(t *testing.T, args ...string) (string, int) {
	t.Helper()
	root := newRootCmd()
	var out strings.Builder
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	if err := root.Execute(); err != nil {
		var ex exitError
		if asExit(err, &ex) {
			return out.String() + ex.msg, ex.code
		}
		return out.String() + err.Error(), 2
	}
	return out.String(), 0
}

// writeResultsFile writes r as dir/name and returns its path.
func writeResultsFile(t *testing.T, dir, name string, r *report.Results) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := report.WriteResults(p, r); err != nil {
		t.Fatal(err)
	}
	return p
}

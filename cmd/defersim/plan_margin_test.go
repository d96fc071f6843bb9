package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
)

// TestPlanRefusesANegativeBreakdownMargin pins that plan --growth refuses
// a negative or infinite --breakdown-margin before it replays anything:
// -0.1 used to print "first point more than -10% worse than at tools=133"
// and mark rules that had not got worse as breaking down.
func TestPlanRefusesANegativeBreakdownMargin(t *testing.T) {
	dir := t.TempDir()
	res := filepath.Join(dir, "results.json")
	if err := report.WriteResults(res, checkResults("f", 0.2)); err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"-0.1", "-1", "NaN", "+Inf"} {
		got, code := runJobCmd(t, "plan", res, "--sessions-per-day", "10", "--growth", "1,2", "--breakdown-margin", m,
			"-o", filepath.Join(dir, "plan"))
		if code != 2 || !strings.Contains(got, "want 0 or more: the share by which a cost or p95 first reply may exceed today's catalog's") {
			t.Errorf("--breakdown-margin %s: exit %d, output:\n%s", m, code, got)
		}
	}
}

// TestPlanRefusesAMarginTypedAsAPercentage pins that plan --growth refuses
// --breakdown-margin 25 (meaning 25%) before it replays anything, saying
// what to type: it used to be read as 2500% and report "never". So is 10
// with --growth up to 16, below the largest factor, which used to be
// accepted as 1000% worse: a bare margin above 1 is refused, and one
// above 100% is typed with its % sign.
func TestPlanRefusesAMarginTypedAsAPercentage(t *testing.T) {
	dir := t.TempDir()
	res := filepath.Join(dir, "results.json")
	if err := report.WriteResults(res, checkResults("f", 0.2)); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ margin, growth, want string }{
		{"25", "1,2,4,8,16", "for 25% type 0.25 (or 25%); a margin above 1 (100%) is given as a percentage, 2500%"},
		{"2", "1,2", "for 2% type 0.02 (or 2%)"},
		{"10", "1,2,4,8,16", "for 10% type 0.1 (or 10%)"},
		{"2500%", "1,2,4,8,16", "give less than 1600% (16, the largest --growth factor, as a share)"},
		{"ten", "1,2", `invalid argument "ten" for "--breakdown-margin" flag: want a share (0.25 = 25% worse) or a percentage with its sign (25%)`},
	} {
		got, code := runJobCmd(t, "plan", res, "--sessions-per-day", "10", "--growth", tc.growth, "--breakdown-margin", tc.margin,
			"-o", filepath.Join(dir, "plan"))
		if code != 2 || !strings.Contains(got, tc.want) {
			t.Errorf("--breakdown-margin %s --growth %s: exit %d, output:\n%s", tc.margin, tc.growth, code, got)
		}
	}
}

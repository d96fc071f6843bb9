package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
)

// TestCheckRefusesToleranceThatCannotFail pins that check refuses (exit
// 2) a tolerance of NaN or infinity: both parse as numbers, and a NaN
// tolerance made every comparison with it false, so a 50% rise in cost
// passed with exit 0; an infinite one allows any change.
func TestCheckRefusesToleranceThatCannotFail(t *testing.T) {
	dir := t.TempDir()
	base, worse := filepath.Join(dir, "base.json"), filepath.Join(dir, "worse.json")
	for p, cost := range map[string]float64{base: 1, worse: 1.5} {
		if err := report.WriteResults(p, checkResults("f1", cost)); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name     string
		flags    []string
		wantCode int
		want     string
	}{
		{"finite", []string{"--rel", "cost_usd=10%"}, 1, "REGRESSION"},
		{"--rel NaN", []string{"--rel", "cost_usd=NaN"}, 2, "finite non-negative"},
		{"--abs +Inf", []string{"--abs", "cost_usd=+Inf"}, 2, "finite non-negative"},
		{"--rel Inf%", []string{"--rel", "cost_usd=Inf%"}, 2, "finite non-negative"},
		{"--tolerance NaN", []string{"--tolerance", "NaN"}, 2, "finite non-negative"},
		{"--tolerance Inf", []string{"--tolerance", "Inf"}, 2, "finite non-negative"},
		// --tolerance took only a fraction ("5%" was a ParseFloat error)
		// while --rel took both: a percentage is the same fraction.
		{"--tolerance 40%", []string{"--tolerance", "40%"}, 1, "REGRESSION"},
		{"--tolerance 60%", []string{"--tolerance", "60%"}, 0, "no regression"},
		{"--tolerance 0.6", []string{"--tolerance", "0.6"}, 0, "no regression"},
		// --abs took "5%" as 0.05 in the metric's unit (0.05 USD, ms or
		// tokens): a percentage there is refused.
		{"--abs 5%", []string{"--abs", "cost_usd=5%"}, 2, `an absolute tolerance is in the metric's unit, not a percentage (a relative one is --rel cost_usd=5%)`},
		{"--tolerance five", []string{"--tolerance", "five"}, 2, `--tolerance: "five" is not a finite non-negative number (0.05, or 5%)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, code := runJobCmd(t, append([]string{"check", "--baseline", base, worse}, tc.flags...)...)
			if code != tc.wantCode {
				t.Fatalf("exit %d, want %d; output:\n%s", code, tc.wantCode, got)
			}
			if !strings.Contains(got, tc.want) {
				t.Errorf("output lacks %q:\n%s", tc.want, got)
			}
		})
	}
}

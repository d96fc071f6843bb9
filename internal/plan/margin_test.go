package plan

import (
	"strings"
	"testing"
)

// TestCheckMarginRefusesAPercentage pins that a --breakdown-margin at or
// above the largest growth factor is refused with what the flag means and
// what to type: 25 (a user meaning 25%) was read as 2500% and every rule
// reported as never breaking down. Margins a rule can reach pass, the
// default 0.25 with any factor above 1 included.
func TestCheckMarginRefusesAPercentage(t *testing.T) {
	tests := []struct {
		margin  string
		factors []float64
		want    string // "" = accepted
	}{
		{"0.25", []float64{1, 1.1}, ""},
		{"0.25", []float64{1, 2, 4, 8, 16}, ""},
		{"1", []float64{1, 2}, ""},
		// Below the largest factor, typed as a percentage: reachable
		// with a point that overshoots its factor, or added tools
		// larger than today's.
		{"150%", []float64{1, 2}, ""},
		{"1500%", []float64{1, 2, 4, 8, 16}, ""},
		{"200%", []float64{1, 2}, "--breakdown-margin 200% asks where a rule gets more than 200% worse (3× today's cost or p95 first reply) on catalogs at most ×2 today's"},
		{"2500%", []float64{1, 2, 4, 8, 16}, "give less than 1600% (16, the largest --growth factor, as a share)"},
		{"25", []float64{1, 2, 4, 8, 16}, "for 25% type 0.25 (or 25%)"},
		{"25", []float64{1, 2}, "the margin is the share by which a cost or p95 first reply may exceed today's catalog's (0.25 = 25% worse)"},
		{"-0.1", []float64{1, 2}, "want 0 or more"},
		{"-10%", []float64{1, 2}, "--breakdown-margin -10%: want 0 or more"},
		// Factors growthFactors refuses are left to it.
		{"2500%", []float64{0.5}, ""},
	}
	for _, tc := range tests {
		var m Margin
		if err := m.Set(tc.margin); err != nil {
			t.Fatalf("Set(%q): %v", tc.margin, err)
		}
		err := CheckMargin(m, tc.factors)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("margin %v, factors %v: %v, want accepted", tc.margin, tc.factors, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("margin %v, factors %v: %v, want an error with %q", tc.margin, tc.factors, err, tc.want)
		}
	}
}

// TestCheckMarginRefusesABareNumberAboveOne pins the rule that tells a
// percentage typed for a share from a share: a bare --breakdown-margin
// above 1 is refused, whatever the growth factors, saying what it would
// mean and the two ways to type the margin; above 100% a margin is typed
// with its % sign. --breakdown-margin 10 with --growth 1,…,16 (a user
// meaning 10%) used to be accepted and read as 1000% worse, the breakdown
// table answering "never" for rules that got 10% worse.
func TestCheckMarginRefusesABareNumberAboveOne(t *testing.T) {
	tests := []struct {
		typed   string
		share   float64
		factors []float64
		want    string // "" = accepted
	}{
		{"10", 10, []float64{1, 2, 4, 8, 16}, "--breakdown-margin 10 would mean more than 1000% worse (11× today's cost or p95 first reply)"},
		{"10", 10, []float64{1, 2, 4, 8, 16}, "for 10% type 0.1 (or 10%); a margin above 1 (100%) is given as a percentage, 1000%"},
		{"1.5", 1.5, []float64{1, 2}, "for 1.5% type 0.015 (or 1.5%)"},
		{"10%", 0.1, []float64{1, 2, 4, 8, 16}, ""},
		{"12.5%", 0.125, []float64{1, 2}, ""},
		{"1000%", 10, []float64{1, 2, 4, 8, 16}, ""},
		{"1", 1, []float64{1, 2}, ""},
		{"0", 0, []float64{1, 2}, ""},
	}
	for _, tc := range tests {
		var m Margin
		if err := m.Set(tc.typed); err != nil {
			t.Fatalf("Set(%q): %v", tc.typed, err)
		}
		if d := m.Share - tc.share; d > 1e-12 || d < -1e-12 {
			t.Errorf("Set(%q): share %v, want %v", tc.typed, m.Share, tc.share)
		}
		err := CheckMargin(m, tc.factors)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("--breakdown-margin %s: %v, want accepted", tc.typed, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("--breakdown-margin %s: %v, want an error with %q", tc.typed, err, tc.want)
		}
	}
	for _, bad := range []string{"", "ten", "%", "0.25%%"} {
		var m Margin
		if err := m.Set(bad); err == nil {
			t.Errorf("Set(%q) accepted %+v", bad, m)
		}
	}
}

// TestBreakdownHeadingPrintsTheMarginAsGiven pins that the breakdown
// table's heading prints the margin with the digits it has: 12.5% was
// printed "more than 12% worse" (and 0.07 is 7%, not 7.000000000000001%).
func TestBreakdownHeadingPrintsTheMarginAsGiven(t *testing.T) {
	for _, tc := range []struct {
		margin float64
		want   string
	}{{0.125, "more than 12.5% worse"}, {0.07, "more than 7% worse"}, {0.25, "more than 25% worse"}, {10, "more than 1000% worse"}} {
		var text, md strings.Builder
		if err := WriteBreakdowns(&text, nil, tc.margin, "tools=1", "tools=2"); err != nil {
			t.Fatal(err)
		}
		if err := WriteBreakdownsMarkdown(&md, nil, tc.margin, "tools=1", "tools=2"); err != nil {
			t.Fatal(err)
		}
		for _, got := range []string{text.String(), md.String()} {
			if !strings.Contains(got, tc.want) {
				t.Errorf("margin %v: heading %q lacks %q", tc.margin, strings.SplitN(got, "\n", 2)[0], tc.want)
			}
		}
	}
}

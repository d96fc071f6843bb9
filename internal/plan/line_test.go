package plan

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestLineRendersEachFormat pins how a plan line renders: the text plan
// prefixes a warning "warning: " and prints a statement as it is; the
// Markdown plan quotes both, a warning labelled as the projection's are, a
// statement capitalised, both escaped and ending with a full stop (the
// Markdown plan carried the growth points' cache lines in the text plan
// only, once). A warning is told from a statement by Line.Warning, not by
// its text: a statement that begins "warning: " stays a statement.
func TestLineRendersEachFormat(t *testing.T) {
	for _, tc := range []struct {
		name     string
		line     Line
		text, md string
	}{
		{"statement", Line{Text: "cache at ×1: params.cache_warm_start 0.5"},
			"cache at ×1: params.cache_warm_start 0.5", "> Cache at ×1: params.cache\\_warm\\_start 0.5.\n\n"},
		{"warning", Line{Warning: true, Text: "from ×2 the points were replayed cold"},
			"warning: from ×2 the points were replayed cold", "> **Warning:** from ×2 the points were replayed cold.\n\n"},
		{"a statement that reads like a warning", Line{Text: "warning: not one"},
			"warning: not one", "> Warning: not one.\n\n"},
		{"empty", Line{}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.line.String(); got != tc.text {
				t.Errorf("text %q, want %q", got, tc.text)
			}
			if got := tc.line.Markdown(); got != tc.md {
				t.Errorf("markdown %q, want %q", got, tc.md)
			}
		})
	}
}

// TestProjectionWarningLines pins the warning lines of the text and
// Markdown projections, written through Line: a small sample, then each
// of Projection.Warnings, in that order, and none for a projection with
// neither. No test quoted the small-sample line of the text plan.
func TestProjectionWarningLines(t *testing.T) {
	const small = "warning: small sample — fewer than 30 sessions replayed; intervals are wide and may be unreliable\n"
	for _, tc := range []struct {
		name     string
		small    bool
		warnings []string
		text     string // the lines between the title and the cache line
		md       string // the quotes after the run's paragraph
	}{
		{"none", false, nil, "", ""},
		{"small sample", true, nil, small, "> **Small sample:** fewer than 30 sessions replayed; intervals are wide and may be unreliable.\n\n"},
		{"small sample and a warning", true, []string{"one_key is off"}, small + "warning: one_key is off\n",
			"> **Small sample:** fewer than 30 sessions replayed; intervals are wide and may be unreliable.\n\n> **Warning:** one\\_key is off.\n\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := sim.RunInfo{Scenario: "s", Counts: sim.Counts{SessionsRead: 10, SessionsReplayed: 10}}
			res := countsResults(run)
			res.SmallSample = tc.small
			p, err := Project(res, Options{SessionsPerDay: 100})
			if err != nil {
				t.Fatal(err)
			}
			p.Warnings = tc.warnings
			var text, md strings.Builder
			if err := WriteProjection(&text, p); err != nil {
				t.Fatal(err)
			}
			if err := WriteProjectionMarkdown(&md, p); err != nil {
				t.Fatal(err)
			}
			_, rest, _ := strings.Cut(text.String(), "\n")
			if got, _, _ := strings.Cut(rest, "cache: "); got != tc.text {
				t.Errorf("text lines %q, want %q", got, tc.text)
			}
			_, rest, _ = strings.Cut(md.String(), ".\n\n")
			if got, _, _ := strings.Cut(rest, "**Cost**"); got != tc.md {
				t.Errorf("markdown quotes %q, want %q", got, tc.md)
			}
		})
	}
}

package plan

import "testing"

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
		{"statement", Line{Text: "cache (×1): params.cache_warm_start 0.5"},
			"cache (×1): params.cache_warm_start 0.5", "> Cache (×1): params.cache\\_warm\\_start 0.5.\n\n"},
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

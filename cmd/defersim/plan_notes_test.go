package main

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/internal/plan"
)

// TestPlanMarkdownShowsGrowthNotes pins that `plan --growth --format
// markdown` dropped the growth points' notes (the pool running out, a
// version taken by spelling) that the text output prints: each note is now
// written once, with the sizes it is about.
func TestPlanMarkdownShowsGrowthNotes(t *testing.T) {
	pt := func(f float64, notes ...string) plan.GrowthPoint {
		return plan.GrowthPoint{Point: plan.Point{Notes: notes}, Factor: f}
	}
	replayed := func(f, r float64, notes ...string) plan.GrowthPoint {
		p := pt(f, notes...)
		p.Replayed = r
		return p
	}
	for _, tc := range []struct {
		name   string
		growth []plan.GrowthPoint
		want   string
	}{
		{"none", []plan.GrowthPoint{pt(1), pt(2)}, ""},
		{"one point", []plan.GrowthPoint{pt(1), pt(8, "added x@abc at the last version by spelling")},
			"> Note at ×8: added x@abc at the last version by spelling.\n\n"},
		{"shared", []plan.GrowthPoint{pt(1, "a*b"), pt(2, "a*b", "c")},
			"> Note at ×1, ×2: a\\*b.\n\n> Note at ×2: c.\n\n"},
		// The size named by the factor it replays, the one asked beside
		// it, without nesting brackets (it read "Note (×1.735 (×1.2
		// asked))").
		{"replayed", []plan.GrowthPoint{pt(1), replayed(1.2, 118.0/68, "over")},
			"> Note at ×1.735 (×1.2 asked): over.\n\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			writeGrowthNotesMarkdown(&b, tc.growth)
			if d := cmp.Diff(tc.want, b.String()); d != "" {
				t.Errorf("notes (-want +got):\n%s", d)
			}
		})
	}
}

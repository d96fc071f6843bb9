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
	for _, tc := range []struct {
		name   string
		growth []plan.GrowthPoint
		want   string
	}{
		{"none", []plan.GrowthPoint{pt(1), pt(2)}, ""},
		{"one point", []plan.GrowthPoint{pt(1), pt(8, "the pool ran out: 300 tools instead of 1064")},
			"> Note (×8): the pool ran out: 300 tools instead of 1064.\n\n"},
		{"shared", []plan.GrowthPoint{pt(1, "a*b"), pt(2, "a*b", "c")},
			"> Note (×1, ×2): a\\*b.\n\n> Note (×2): c.\n\n"},
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

// TestPlanMarkdownShowsGrowthCache pins that the Markdown plan carries the
// growth points' cache lines (plan.GrowthCache), a warning as the
// projection's warnings are: they were in the text plan only.
func TestPlanMarkdownShowsGrowthCache(t *testing.T) {
	var b bytes.Buffer
	writeGrowthCacheMarkdown(&b, []string{"cache (×1): params.cache_warm_start 0.5", "warning: from ×2 the points were replayed cold"})
	want := "> Cache (×1): params.cache\\_warm\\_start 0.5.\n\n> **Warning:** from ×2 the points were replayed cold.\n\n"
	if d := cmp.Diff(want, b.String()); d != "" {
		t.Errorf("cache lines (-want +got):\n%s", d)
	}
}

package plan

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// TestGrowthPointRecordedInResults pins that each plan --growth point's
// results.json says it is one: run.growth_point holds the factor, the
// grown catalog's tool count and, with --growth-from, the directory the
// servers came from; run.scenario is the base scenario's name, as a sweep
// point's; and plan's projection of that file names the point in its
// title. A point's file used to record nothing of it (its scenario name
// only was rewritten to "small (catalog ×2: N tools)"), so plan, report
// and check read it as a run of a catalog the user never had.
func TestGrowthPointRecordedInResults(t *testing.T) {
	tests := []struct {
		name string
		pool string // --growth-from; "" for generated servers
	}{
		{"generated servers", ""},
		{"servers from a directory", shareddata.Path(t, "catalogs")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rc, err := runner.FromScenario(small(t, 3), runner.Overrides{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			rc.Bootstrap = -1
			pts, _, err := Growth(context.Background(), GrowthConfig{Base: rc, Factors: []float64{1, 1.5}, Pool: tc.pool, Seed: 1, Dir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			if len(pts) != 2 {
				t.Fatalf("%d points, want 2", len(pts))
			}
			for _, pt := range pts {
				res, err := report.ReadResults(pt.ResultsPath)
				if err != nil {
					t.Fatal(err)
				}
				want := sim.GrowthPoint{Factor: pt.Factor, Replayed: pt.Replayed, Tools: pt.Tools, From: tc.pool}
				if got := res.Run.GrowthPoint; got == nil || *got != want {
					t.Fatalf("%s: run.growth_point %+v, want %+v", pt.Label, got, want)
				}
				if res.Run.Scenario != "small" || res.Run.SweepPoint != nil {
					t.Errorf("%s: run.scenario %q, sweep point %v; want the base scenario's name and no sweep point", pt.Label, res.Run.Scenario, res.Run.SweepPoint)
				}
				proj, err := Project(res, Options{SessionsPerDay: 100})
				if err != nil {
					t.Fatal(err)
				}
				var text, md bytes.Buffer
				if err := WriteProjection(&text, proj); err != nil {
					t.Fatal(err)
				}
				if err := WriteProjectionMarkdown(&md, proj); err != nil {
					t.Fatal(err)
				}
				title := `projection of "small" at growth point ` + want.String() + " ("
				if first, _, _ := strings.Cut(text.String(), "\n"); !strings.HasPrefix(first, title) {
					t.Errorf("%s: projection title %q, want it to start %q", pt.Label, first, title)
				}
				if !strings.Contains(md.String(), "at growth point ×") {
					t.Errorf("%s: the Markdown projection does not name the growth point:\n%s", pt.Label, md.String())
				}
				if proj.GrowthPoint == nil || *proj.GrowthPoint != want {
					t.Errorf("%s: projection.growth_point %+v, want %+v", pt.Label, proj.GrowthPoint, want)
				}
			}
		})
	}
}

package plan

import (
	"context"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// TestGrowthOutputsNameTheReplayedFactor pins that every output of a
// growth point names the factor it replays, the factor asked beside it:
// the point's own results.json recorded only the factor asked
// (run.growth_point.factor 1.2, named "×1.2 (118 tools, …)" by plan,
// report and check) and plan's cache and overflow lines said "×1.2",
// while the size list said the size replays ×1.735 of today's 68 tools.
// results.json now records run.growth_point.replayed_factor and the
// point reads "×1.735 (×1.2 asked; 118 tools, …)"; the lines say
// "at ×1.735 (×1.2 asked)", not inside brackets of their own (they read
// "cache (×1.735 (×1.2 asked)): …"). A size that replays its factor reads as before
// ("×1 (68 tools, nothing added)"), and so does a file of an earlier
// build, which records no replayed factor.
func TestGrowthOutputsNameTheReplayedFactor(t *testing.T) {
	rc, err := runner.FromScenario(small(t, 5), runner.Overrides{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rc.Bootstrap = -1
	pool := t.TempDir()
	writeCatalogFile(t, pool, "big", "1.0.0", 50)
	pts, _, err := Growth(context.Background(), GrowthConfig{Base: rc, Factors: []float64{1, 1.2}, Pool: pool, Seed: 1, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	wants := []struct {
		replayed float64
		named    string
	}{
		{1, "×1 (68 tools, nothing added)"},
		{118.0 / 68, "×1.735 (×1.2 asked; 118 tools, servers from " + pool + ")"},
	}
	for i, p := range pts {
		res, err := report.ReadResults(p.ResultsPath)
		if err != nil {
			t.Fatal(err)
		}
		g := res.Run.GrowthPoint
		if g == nil || g.Replayed != wants[i].replayed || g.Factor != p.Factor {
			t.Fatalf("%s: run.growth_point %+v, want factor %g, replayed_factor %g", p.Label, g, p.Factor, wants[i].replayed)
		}
		if got := g.String(); got != wants[i].named {
			t.Errorf("%s: named %q, want %q", p.Label, got, wants[i].named)
		}
	}

	// The lines below the size list, for points as Growth returns them;
	// the cache lines name each point when their assumptions differ.
	as := pts[1].Results.Run.Assumptions
	for i := range as {
		if as[i].Name == "cache_warm_start" {
			as[i].Value = "1"
		}
	}
	proj := &Projection{SessionsPerDay: 100}
	lines := GrowthCache(proj, pts)
	var text []string
	for _, l := range lines {
		text = append(text, l.Text)
	}
	if all := strings.Join(text, "\n"); !strings.Contains(all, "cache at ×1.735 (×1.2 asked): ") || strings.Contains(all, "×1.2)") || strings.Contains(all, "((") {
		t.Errorf("cache lines do not name the replayed factor:\n%s", all)
	}
	pts[1].ContextOverflow = []StrategyOverflow{{Strategy: "eager", ContextOverflow: sim.ContextOverflow{Requests: 3, Sessions: 1}}}
	l, ok := GrowthOverflowWarning(pts)
	if !ok || !strings.Contains(l.Text, "×1.735 (×1.2 asked; tools=118)") {
		t.Errorf("overflow warning %q does not name the replayed factor", l.Text)
	}

	// A file of an earlier build records no replayed factor.
	old := sim.GrowthPoint{Factor: 2, Tools: 140}
	if got, want := old.String(), "×2 (140 tools, generated servers)"; got != want {
		t.Errorf("earlier build's point: %q, want %q", got, want)
	}
}

package plan

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestGrowthCacheSaysEachPointsAssumption pins that plan --growth states,
// per growth point, the cache_warm_start its replay ran under and whether
// it holds at the projected sessions per day (GrowthPoint.Cache, in
// plan.json growth[].cache, and the lines under the sizes), warning when a
// cold start is unlikely that the points' costs and the cost breakdowns
// are cold-start figures, and naming the first point where it stops
// holding. The projection's cache warning used to be the only word: the
// growth table, where eager's cold-start prefix grows with the catalog,
// said nothing, nor that a --scenario with another cache_warm_start than
// the results' replayed the points under another assumption. The factors
// multiply the catalog, not the traffic: the start gap is the same at
// every point.
func TestGrowthCacheSaysEachPointsAssumption(t *testing.T) {
	results := func(warm string) sim.RunInfo {
		return sim.RunInfo{Scenario: "s", Model: "m", Counts: sim.Counts{SessionsRead: 100, SessionsReplayed: 100},
			Assumptions: []sim.Assumption{{Name: "cache.ttl_s", Value: "300"}, {Name: "cache_warm_start", Value: warm}}}
	}
	tests := []struct {
		name       string
		perDay     float64
		projection string   // the results' cache_warm_start
		points     []string // each point's
		want       []string // the lines, in order, each a part of one
		unlikely   []bool   // each point's Cache.ColdStartUnlikely
	}{
		{"holds at 200 a day", 200, "0", []string{"0", "0", "0"},
			[]string{"cache (every point): params.cache_warm_start 0 (every session starts with a cold prompt cache), which holds when a session starts every 432 s on average, past the 300 s cache TTL; the growth factors multiply the catalog, not the traffic"},
			[]bool{false, false, false}},
		{"unlikely at 10K a day", 10000, "0", []string{"0", "0", "0"},
			[]string{"warning: cache (every point): params.cache_warm_start 0 (every session starts with a cold prompt cache), unlikely when a session starts every 8.64 s on average, within the 300 s cache TTL; " +
				"the growth factors multiply the catalog, not the traffic, so this is so at every size: each point's cost per session, and the size at which cost breaks down, are cold-start figures"},
			[]bool{true, true, true}},
		{"growth scenario warm, results cold", 10000, "0", []string{"0.5", "0.5"},
			[]string{"cache (every point): params.cache_warm_start 0.5 (a session finds its static prefix cached with probability 0.5); the growth factors multiply the catalog, not the traffic, so this is so at every size (not the projection's assumption, params.cache_warm_start 0 (every session starts with a cold prompt cache), unlikely"},
			[]bool{false, false}},
		{"points differ", 10000, "0", []string{"0.5", "0", "0"},
			[]string{"cache (×1): params.cache_warm_start 0.5", "cache (×2): params.cache_warm_start 0 (every session starts with a cold prompt cache), unlikely", "cache (×4): ",
				"warning: from ×2 the points were replayed with every session starting cold, which is unlikely at 10K sessions/day"},
			[]bool{false, true, true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			proj, err := Project(countsResults(results(tc.projection)), Options{SessionsPerDay: tc.perDay})
			if err != nil {
				t.Fatal(err)
			}
			var pts []GrowthPoint
			for i, w := range tc.points {
				pts = append(pts, GrowthPoint{Point: Point{Results: countsResults(results(w))}, Factor: []float64{1, 2, 4}[i]})
			}
			lines := GrowthCache(proj, pts)
			if len(lines) != len(tc.want) {
				t.Fatalf("%d lines, want %d:\n%s", len(lines), len(tc.want), strings.Join(lines, "\n"))
			}
			for i, want := range tc.want {
				if !strings.Contains(lines[i], want) {
					t.Errorf("line %d:\n%s\nlacks:\n%s", i, lines[i], want)
				}
			}
			for i, p := range pts {
				if p.Cache == nil {
					t.Fatalf("point ×%g: no cache statement", p.Factor)
				}
				if p.Cache.ColdStartUnlikely != tc.unlikely[i] {
					t.Errorf("point ×%g: cold_start_unlikely %v, want %v", p.Factor, p.Cache.ColdStartUnlikely, tc.unlikely[i])
				}
				if want := 86400 / tc.perDay; p.Cache.MeanStartGapSeconds != want {
					t.Errorf("point ×%g: start gap %v s, want %v (the traffic does not grow with the catalog)", p.Factor, p.Cache.MeanStartGapSeconds, want)
				}
			}
		})
	}
}

package plan

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestGrowthCacheSaysEachPointsAssumption pins that plan --growth states,
// per growth point, the cache_warm_start its replay ran under against the
// warm start the projected sessions per day imply, judged by the
// projection's verdict (GrowthPoint.Cache, in plan.json growth[].cache,
// and the lines under the sizes), warning both ways — a colder assumption
// overstates the points' costs and the cost breakdowns, a warmer one
// understates them — and naming the points concerned. It used to warn
// only of a cold assumption at a mean start gap within the TTL: points
// replayed warm at 20 sessions a day were said nothing of, and cold ones
// at 200 a day (a 432 s gap against a 300 s TTL, an implied warm start of
// 0.5) were said to hold. The factors multiply the catalog, not the
// traffic: the start gap is the same at every point.
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
		mismatch   []string // each point's Cache.Mismatch
	}{
		{"holds at 20 a day", 20, "0", []string{"0", "0", "0"},
			[]string{"cache (every point): params.cache_warm_start 0 (every session starts with a cold prompt cache), against a warm start of 0.07 implied when a session starts every 4320 s on average and the 300 s cache TTL: the assumption holds within the 0.1 tolerance; the growth factors multiply the catalog, not the traffic"},
			[]string{"", "", ""}},
		{"colder at 200 a day", 200, "0", []string{"0", "0", "0"},
			[]string{"warning: cache (every point): params.cache_warm_start 0 (every session starts with a cold prompt cache), against a warm start of 0.5 implied when a session starts every 432 s on average and the 300 s cache TTL: the assumption is colder by 0.5, more than the 0.1 tolerance; " +
				"the growth factors multiply the catalog, not the traffic, so this is so at every size: each point's cost per session, and the size at which cost breaks down, assume fewer warm starts than this traffic gives: they are overstated"},
			[]string{"colder", "colder", "colder"}},
		{"mirror: warmer at 20 a day", 20, "1", []string{"1", "1"},
			[]string{"warning: cache (every point): params.cache_warm_start 1 (every session finds its static prefix already cached by another session), against a warm start of 0.07 implied when a session starts every 4320 s on average and the 300 s cache TTL: the assumption is warmer by 0.93, more than the 0.1 tolerance; " +
				"the growth factors multiply the catalog, not the traffic, so this is so at every size: each point's cost per session, and the size at which cost breaks down, assume more warm starts than this traffic gives: they are understated"},
			[]string{"warmer", "warmer"}},
		{"growth scenario warm, results cold", 10000, "0", []string{"1", "1"},
			[]string{"cache (every point): params.cache_warm_start 1 (every session finds its static prefix already cached by another session), against a warm start of 1 implied when a session starts every 8.64 s on average and the 300 s cache TTL: the assumption holds within the 0.1 tolerance; the growth factors multiply the catalog, not the traffic, so this is so at every size (not the projection's assumption, params.cache_warm_start 0 (every session starts with a cold prompt cache), against a warm start of 1"},
			[]string{"", ""}},
		{"points differ", 10000, "0", []string{"1", "0", "0"},
			[]string{"cache at ×1: params.cache_warm_start 1", "cache at ×2: params.cache_warm_start 0 (every session starts with a cold prompt cache), against a warm start of 1", "cache at ×4: ",
				"warning: at ×2, ×4 the points were replayed with a params.cache_warm_start colder than 10K sessions/day implies, by more than the 0.1 tolerance: "},
			[]string{"", "colder", "colder"}},
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
			var lines []string
			for _, l := range GrowthCache(proj, pts) {
				lines = append(lines, l.String())
			}
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
				if p.Cache.Mismatch != tc.mismatch[i] {
					t.Errorf("point ×%g: mismatch %q, want %q", p.Factor, p.Cache.Mismatch, tc.mismatch[i])
				}
				if want := 86400 / tc.perDay; p.Cache.MeanStartGapSeconds != want {
					t.Errorf("point ×%g: start gap %v s, want %v (the traffic does not grow with the catalog)", p.Factor, p.Cache.MeanStartGapSeconds, want)
				}
			}
		})
	}
}

package check

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// TestIncomparableNamesTheSweepPoints pins that check, refusing two
// results of different scenarios, names the sweep point of each file that
// is one after its scenario ("scenario "t" at sweep point
// params.cache_warm_start=0"), and still names the swept parameter as the
// difference. Both files used to read "scenario "t"", as if the scenario
// itself differed, and a plain run against a point said nothing of the
// point. A plan --growth point (run.growth_point) is named the same way,
// by the one sim.PointAt; it used to be named by nothing.
func TestIncomparableNamesTheSweepPoints(t *testing.T) {
	d := map[string]report.Distribution{"cost_usd": dist(1, 1, 1)}
	run := func(fp, warm string, pt *sim.SweepPoint) *report.Results {
		r := results(fp, map[string]map[string]report.Distribution{"a": d})
		r.Run.SweepPoint = pt
		r.Run.Assumptions = []sim.Assumption{{Name: "cache_warm_start", Value: warm, Source: "params"}}
		return r
	}
	grown := func(r *report.Results) *report.Results {
		r.Run.GrowthPoint = &sim.GrowthPoint{Factor: 2, Tools: 267}
		return r
	}
	at := func(v float64) *sim.SweepPoint { return &sim.SweepPoint{Param: "params.cache_warm_start", Value: v} }
	tests := []struct {
		name      string
		base, cur *report.Results
		line      string
	}{
		{"two points of one sweep", run("f", "0", at(0)), run("g", "0.5", at(0.5)),
			`scenario fingerprint f (baseline, scenario "t" at sweep point params.cache_warm_start=0) vs g (current, scenario "t" at sweep point params.cache_warm_start=0.5)`},
		{"a plain run against a point", run("f", "0", nil), run("g", "0.5", at(0.5)),
			`scenario fingerprint f (baseline, scenario "t") vs g (current, scenario "t" at sweep point params.cache_warm_start=0.5)`},
		{"a growth point against another scenario's run", grown(run("f", "0", nil)), run("g", "0.5", nil),
			`scenario fingerprint f (baseline, scenario "t" at growth point ×2 (267 tools, generated servers)) vs g (current, scenario "t")`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			inc := checkComparable(tc.base, tc.cur, nil, Allow{})
			if inc == nil {
				t.Fatal("comparable, want incomparable")
			}
			msg := inc.Error()
			for _, want := range []string{"\n  " + tc.line + "\n", "\n    cache_warm_start: 0 vs 0.5\n"} {
				if !strings.Contains(msg, want) {
					t.Errorf("message lacks %q:\n%s", want, msg)
				}
			}
		})
	}
}

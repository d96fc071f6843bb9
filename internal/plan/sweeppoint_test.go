package plan

import (
	"context"
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// TestSweepPointRecordedInResults pins that each point's results.json
// says it is a sweep's point: run.sweep_point names the parameter and the
// value, and the assumption stating a params or model key says the sweep
// set it. The file used to read as a run of the scenario as written
// (run.scenario "small", the swept key's source "params (…)"), so plan
// named the scenario as the source of a value it does not set.
func TestSweepPointRecordedInResults(t *testing.T) {
	sc := small(t, 3)
	tests := []struct {
		spec       SweepSpec
		assumption string // the assumption stating the key; "" for a strategy key
	}{
		{SweepSpec{Param: "params.cache_warm_start", From: 0, To: 1, Step: 1}, "cache_warm_start"},
		{SweepSpec{Param: "model.pricing.input_per_mtok", From: 3, To: 6, Step: 3}, "price.input_per_mtok"},
		{SweepSpec{Param: "strategy.trigger.budget", From: 2000, To: 4000, Step: 2000}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.spec.Param, func(t *testing.T) {
			sw, err := Sweep(context.Background(), SweepConfig{Scenario: sc, Spec: tc.spec, Dir: t.TempDir(), Bootstrap: -1})
			if err != nil {
				t.Fatal(err)
			}
			if len(sw.Points) != 2 {
				t.Fatalf("%d points, want 2", len(sw.Points))
			}
			for _, pt := range sw.Points {
				res, err := report.ReadResults(pt.ResultsPath)
				if err != nil {
					t.Fatal(err)
				}
				want := sim.SweepPoint{Param: tc.spec.Param, Value: pt.X}
				if got := res.Run.SweepPoint; got == nil || *got != want {
					t.Fatalf("%s: run.sweep_point %+v, want %+v", pt.Label, got, want)
				}
				if pt.Label != want.String() {
					t.Errorf("label %q, want the point's %q", pt.Label, want.String())
				}
				marked := 0
				for _, a := range res.Run.Assumptions {
					if !strings.Contains(a.Source, "sweep point") {
						continue
					}
					marked++
					prefix := "sweep point " + pt.Label + ` (set by defersim sweep in place of scenario "small"'s value); `
					if a.Name != tc.assumption || !strings.HasPrefix(a.Source, prefix) {
						t.Errorf("%s: assumption %s source %q, want only %s's, starting %q", pt.Label, a.Name, a.Source, tc.assumption, prefix)
					}
				}
				if want := min(1, len(tc.assumption)); marked != want {
					t.Errorf("%s: %d assumptions name the sweep point, want %d", pt.Label, marked, want)
				}
			}
		})
	}
}

// TestPlanNamesTheSweepPoint pins that plan, projecting a sweep point's
// results, names the point as the source of params.cache_warm_start when
// the sweep set it, in the cache line, the warning's advice and the
// title. It used to say "the params of scenario "s", 0 unless it sets the
// key", which the scenario did not set, and to advise sweeping the key
// that had just been swept.
func TestPlanNamesTheSweepPoint(t *testing.T) {
	tests := []struct {
		name      string
		point     *sim.SweepPoint
		source    string
		notSource string
		inWarn    string
	}{
		{name: "plain run", source: `results.json run.assumptions: the params of scenario "s", 0 unless it sets the key`,
			notSource: "sweep", inWarn: "measure its effect with defersim sweep"},
		{name: "the sweep set it", point: &sim.SweepPoint{Param: "params.cache_warm_start", Value: 1},
			source:    `results.json run.sweep_point: set by the sweep point params.cache_warm_start=1 in place of scenario "s"'s value`,
			notSource: "0 unless", inWarn: "these results are the sweep point params.cache_warm_start=1: plan the sweep's point nearest 0.09 instead"},
		{name: "the sweep set another key", point: &sim.SweepPoint{Param: "params.cold_call_prob", Value: 0.2},
			source: `the params of scenario "s", 0 unless it sets the key; the sweep point params.cold_call_prob=0.2 set another key`,
			inWarn: "measure its effect with defersim sweep"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := cacheResults("1", "300", 90)
			res.Run.SweepPoint = tc.point
			p, err := Project(res, Options{SessionsPerDay: 20})
			if err != nil {
				t.Fatal(err)
			}
			if c := p.Cache; !strings.Contains(c.Source, tc.source) || tc.notSource != "" && strings.Contains(c.Source, tc.notSource) {
				t.Errorf("source %q, want %q (and no %q)", c.Source, tc.source, tc.notSource)
			}
			if !strings.Contains(p.Cache.Statement, p.Cache.Source) {
				t.Errorf("statement %q does not give the source", p.Cache.Statement)
			}
			var warn string
			for _, w := range p.Warnings {
				if strings.HasPrefix(w, "params.cache_warm_start is 1") {
					warn = w
				}
			}
			if !strings.Contains(warn, tc.inWarn) {
				t.Errorf("warning %q lacks %q", warn, tc.inWarn)
			}
			var text, md strings.Builder
			if err := WriteProjection(&text, p); err != nil {
				t.Fatal(err)
			}
			if err := WriteProjectionMarkdown(&md, p); err != nil {
				t.Fatal(err)
			}
			wantTitle, wantMD := `projection of "s" (`, "### Projection of s to "
			if tc.point != nil {
				wantTitle = `projection of "s" at sweep point ` + tc.point.String() + " ("
				wantMD = "### Projection of s at sweep point " + strings.ReplaceAll(tc.point.String(), "_", `\_`) + " to "
			}
			if !strings.HasPrefix(text.String(), wantTitle) {
				t.Errorf("text plan starts %q, want %q", firstLine(text.String()), wantTitle)
			}
			if !strings.HasPrefix(md.String(), wantMD) {
				t.Errorf("Markdown plan starts %q, want %q", firstLine(md.String()), wantMD)
			}
		})
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

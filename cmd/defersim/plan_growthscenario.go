package main

import (
	"fmt"
	"strings"

	"github.com/defersim/defersim/internal/check"
	"github.com/defersim/defersim/report"
)

// growthScenario is plan.json's growth_scenario_differs: the growth runs
// replayed a scenario other than the one RESULTS.json records, so the
// growth table and the breakdowns describe that scenario, not the
// projection's.
type growthScenario struct {
	ResultsFingerprint string `json:"results_fingerprint"`
	GrowthFingerprint  string `json:"growth_fingerprint"`
	// Differences are what the results files record of the difference
	// (check's words: "model gpt-4o vs claude-sonnet-4.5", "strategy
	// mine (warm.max_tools 8 → 16)"); empty when it lies in permissions
	// or servers, which results files do not record.
	Differences []string `json:"differences"`
	// Warning is the line the plan prints.
	Warning string `json:"warning"`
}

// growthScenarioDiffers says how the scenario plan --growth replayed
// (fingerprint growthFP, model growthModel; its ×1 point's results at1)
// differs from the one the results come from. It used to be a note
// naming two fingerprints, printed by the text and Markdown plans only:
// plan.json and --format json said nothing, and a strategy of the same
// name defined otherwise grew without a word of it.
func growthScenarioDiffers(res, at1 *report.Results, growthFP, growthModel string) *growthScenario {
	g := &growthScenario{ResultsFingerprint: res.Run.ScenarioFingerprint, GrowthFingerprint: growthFP, Differences: []string{}}
	if at1 != nil {
		for _, d := range check.ScenarioDifferences(res, at1) {
			// The growth runs' catalogs are the grown ones: not a
			// difference of the scenario.
			if !strings.HasPrefix(d, "catalogs ") {
				g.Differences = append(g.Differences, d)
			}
		}
	}
	what := "in permissions or servers, which results files do not record"
	if len(g.Differences) > 0 {
		what = "in " + strings.Join(g.Differences, ", ")
	}
	g.Warning = fmt.Sprintf("the growth runs replay another scenario than the results' (fingerprint %.12s, the results' %.12s), which differs %s: "+
		"the growth table and where each rule breaks down describe that scenario, not the one projected above; "+
		"give --scenario the scenario file that produced RESULTS.json", growthFP, res.Run.ScenarioFingerprint, what) +
		otherModel(res.Run.Model, growthModel)
	return g
}

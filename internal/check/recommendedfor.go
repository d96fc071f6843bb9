package check

import "github.com/defersim/defersim/report"

// recommendedForWarnings warns of the current run's strategies (those
// checked: strategyNames) that defersim recommend chose for another model
// or tokenizer than the run's (report.RecommendedForFinding): the checks
// compare lists chosen for another setup. A warning, not a regression.
func recommendedForWarnings(cur *report.Results, only []string) []string {
	var out []string
	for _, name := range strategyNames(cur, only) {
		if f := report.RecommendedForFinding(cur, name); f != "" {
			out = append(out, "current: "+f)
		}
	}
	return out
}

package runner

import (
	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/scenarios"
	"github.com/defersim/defersim/sim"
)

// recommendedFor is, for each strategy of the run whose scenario entry
// records what defersim recommend chose it for (recommended_for), that
// record as assumptions (report.RecommendedForAssumption names them):
// results.json carries it, and the findings compare it with the run's
// model and tokenizer (report.RecommendedForFindings), through shards
// and merges as every assumption.
func recommendedFor(sc *scenarios.Scenario) []sim.Assumption {
	var out []sim.Assumption
	for _, st := range sc.Strategies {
		r, ok := sc.RecommendedFor[st.Name]
		if !ok {
			continue
		}
		const source = "scenario strategy key recommended_for (written by defersim recommend)"
		out = append(out, sim.Assumption{Name: report.RecommendedForAssumption(st.Name, "model"), Value: r.Model, Source: source})
		if r.Tokenizer != "" {
			out = append(out, sim.Assumption{Name: report.RecommendedForAssumption(st.Name, "tokenizer"), Value: r.Tokenizer, Source: source})
		}
	}
	return out
}

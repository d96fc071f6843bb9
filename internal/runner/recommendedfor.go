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
// and merges as every assumption. The model is compared here
// (report.RecommendedForModel), where the run's preset and values are
// known, and the answer recorded as run_model: results.json knows the
// model by name only.
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
		how := "by name and values"
		if r.ModelValues != "" {
			out = append(out, sim.Assumption{Name: report.RecommendedForAssumption(st.Name, "model_values"), Value: r.ModelValues, Source: source})
		} else {
			how = "by name only: the key records no model_values"
		}
		// The run's model compared here, where its preset and values are
		// known: results.json carries the answer, not the inputs.
		other := report.RecommendedForModel(r.Model, r.ModelValues, sc.Model, sc.ModelPreset)
		if other == "" {
			other = report.RecommendedForSameModel
		}
		out = append(out, sim.Assumption{Name: report.RecommendedForAssumption(st.Name, "run_model"), Value: other,
			Source: "the run's model compared with recommended_for's model, " + how})
	}
	return out
}

package report

import (
	"fmt"
	"strings"

	"github.com/defersim/defersim/sim/presets"
)

// RecommendedForAssumption names the run assumption recording key
// ("model", "tokenizer") of what defersim recommend chose the strategy
// called name for (its scenario entry's recommended_for).
func RecommendedForAssumption(name, key string) string {
	return "strategy." + name + ".recommended_for." + key
}

// RecommendedForFindings say, for each strategy of the results that
// defersim recommend chose for another model or tokenizer than the run's
// (RecommendedForFinding), what differs; none when every record matches
// or none was written.
func RecommendedForFindings(res *Results) []string {
	var out []string
	for _, st := range res.Strategies {
		if f := RecommendedForFinding(res, st.Name); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// RecommendedForFinding says, when defersim recommend chose the strategy
// called name for another model or tokenizer than the run's (its
// RecommendedForAssumption), what it was chosen for, what the run
// replays it with, and what its lists and budget were sized on; "" when
// the record matches the run or there is none.
func RecommendedForFinding(res *Results, name string) string {
	model, ok := assumption(&res.Run, RecommendedForAssumption(name, "model"))
	if !ok {
		return ""
	}
	tok, _ := assumption(&res.Run, RecommendedForAssumption(name, "tokenizer"))
	var was, is []string
	if !presets.SameModel(model, res.Run.Model, res.Run.ModelPreset) {
		was, is = append(was, "model "+model), append(is, "model "+res.Run.Model)
	}
	if tok != "" && tok != res.Run.Tokenizer {
		was, is = append(was, "tokenizer "+tok), append(is, "tokenizer "+res.Run.Tokenizer)
	}
	if len(was) == 0 {
		return ""
	}
	return fmt.Sprintf("Strategy %s was recommended for %s (its recommended_for) and this run replays it with %s: "+
		"its never-defer and always-defer lists and its budget were chosen on %s's prices, prompt cache and latency and on its schema counts, "+
		"not on this run's, so its figures here are those of lists chosen for another setup. Run defersim recommend with this run's model "+
		"and params to choose them for it.", name, strings.Join(was, ", "), strings.Join(is, ", "), model)
}

package report

import (
	"fmt"
	"strings"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
)

// RecommendedForAssumption names the run assumption recording key
// ("model", "tokenizer", "model_values", "run_model") of what defersim
// recommend chose the strategy called name for (its scenario entry's
// recommended_for) and how the run's model compares with it.
func RecommendedForAssumption(name, key string) string {
	return "strategy." + name + ".recommended_for." + key
}

// RecommendedForSameModel is the value of the run_model assumption
// (RecommendedForAssumption) when the run's model is the one recorded
// (RecommendedForModel says "").
const RecommendedForSameModel = "the recorded model"

// RecommendedForModel compares the model a strategy's recommended_for
// records — its name, and values, the digest of the prices, prompt cache
// and latency recommend priced with (sim.Model.ValuesDigest; "" when the
// snippet records none) — with the run's model (preset: the preset it
// was built from, "" for a model written out in full). It says "" when
// the run prices with the model recorded, else what the run replays the
// strategy with ("model gpt-4o"; "model claude-sonnet-4.5 with other
// values (pricing.input_per_mtok, not 3)"). With values recorded, they
// decide: another spelling, or a model written out with the very same
// values, is the same model; without, the names are compared
// (presets.SameModel). The one comparison of recommended_for's model:
// the run records its answer (RecommendedForAssumption "run_model"), so
// that check, merge and a re-rendered report, which know the run's model
// only by name, say what the run said.
func RecommendedForModel(name, values string, run sim.Model, preset string) string {
	sameName := presets.SameModel(name, run.Name, preset)
	switch {
	case values == "" && sameName, values != "" && values == run.ValuesDigest():
		return ""
	case !sameName:
		return "model " + run.Name
	}
	return fmt.Sprintf("model %s with other values (%s)", run.Name, otherValues(name, values, run))
}

// otherValues says which of run's values differ from those recommended
// for the model called name priced with (values, their digest): each key
// with the recorded value when they were the preset's own, else that the
// prices, prompt cache or latency differ.
func otherValues(name, values string, run sim.Model) string {
	if p, ok := presets.ResolveModel(name); ok {
		if m, err := presets.Model(p); err == nil && m.ValuesDigest() == values {
			var keys []string
			for _, d := range sim.ModelValueDiffs(m, run) {
				was := d.A
				if was == "" {
					was = "unset"
				}
				keys = append(keys, fmt.Sprintf("%s, not %s", d.Key, was))
			}
			return strings.Join(keys, "; ")
		}
	}
	return "prices, prompt cache or latency other than those of model_values " + values
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
// called name for another model (its name or values) or tokenizer than
// the run's (its RecommendedForAssumption), what it was chosen for, what
// the run replays it with, and what its lists and budget were sized on;
// "" when the record matches the run or there is none. The model is as
// the run compared it (run_model); results of earlier builds, which do
// not record it, are compared by name here, and the finding says so
// (recommendedForByName), also when the names match.
func RecommendedForFinding(res *Results, name string) string {
	model, ok := assumption(&res.Run, RecommendedForAssumption(name, "model"))
	if !ok {
		return ""
	}
	tok, _ := assumption(&res.Run, RecommendedForAssumption(name, "tokenizer"))
	values, _ := assumption(&res.Run, RecommendedForAssumption(name, "model_values"))
	other, compared := assumption(&res.Run, RecommendedForAssumption(name, "run_model"))
	switch {
	case !compared:
		other = RecommendedForModel(model, "", sim.Model{Name: res.Run.Model}, res.Run.ModelPreset)
	case other == RecommendedForSameModel:
		other = ""
	}
	var was, is []string
	if other != "" {
		was, is = append(was, "model "+model), append(is, other)
	}
	if tok != "" && tok != res.Run.Tokenizer {
		was, is = append(was, "tokenizer "+tok), append(is, "tokenizer "+res.Run.Tokenizer)
	}
	if len(was) == 0 {
		if !compared {
			return fmt.Sprintf("Strategy %s was recommended for model %s (its recommended_for) and this run replays it with model %s, the same model by name. %s",
				name, model, res.Run.Model, recommendedForByName(name))
		}
		return ""
	}
	f := fmt.Sprintf("Strategy %s was recommended for %s (its recommended_for) and this run replays it with %s: "+
		"its never-defer and always-defer lists and its budget were chosen on %s's prices, prompt cache and latency and on its schema counts, "+
		"not on this run's, so its figures here are those of lists chosen for another setup. Run defersim recommend with this run's model "+
		"and params to choose them for it.", name, strings.Join(was, ", "), strings.Join(is, ", "), model)
	switch {
	case !compared:
		f += " " + recommendedForByName(name)
	case values == "":
		f += " Its recommended_for records no model_values (a snippet of an earlier defersim): only the model's name was compared, not its prices, prompt cache and latency."
	}
	return f
}

// recommendedForByName says that the results of an earlier build record
// no comparison of the run's model with the one strategy name was
// recommended for (no run_model), so that RecommendedForFinding compared
// their names only.
func recommendedForByName(name string) string {
	return "These results, written by an earlier defersim, do not record how the run compared its model with it (" +
		RecommendedForAssumption(name, "run_model") + "): only the names were compared here, not the prices, prompt cache and latency, " +
		"and a preset the scenario renamed reads as another model. Run it again with this defersim to compare them as run does."
}

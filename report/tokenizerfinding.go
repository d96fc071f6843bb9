package report

import (
	"fmt"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
)

// tokenizerAssumption is the assumption that states the run's content
// counter (params.tokenizer), tokenScaleAssumption the factor its counts
// were scaled by (params.token_scale).
const (
	tokenizerAssumption  = "tokenizer"
	tokenScaleAssumption = "token_scale"
)

// tokenizerFinding says when the run counted prompt content with another
// counter than its model's own (a gpt-4o scenario with params.tokenizer
// cl100k_base): prompt sizes, cache thresholds and steps, token triggers
// and costs are then counts in a vocabulary the model does not bill. When
// the preset's vendor publishes no tokenizer (Claude), it says that the
// counter is a stand-in and how to sweep the gap (standInFinding). The
// model's own counter is its preset's (presets.OwnTokenizerFor: the one
// it was built from, which results.json records when the model is
// renamed, else the one its name resolves to). "" when the counters agree
// and when the model is no preset.
func tokenizerFinding(run *sim.RunInfo) string {
	if f := standInFinding(run); f != "" {
		return f
	}
	own, ok := presets.OwnTokenizerFor(run.ModelPreset, run.Model)
	if !ok || own == "" {
		return ""
	}
	if counter, ok := assumption(run, tokenizerAssumption); ok && counter != own {
		return fmt.Sprintf("Prompt content was counted with %s (params.tokenizer), not with %s's own %s: prompt sizes, the cache's minimum and steps, token triggers and costs are counts in another vocabulary than the model bills. Set params.tokenizer: %s (the default) to count as %s does.",
			counter, run.Model, own, own, run.Model)
	}
	return ""
}

// assumption is the value of the run's assumption called name (the last
// one so called), and whether there is one.
func assumption(run *sim.RunInfo, name string) (string, bool) {
	value, ok := "", false
	for _, a := range run.Assumptions {
		if a.Name == name {
			value, ok = a.Value, true
		}
	}
	return value, ok
}

// standInFinding says, for a model whose preset (the one the run built it
// from, else the one its name resolves to) has no published tokenizer,
// what counted its prompts instead, by what factor, and how to see what
// the difference does; "" for any other model.
func standInFinding(run *sim.RunInfo) string {
	note := standInNote(run, presets.TokenizerStandIn)
	if note == "" {
		return ""
	}
	counter, _ := assumption(run, tokenizerAssumption)
	if counter == "" {
		return ""
	}
	scale := ""
	if v, ok := assumption(run, tokenScaleAssumption); ok {
		scale = fmt.Sprintf(" × %s (params.token_scale)", v)
	}
	return fmt.Sprintf("Prompt content was counted with %s (params.tokenizer)%s, %s. Prompt sizes, the cache's minimum, costs and times rest on these counts.",
		counter, scale, note)
}

// standInNote is note (presets.TokenizerStandIn or its short form) for the
// run's model (presets.StandInFor: the preset the run built it from, else
// the one its name resolves to); "" when the model counts with its own
// tokenizer or is no preset.
func standInNote(run *sim.RunInfo, note func(string) string) string {
	return presets.StandInFor(run.ModelPreset, run.Model, note)
}

// tokenizerLabel names the run's content counter as the run line and the
// plots' captions give it: params.tokenizer, then its factor
// (params.token_scale) when the model's tokenizer is a stand-in or the
// factor is not 1, then, for a stand-in, the start of the sentence the
// tokenizer assumption of results.json gives ("o200k_base × 1 (a stand-in:
// claude-sonnet-4.5's tokenizer is not published)").
func tokenizerLabel(run *sim.RunInfo) string {
	scale, ok := assumption(run, tokenScaleAssumption)
	if !ok {
		scale = "1"
	}
	note := standInNote(run, presets.TokenizerStandInShort)
	label := run.Tokenizer
	if note != "" || scale != "1" {
		label += " × " + scale
	}
	if note != "" {
		label += " (" + note + ")"
	}
	return label
}

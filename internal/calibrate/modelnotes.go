package calibrate

import (
	"fmt"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
)

// standInNote says, for a written scenario's header, that another model's
// preset stands in for a recorded model that has none: only the latency
// and the prompt overhead are fitted to the sessions, the rest is that
// preset's.
func standInNote(recorded string, m sim.Model, latencyFitted bool) string {
	its, fitted := "prices, prompt-cache model, context window and latency", "only the prompt overhead is"
	if latencyFitted {
		its, fitted = "prices, prompt-cache model and context window", "only the latency and the prompt overhead are"
	}
	return fmt.Sprintf("the sessions record model %q, which has no preset: %s stands in for it, with its %s "+
		"(%s fitted to these sessions; set the model block to the recorded model's, or calibrate with --model)",
		recorded, describeModel(m), its, fitted)
}

// otherPresetNote says, for the warnings and a written scenario's header,
// that sessions recorded with one preset's model ("gpt-4o") are calibrated
// from another preset (--model claude-sonnet-4.5, or the scenario's
// model): the scenario keeps that preset's prices, prompt-cache model and
// context window, with a latency and a prompt overhead fitted to another
// model's recordings. "" when the two are the same preset, or either has
// none (the stand-in note covers a recorded model without one).
func otherPresetNote(recorded string, m sim.Model, source string, latencyFitted bool) string {
	rec, err := presets.Model(recorded)
	if err != nil || recorded == "" {
		return ""
	}
	used, err := presets.Model(m.Name)
	if err != nil || used.Name == rec.Name {
		return ""
	}
	from := "the scenario's model"
	if source == "--model" {
		from = "--model"
	}
	fitted := "the prompt overhead fitted"
	if latencyFitted {
		fitted = "the latency and the prompt overhead fitted"
	}
	return fmt.Sprintf("the sessions record model %q (the %s preset), but the %s preset (%s) is calibrated: it keeps its prices, "+
		"prompt-cache model (%s) and context window, with %s to %s's recordings, not to %s's "+
		"(calibrate without --model and --scenario to start from the recorded model's preset)",
		recorded, rec.Name, used.Name, from, used.Cache.Kind, fitted, rec.Name, used.Name)
}

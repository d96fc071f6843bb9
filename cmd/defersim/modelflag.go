package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/defersim/defersim/scenarios"
	"github.com/defersim/defersim/sim/presets"
)

// modelUsage is the help of --model on the commands that replay a
// scenario (run, sweep, plan --growth).
const modelUsage = "model preset to price and time every session as, instead of the scenario's: as the scenario's model: NAME would (docs/presets.md lists them)"

// addModelFlag registers --model on c.
func addModelFlag(c *cobra.Command, model *string, usage string) {
	c.Flags().StringVar(model, "model", "", usage)
}

// useModelFlag applies --model name ("" leaves the scenario's model) to
// sc, the scenario of file path ("" for the embedded default); when the
// file writes a model of its own, it says on stderr which one the flag
// replaced (scenarios.ModelFlagNote; the default scenario's is the
// default, replaced without a word).
func useModelFlag(stderr io.Writer, sc *scenarios.Scenario, path, name string) error {
	if name == "" {
		return nil
	}
	replaced, err := sc.UseModel(name)
	if err != nil {
		return err
	}
	if note := scenarios.ModelFlagNote(name, replaced); note != "" && path != "" {
		fmt.Fprintf(stderr, "defersim: note: %s\n", note)
	}
	return nil
}

// otherModel says, for plan --growth's note on a scenario fingerprint that
// differs from the results', when the results were priced as another model
// than the growth runs, and the --model that replays them under it (when
// it is a preset); "" when the models are the same.
func otherModel(results, growth string) string {
	if results == growth || results == "" {
		return ""
	}
	s := fmt.Sprintf("; the results' model is %s, the growth runs' %s", results, growth)
	if p, ok := presets.ResolveModel(results); ok {
		s += fmt.Sprintf(" (add --model %s)", p)
	}
	return s
}

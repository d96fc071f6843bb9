package report

import (
	"fmt"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
)

// tokenizerAssumption is the assumption that states the run's content
// counter (params.tokenizer).
const tokenizerAssumption = "tokenizer"

// tokenizerFinding says when the run counted prompt content with another
// counter than its model's own (a gpt-4o scenario with params.tokenizer
// cl100k_base): prompt sizes, cache thresholds and steps, token triggers
// and costs are then counts in a vocabulary the model does not bill. ""
// when they agree, when the model is no preset, and when the preset's
// vendor publishes no tokenizer (Claude: every counter stands in,
// docs/presets.md).
func tokenizerFinding(run *sim.RunInfo) string {
	own, ok := presets.OwnTokenizer(run.Model)
	if !ok || own == "" {
		return ""
	}
	for _, a := range run.Assumptions {
		if a.Name != tokenizerAssumption || a.Value == own {
			continue
		}
		return fmt.Sprintf("Prompt content was counted with %s (params.tokenizer), not with %s's own %s: prompt sizes, the cache's minimum and steps, token triggers and costs are counts in another vocabulary than the model bills. Set params.tokenizer: %s (the default) to count as %s does.",
			a.Value, run.Model, own, own, run.Model)
	}
	return ""
}

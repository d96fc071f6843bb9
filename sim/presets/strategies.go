package presets

import (
	"errors"
	"fmt"
	"strings"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/sim"
)

// strategyPreset is one named strategy constructor.
type strategyPreset struct {
	name  string
	build func() sim.Strategy
}

// strategyTable lists the presets in documentation order. It is built on
// each call so that no preset value is shared between callers.
func strategyTable() []strategyPreset {
	return []strategyPreset{
		{"eager", eager},
		{"anchor-e0-count30", anchorE0},
		{"anchor-e1-budget8k", anchorE1},
		{"anchor-e4-budget-or-categorical", anchorE4},
		{"anchor-e6-never-defer-openers", anchorE6},
		{"anchor-e7-per-tool", anchorE7},
		{"anchor-e9-warm-capped", anchorE9},
		{"claude-code-default", claudeCodeDefault},
		{"claude-code-auto10", claudeCodeAuto10},
		{"anthropic-api-inline", anthropicAPIInline},
		{"anthropic-api-inline-regex", anthropicAPIInlineRegex},
		{"copilot-cli-30", copilotCLI30},
		{"codex-cli", codexCLI},
		{"qwen-code", qwenCode},
	}
}

// StrategyNames lists the strategy presets in documentation order.
func StrategyNames() []string {
	t := strategyTable()
	out := make([]string, len(t))
	for i, p := range t {
		out[i] = p.name
	}
	return out
}

// Strategy returns a fresh, normalized copy of the named strategy preset.
func Strategy(name string) (sim.Strategy, error) {
	for _, p := range strategyTable() {
		if p.name == name {
			s := p.build()
			s.Name = p.name
			s.Normalize()
			return s, nil
		}
	}
	return sim.Strategy{}, errors.New(catalog.NearName(name, StrategyNames()).WithHint(fmt.Sprintf("unknown strategy preset %q (known: %s)", name, strings.Join(StrategyNames(), ", "))))
}

// eager never defers: every schema is sent on every request.
func eager() sim.Strategy {
	return sim.Strategy{
		Description: "Nothing is deferred: every tool schema is in tools[] on every request.",
		Source:      "baseline: how runtimes behave without deferral",
		Trigger:     sim.Trigger{Mode: sim.TriggerNever},
	}
}

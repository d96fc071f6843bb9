package report

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestRecordedModelFindingSuggestsModelFlag pins that the finding on
// sessions recorded with another model than the run's says how to price
// them as recorded with `--model PRESET` when their model is a preset (a
// vendor's dated spelling resolving to it), one model at a time when
// several, and keeps the scenario form for a model no preset holds. It
// used to name only a scenario file, though run, sweep and plan --growth
// take --model. With one other model the sentence speaks of "them", and
// of replaying them "apart" only when the run replayed other sessions too:
// it said "replay them apart" of 200 sessions that were all gpt-4o.
func TestRecordedModelFindingSuggestsModelFlag(t *testing.T) {
	tests := []struct {
		name   string
		models []sim.RecordedModel
		want   string // the finding's last sentence
	}{
		{"one preset, every session", []sim.RecordedModel{{Model: "gpt-4o", Sessions: 200}},
			"To see them as recorded, replay them with --model gpt-4o (or under a scenario whose model: names it)."},
		{"one preset beside the run's", []sim.RecordedModel{{Model: "gpt-4o-2024-08-06", Sessions: 5}, {Model: "claude-sonnet-4-5-20250929", Sessions: 3, Scenario: true}},
			"To see them as recorded, replay them apart with --model gpt-4o (or under a scenario whose model: names it)."},
		{"one preset beside sessions without a model", []sim.RecordedModel{{Model: "gpt-4o", Sessions: 5}, {Sessions: 1}},
			"To see them as recorded, replay them apart with --model gpt-4o (or under a scenario whose model: names it)."},
		{"one preset, spelt twice", []sim.RecordedModel{{Model: "gpt-4o", Sessions: 4}, {Model: "openai/gpt-4o", Sessions: 1}},
			"To see them as recorded, replay them with --model gpt-4o (or under a scenario whose model: names it)."},
		{"two presets, one spelt twice", []sim.RecordedModel{{Model: "gpt-4.1", Sessions: 6}, {Model: "gpt-4o", Sessions: 4}, {Model: "openai/gpt-4o", Sessions: 1}},
			"To see a model's sessions as recorded, replay them apart with --model gpt-4.1 or --model gpt-4o, one model's sessions at a time (or under a scenario whose model: names it)."},
		{"a preset and a model no preset holds", []sim.RecordedModel{{Model: "gpt-4o", Sessions: 6}, {Model: "openai/gpt-oss-120b", Sessions: 2}, {Sessions: 2}},
			"To see a model's sessions as recorded, replay them apart with --model gpt-4o, and the models no preset holds under a scenario whose model: names it."},
		{"no preset", []sim.RecordedModel{{Model: "openai/gpt-oss-120b", Sessions: 2}},
			"To see them as recorded, replay them under a scenario whose model: names it."},
		{"no model recorded", []sim.RecordedModel{{Sessions: 15}},
			"replay them with --model and its preset, or under a scenario whose model: names it."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := recordedModelFinding(&sim.RunInfo{Model: "claude-sonnet-4.5", RecordedModels: tc.models})
			if !strings.HasSuffix(got, tc.want) {
				t.Errorf("finding\n%s\ndoes not end with\n%s", got, tc.want)
			}
		})
	}
}

// TestReplayAsListsModelsAsASentence pins that three or more --model
// suggestions are joined as every list the project prints (nouns.Or:
// "a, b or c"); they were joined with a hand-written " or " ("a or b or c").
func TestReplayAsListsModelsAsASentence(t *testing.T) {
	tests := []struct {
		name   string
		models []sim.RecordedModel
		want   string
	}{
		{"two presets", []sim.RecordedModel{{Model: "gpt-4.1", Sessions: 6}, {Model: "gpt-4o", Sessions: 4}},
			"with --model gpt-4.1 or --model gpt-4o, one model's sessions at a time (or under a scenario whose model: names it)"},
		{"three presets", []sim.RecordedModel{{Model: "gpt-4.1", Sessions: 6}, {Model: "gpt-4o", Sessions: 4}, {Model: "gpt-5", Sessions: 1}},
			"with --model gpt-4.1, --model gpt-4o or --model gpt-5, one model's sessions at a time (or under a scenario whose model: names it)"},
		{"more presets than listed", []sim.RecordedModel{{Model: "gpt-4.1", Sessions: 6}, {Model: "gpt-4o", Sessions: 5}, {Model: "gpt-5", Sessions: 4},
			{Model: "claude-opus-4.5", Sessions: 3}, {Model: "claude-haiku-4.5", Sessions: 2}, {Model: "claude-sonnet-4.5-1h", Sessions: 1}},
			"with --model gpt-4.1, --model gpt-4o, --model gpt-5, --model claude-opus-4.5, --model claude-haiku-4.5 or …, one model's sessions at a time (or under a scenario whose model: names it)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := ReplayAs(tc.models); got != tc.want {
				t.Errorf("ReplayAs\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

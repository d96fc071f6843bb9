package recommend

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestModelsNoteWordedForOneModel pins recommend's recorded-model note
// worded as the run's (report.ReplayApart): one other model is "them",
// "apart" only when sessions of the priced model or of none are there to
// set them apart from, with the --model to give. It said "recommend its
// sessions apart" of 200 sessions that were all gpt-4o.
func TestModelsNoteWordedForOneModel(t *testing.T) {
	tests := []struct {
		name   string
		models []sim.RecordedModel
		want   string // the note's last clause
	}{
		{"one preset, every session", []sim.RecordedModel{{Model: "gpt-4o", Sessions: 200}},
			"; to weigh the rules by its own, recommend them with --model gpt-4o (or under a scenario whose model: names it)"},
		{"one preset beside the priced model's", []sim.RecordedModel{{Model: "gpt-4o-2024-08-06", Sessions: 5}, {Model: "claude-sonnet-4-5-20250929", Sessions: 3, Scenario: true}},
			"; to weigh the rules by its own, recommend them apart with --model gpt-4o (or under a scenario whose model: names it)"},
		{"one preset beside sessions without a model", []sim.RecordedModel{{Model: "gpt-4o", Sessions: 5}, {Sessions: 1}},
			"; to weigh the rules by its own, recommend them apart with --model gpt-4o (or under a scenario whose model: names it)"},
		{"one preset, spelt twice", []sim.RecordedModel{{Model: "gpt-4o", Sessions: 4}, {Model: "openai/gpt-4o", Sessions: 1}},
			"; to weigh the rules by its own, recommend them with --model gpt-4o (or under a scenario whose model: names it)"},
		{"two presets", []sim.RecordedModel{{Model: "gpt-4.1", Sessions: 6}, {Model: "gpt-4o", Sessions: 4}},
			"; to weigh the rules by a model's own, recommend its sessions apart with --model gpt-4.1 or --model gpt-4o, one model's sessions at a time (or under a scenario whose model: names it)"},
		{"no preset", []sim.RecordedModel{{Model: "openai/gpt-oss-120b", Sessions: 2}},
			"; to weigh the rules by its own, recommend them under a scenario whose model: names it"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := otherModelsNote(tc.models, nil, "claude-sonnet-4.5")
			if !strings.HasSuffix(got, tc.want) {
				t.Errorf("note = %q\nwant it to end %q", got, tc.want)
			}
		})
	}
	if got := otherModelsNote([]sim.RecordedModel{{Model: "claude-sonnet-4.5", Sessions: 3, Scenario: true}, {Sessions: 2}}, nil, "claude-sonnet-4.5"); got != "" {
		t.Errorf("no session of another model: note %q, want none", got)
	}
}

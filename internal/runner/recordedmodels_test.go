package runner

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
)

// mixedModels are recorded models for setModels: two others than the
// default scenario's, none, and the scenario's own.
var mixedModels = []string{"gpt-4.1-mini", "", "openai/gpt-oss-120b", "claude-sonnet-4-5"}

// setModels rewrites cfg's one trace so that session k's session_start
// records models[k % len(models)] ("" removes the model), into a new file.
func setModels(t *testing.T, cfg *Config, models ...string) {
	t.Helper()
	editEvents(t, cfg, "session_start", func(ev map[string]any, k int) {
		if m := models[k%len(models)]; m == "" {
			delete(ev, "model")
		} else {
			ev["model"] = m
		}
	})
}

// TestRunCountsRecordedModels pins that a run counts its replayed sessions
// by the model their session_start records (those recording none apart),
// says which are the scenario's model through the preset names
// ("gpt-4o-2024-08-06" is gpt-4o), and notes — in the findings the
// summary, report.md and report.html print — the sessions recorded with
// another model, priced and timed as the scenario's.
func TestRunCountsRecordedModels(t *testing.T) {
	gpt4o, err := presets.Model("gpt-4o")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		models []string
		model  *sim.Model // nil: the default scenario's
		preset string
		want   []sim.RecordedModel
		note   string // "" for no note
	}{
		{"the scenario's model", []string{"claude-sonnet-4-5-20250929"}, nil, "",
			[]sim.RecordedModel{{Model: "claude-sonnet-4-5-20250929", Sessions: 12, Scenario: true}}, ""},
		{"none recorded", []string{""}, nil, "",
			[]sim.RecordedModel{{Sessions: 12}}, ""},
		{"a dated snapshot of the preset", []string{"gpt-4o-2024-08-06"}, &gpt4o, "gpt-4o",
			[]sim.RecordedModel{{Model: "gpt-4o-2024-08-06", Sessions: 12, Scenario: true}}, ""},
		{"a renamed preset", []string{"openai/gpt-4o"}, &sim.Model{}, "gpt-4o",
			[]sim.RecordedModel{{Model: "openai/gpt-4o", Sessions: 12, Scenario: true}}, ""},
		{"other models", []string{"gpt-4.1-mini", "openai/gpt-oss-120b", "gpt-4.1-mini", "", "claude-sonnet-4.5", "gpt-4.1-mini"}, nil, "",
			[]sim.RecordedModel{{Model: "gpt-4.1-mini", Sessions: 6}, {Model: "", Sessions: 2},
				{Model: "claude-sonnet-4.5", Sessions: 2, Scenario: true}, {Model: "openai/gpt-oss-120b", Sessions: 2}},
			`8 of 12 sessions were recorded with another model than the run's ("gpt-4.1-mini" in 6, "openai/gpt-oss-120b" in 2; 2 record no model); they are priced and timed as claude-sonnet-4.5`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := smallConfig(t, []string{"eager"}, 12)
			cfg.Bootstrap = -1
			if tc.model != nil {
				m := *tc.model
				if m.Name == "" {
					m = gpt4o
					m.Name = "my-gpt"
				}
				cfg.Model = m
			}
			cfg.ModelPreset = tc.preset
			setModels(t, &cfg, tc.models...)
			out, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if got := out.Results.Run.RecordedModels; !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("recorded models = %+v, want %+v", got, tc.want)
			}
			var notes []string
			for _, f := range report.Findings(out.Results) {
				if strings.Contains(f, "recorded with another model") {
					notes = append(notes, f)
				}
			}
			switch {
			case tc.note == "" && len(notes) > 0:
				t.Fatalf("notes %q, want none", notes)
			case tc.note != "" && (len(notes) != 1 || !strings.HasPrefix(notes[0], tc.note)):
				t.Fatalf("notes %q, want one starting %q", notes, tc.note)
			}
		})
	}
}

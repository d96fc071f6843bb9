package runner

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
)

// TestRunSaysSessionsWithoutModel pins that a run says how many sessions
// record no model, which it priced and timed as the scenario's model: the
// 15 ToolBench answers were replayed as claude-sonnet-4.5 with no word in
// the summary, report or results.json. results.json counts them in
// sessions_without_model, absent when 0 (runs whose sessions all name
// a model stay byte-identical). A session recording a model the scenario
// does not price (a name no preset knows) is not silent either: the
// finding on sessions of another model names it.
func TestRunSaysSessionsWithoutModel(t *testing.T) {
	const noModel = "12 of 12 sessions record no model; they are priced and timed as claude-sonnet-4.5"
	for _, tc := range []struct {
		name    string
		models  []string
		without int64  // sessions_without_model
		note    string // the one model finding; "" for none
	}{
		{"none recorded", []string{""}, 12, noModel},
		{"the scenario's model", []string{"claude-sonnet-4-5"}, 0, ""},
		{"some without, none of another model", []string{"", "claude-sonnet-4-5", "claude-sonnet-4-5"}, 4,
			"4 of 12 sessions record no model; they are priced and timed as claude-sonnet-4.5"},
		{"a model no preset knows", []string{"my-llm-9000", "claude-sonnet-4-5"}, 0,
			`6 of 12 sessions were recorded with another model than the run's ("my-llm-9000" in 6); they are priced and timed as claude-sonnet-4.5`},
		{"another model and none", []string{"my-llm-9000", ""}, 6,
			`6 of 12 sessions were recorded with another model than the run's ("my-llm-9000" in 6; 6 record no model)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := smallConfig(t, []string{"eager"}, 12)
			cfg.Bootstrap = -1
			setModels(t, &cfg, tc.models...)
			out, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if got := out.Results.SessionsWithoutModel; got != tc.without {
				t.Errorf("sessions_without_model = %d, want %d", got, tc.without)
			}
			b, err := json.Marshal(out.Results)
			if err != nil {
				t.Fatal(err)
			}
			if has := strings.Contains(string(b), `"sessions_without_model"`); has != (tc.without > 0) {
				t.Errorf("results.json has sessions_without_model: %v, want %v", has, tc.without > 0)
			}
			var notes []string
			for _, f := range report.Findings(out.Results) {
				if strings.Contains(f, "no model") || strings.Contains(f, "another model") {
					notes = append(notes, f)
				}
			}
			switch {
			case tc.note == "" && len(notes) > 0:
				t.Errorf("model findings %q, want none", notes)
			case tc.note != "" && (len(notes) != 1 || !strings.HasPrefix(notes[0], tc.note)):
				t.Errorf("model findings %q, want one starting %q", notes, tc.note)
			}
		})
	}
}

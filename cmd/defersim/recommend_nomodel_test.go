package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/traces/importers"
)

// TestRecommendNotesSessionsWithoutModel pins that recommend says when the
// sessions record no model and it priced them as one they do not name. The
// 15 ToolBench answers record none: recommend priced and timed them as the
// default scenario's claude-sonnet-4.5 and said only "model
// claude-sonnet-4.5" in its header, as if the traces had named it (the
// note on other models counted sessions without one only beside sessions
// with another). The tau-bench import, whose sessions record gpt-4o (the
// model recommend then prices), gets no such note.
func TestRecommendNotesSessionsWithoutModel(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the shared sessions (-short)")
	}
	tb := toolbenchAnswers(t)
	tests := []struct {
		name     string
		req      importers.Request
		wantNote string
	}{
		{"toolbench", importers.Request{Format: "toolbench", Inputs: tb},
			"15 of 15 sessions record no model: the rules and the validation price and time them as claude-sonnet-4.5"},
		{"tau-bench", importers.Request{Format: "tau-bench", Inputs: []string{shareddata.Path(t, "sessions", "tau-bench", "historical_trajectories", "gpt-4o-airline.json")}}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			list, errs := recommendNotes(t, tc.req, "--allow-unresolved")
			notes := strings.Join(list, "\n")
			if tc.wantNote == "" {
				if strings.Contains(notes, "no model") || strings.Contains(errs, "no model") {
					t.Errorf("sessions that record their model noted as without one:\n%s\n%s", notes, errs)
				}
				return
			}
			if !strings.Contains(notes, tc.wantNote) || !strings.Contains(errs, "warning: "+tc.wantNote) {
				t.Errorf("notes:\n%s\nstderr:\n%s\nwant both to say %q", notes, errs, tc.wantNote)
			}
		})
	}
}

// toolbenchAnswers returns the shared ToolBench answer files, the 15
// sessions that record no model (skipping when the shared data is absent).
func toolbenchAnswers(t *testing.T) []string {
	t.Helper()
	tb, err := filepath.Glob(filepath.Join(shareddata.Path(t, "sessions", "toolbench"), "data_example", "answer", "*", "*.json"))
	if err != nil || len(tb) == 0 {
		t.Fatalf("no ToolBench answers (%v)", err)
	}
	return tb
}

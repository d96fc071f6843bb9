package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/traces/importers"
)

// TestRecommendNotesInexactSchemas pins that recommend says when its
// tokens rest on schemas the import marked approximate or missing, as
// run's resolution table does ("schema not exact"). On the 22 SWE-agent
// trajectories, 226 of 231 calls use such tools — bash, the most called,
// has no schema at all and was priced as the 20-token stand-in — and
// recommend printed its per-tool tokens, lists and budget without a word
// on it. The tau-bench import, whose schemas are exact, gets no such note.
func TestRecommendNotesInexactSchemas(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the shared sessions (-short)")
	}
	tests := []struct {
		name     string
		req      importers.Request
		args     []string
		wantNote string
	}{
		{"swe-agent", importers.Request{Format: "swe-agent", Inputs: sharedTrajectories(t)}, []string{"--allow-unresolved"},
			`226 of 231 tool calls (97.8%) use tools whose schema the import marked approximate (149) or missing (77, priced as the stand-in {"type":"object"}): swe-agent/bash (schema missing, 77 calls)`},
		{"tau-bench", importers.Request{Format: "tau-bench", Inputs: []string{shareddata.Path(t, "sessions", "tau-bench", "historical_trajectories", "gpt-4o-airline.json")}}, nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			notes, _ := recommendNotes(t, tc.req, tc.args...)
			var got []string
			for _, n := range notes {
				if strings.Contains(n, "use tools whose schema the import marked") {
					got = append(got, n)
				}
			}
			switch {
			case tc.wantNote == "" && len(got) > 0:
				t.Errorf("exact schemas noted as inexact: %q", got)
			case tc.wantNote != "" && (len(got) != 1 || !strings.Contains(got[0], tc.wantNote) || !strings.Contains(got[0], "are approximate")):
				t.Errorf("notes %q\nwant one containing %q", notes, tc.wantNote)
			}
		})
	}
}

// recommendNotes imports req into a temporary trace, runs recommend on it
// with --format json and args, and returns its notes and stderr.
func recommendNotes(t *testing.T, req importers.Request, args ...string) (notes []string, stderr string) {
	t.Helper()
	req.Out = filepath.Join(t.TempDir(), "trace.jsonl.gz")
	if _, err := importers.Run(req); err != nil {
		t.Fatal(err)
	}
	out, errs, code := cliRun(t, append([]string{"recommend", req.Out, "--format", "json", "--bootstrap", "-1"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	var doc struct {
		Notes []string `json:"notes"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Notes, errs
}

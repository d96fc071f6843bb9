package importers_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/traces/importers"
)

// TestImportStopsAtTheSameSessionTwice pins that an import whose inputs
// give the same session twice (the same id, event for event: a file given
// twice, a copy of it under another name) stops naming the id and both
// inputs, and writes nothing; before, the repeat was renamed id#2 and the
// trace held every session twice, exit 0, which no later run could tell.
// Sessions that only share an id (chat.jsonl's two c1) are still renamed
// (TestRunGolden).
func TestImportStopsAtTheSameSessionTwice(t *testing.T) {
	tau := shareddata.Path(t, "sessions", "tau-bench", "historical_trajectories", "gpt-4o-airline.json")
	tau2 := shareddata.Path(t, "sessions", "tau2-bench", "data", "simulations",
		"2025-08-10T02:44:06.496849_telecom_llm_agent_gpt-4o_user_simulator_gpt-4o.json")
	toolbench := shareddata.Path(t, "sessions", "toolbench", "data_example", "answer", "G1_answer", "10_ChatGPT_DFS_woFilter_w2.json")
	chat := filepath.Join("testdata", "chat.jsonl")
	dir := t.TempDir()
	copied := filepath.Join(dir, "copy.json")
	raw, err := os.ReadFile(tau2)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(copied, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, format string
		inputs       []string
		id, cause    string
	}{
		{"tau-bench given twice", "tau-bench", []string{tau, tau}, "gpt-4o-airline/task-0/trial-0", "an input given twice"},
		{"toolbench given twice", "toolbench", []string{toolbench, toolbench}, "G1_answer/10_ChatGPT_DFS_woFilter_w2", "an input given twice"},
		{"openai-messages given twice", "openai-messages", []string{chat, chat}, "c1", "an input given twice"},
		{"tau2 and a copy under another name", "tau2", []string{tau2, copied}, "ed931b77-75ae-4289-8aab-9ee521d35703", "a copy of one"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out.jsonl.gz")
			_, err := importers.Run(importers.Request{Format: tt.format, Inputs: tt.inputs, Out: out})
			want := `session "` + tt.id + `" from ` + tt.inputs[1] + " repeats the session of that id from " + tt.inputs[0] + ", event for event"
			if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), tt.cause) {
				t.Fatalf("err = %v\nwant it to say\n%s (%s?)", err, want, tt.cause)
			}
			for _, p := range []string{out, out + ".catalog"} {
				if _, err := os.Stat(p); !os.IsNotExist(err) {
					t.Errorf("%s written by a failed import (stat: %v)", p, err)
				}
			}
		})
	}
}

package importers_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/traces/importers"
	"github.com/defersim/defersim/traces/importers/ingest"
)

// TestImportReportListsModels pins that an import's report lists the models
// of the sessions it wrote — as recorded, or --model's when given — with
// their session counts, in the text and JSON report alike; it used to list
// none.
func TestImportReportListsModels(t *testing.T) {
	for _, tc := range []struct {
		name  string
		model string // --model
		want  []ingest.ModelSessions
		text  string
	}{
		{"as recorded", "", []ingest.ModelSessions{{Model: "", Sessions: 2}, {Model: "recorded-model", Sessions: 1}},
			"models (model: sessions):\n  (none recorded)  2\n  recorded-model   1\n"},
		{"--model", "given-model", []ingest.ModelSessions{{Model: "given-model", Sessions: 3}},
			"models (model: sessions):\n  given-model  3\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := importers.Run(importers.Request{
				Format: "openai-messages", Inputs: []string{filepath.Join("testdata", "chat.jsonl")},
				Out: filepath.Join(t.TempDir(), "chat.jsonl"), Model: tc.model,
			})
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, rep.Models); d != "" {
				t.Errorf("models (-want +got):\n%s", d)
			}
			var b bytes.Buffer
			if err := rep.WriteText(&b); err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(b.Bytes(), []byte(tc.text)) {
				t.Errorf("text report lacks %q:\n%s", tc.text, b.String())
			}
		})
	}
}

// TestSharedTau2ToolOrchestraModel pins, on the shared tau2 leaderboard
// file named "gpt-5", that the import report names the model the file
// records for its sessions (info.agent_info.llm: gpt-4.1-mini), which a
// user otherwise learned only from run's recorded-model note.
func TestSharedTau2ToolOrchestraModel(t *testing.T) {
	src := shareddata.Path(t, "sessions", "tau2-bench", "web", "leaderboard", "public", "submissions",
		"toolorchestra_nvidia_2025-12-02", "trajectories", "toolorchestra_airline_gpt-5_1trial.json")
	var run struct {
		Info struct {
			AgentInfo struct {
				LLM string `json:"llm"`
			} `json:"agent_info"`
		} `json:"info"`
		Simulations []struct{} `json:"simulations"`
	}
	readJSON(t, src, &run)
	rep, err := importers.Run(importers.Request{Format: "tau2", Inputs: []string{src}, Out: filepath.Join(t.TempDir(), "t.jsonl")})
	if err != nil {
		t.Fatal(err)
	}
	want := []ingest.ModelSessions{{Model: run.Info.AgentInfo.LLM, Sessions: len(run.Simulations)}}
	if d := cmp.Diff(want, rep.Models); d != "" {
		t.Errorf("models (-source +report):\n%s", d)
	}
	if m := run.Info.AgentInfo.LLM; !strings.HasPrefix(m, "gpt-4.1-mini") {
		t.Errorf("the file records %q; this test was written for gpt-4.1-mini", m)
	}
}

package tau2

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers/ingest"
	"github.com/defersim/defersim/traces/importers/internal/importtest"
)

var update = flag.Bool("update", false, "rewrite golden files")

// testdata/shop-run.json is hand-built in the tau2 result shape (a made-up
// "shop" domain; it copies no recorded session): one timed simulation with
// agent and user-simulator usage, parallel tool calls, a failed call and a
// user-simulator tool call, and one simulation without times.
func importFixture(t *testing.T, opts *ingest.Options) (*importtest.Sink, *ingest.Report) {
	t.Helper()
	var sink importtest.Sink
	rep := ingest.NewReport(Format)
	if err := New().ImportFile(filepath.Join("testdata", "shop-run.json"), opts, &sink, rep); err != nil {
		t.Fatal(err)
	}
	return &sink, rep
}

func TestImportGolden(t *testing.T) {
	sink, rep := importFixture(t, &ingest.Options{})
	trace := importtest.Encode(t, sink.Sessions)
	importtest.Validate(t, trace)
	importtest.Golden(t, *update, filepath.Join("testdata", "shop-run.golden.jsonl"), trace)
	importtest.Golden(t, *update, filepath.Join("testdata", "shop-run.report.golden.json"), importtest.ReportJSON(t, rep))
}

func TestMapping(t *testing.T) {
	sink, rep := importFixture(t, &ingest.Options{})
	if len(sink.Sessions) != 2 {
		t.Fatalf("sessions = %d", len(sink.Sessions))
	}
	s := sink.Sessions[0]
	if s.Domain != "shop" || s.DefaultServer != "tau2-shop" || len(s.Schemas) != 1 || len(s.Schemas[0].Tools) != 2 {
		t.Errorf("domain %q server %q schemas %v", s.Domain, s.DefaultServer, s.Schemas)
	}
	var reqs []traces.Event
	var calls []traces.Event
	for _, ev := range s.Events {
		switch ev.Type {
		case traces.ModelRequest:
			reqs = append(reqs, ev)
		case traces.ToolCall:
			calls = append(calls, ev)
		}
	}
	// Agent requests: 4 assistant messages with usage (the greeting is not one).
	if len(reqs) != 4 {
		t.Fatalf("model requests = %d, want 4", len(reqs))
	}
	first := reqs[0]
	wantStart := time.Date(2025, 3, 1, 10, 0, 2, 0, time.UTC)
	if !first.T.Equal(wantStart) || first.DurationMs != 1500 || *first.Usage != (traces.Usage{Input: 1200, Output: 40}) {
		t.Errorf("first request = t %s, %d ms, usage %+v; want start at the user message, 1500 ms, 1200 in / 40 out",
			first.T, first.DurationMs, *first.Usage)
	}
	// Parallel calls run one after the other: c1 from 3.5 s to 3.7 s, c2 from 3.7 s to 4.0 s.
	if len(calls) != 3 || calls[0].DurationMs != 200 || calls[1].DurationMs != 300 ||
		calls[1].Status != traces.StatusError || calls[1].Error != "order B2 not found" {
		t.Errorf("calls = %+v", calls)
	}
	// The request after the user's own tool use starts at the user's message.
	if got := reqs[2].T; !got.Equal(time.Date(2025, 3, 1, 10, 0, 10, 0, time.UTC)) {
		t.Errorf("third request starts %s", got)
	}
	st := s.Start()
	if st.Model() != "test-model" || !strings.HasPrefix(st.SystemPrompt(), "# Shop policy") ||
		st.Meta()["system_prompt_source"] != "environment_info.policy" || st.Meta()["timing"] != ingest.TimingRecorded {
		t.Errorf("session_start = %+v", st)
	}
	if _, ok := st.Meta()["agent.llm_args.api_key"]; ok || rep.CredentialsDropped["info.agent_info.llm_args.api_key"] != 1 {
		t.Errorf("api_key not dropped and reported: meta %v, dropped %v", st.Meta(), rep.CredentialsDropped)
	}
	if rep.Unmapped["user-simulator tool calls (not agent calls)"] != 1 || rep.Unmapped["user-simulator model requests (usage not agent usage)"] != 3 {
		t.Errorf("user-simulator parts not reported: %v", rep.Unmapped)
	}
	if got := sink.Sessions[1].Start().Meta()["timing"]; got != ingest.TimingSynthetic {
		t.Errorf("untimed simulation timing = %q", got)
	}
}

func TestSystemPromptOption(t *testing.T) {
	sink, rep := importFixture(t, &ingest.Options{SystemPrompt: "given", SystemPromptSource: "p.md"})
	// The pipeline fills the given prompt; the importer must leave it empty.
	if st := sink.Sessions[0].Start(); st.SystemPrompt() != "" || st.Meta()["system_prompt_source"] != "" {
		t.Errorf("session_start = %+v", st)
	}
	for _, n := range rep.Notes {
		if strings.Contains(n, "environment_info.policy") {
			t.Errorf("note %q with --system-prompt given", n)
		}
	}
}

func TestImportErrors(t *testing.T) {
	tests := []struct{ name, data, want string }{
		{"array", `[]`, "want a tau2 results object"},
		{"no simulations", `{"info": {}}`, `no "simulations"`},
		{"bad time", `{"simulations":[{"messages":[{"role":"user","content":"x","timestamp":"yesterday"}]}]}`, "simulations[0].messages[0]: timestamp"},
		{"bad usage", `{"simulations":[{"messages":[{"role":"assistant","content":"x","usage":{"prompt_tokens":"many"}}]}]}`, "usage.prompt_tokens"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := New().Import("run.json", strings.NewReader(tt.data), &ingest.Options{}, &importtest.Sink{}, ingest.NewReport(Format))
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "run.json: ") {
				t.Fatalf("error = %v, want one naming the file and containing %q", err, tt.want)
			}
		})
	}
}

func FuzzImportTau2(f *testing.F) {
	seed, err := os.ReadFile(filepath.Join("testdata", "shop-run.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte(`{"simulations":[{"id":"a","messages":[{"role":"user","content":"hi","timestamp":"2025-01-01T00:00:01"},{"role":"assistant","content":"yo","timestamp":"2025-01-01T00:00:00"}]}]}`))
	f.Add([]byte(`{"info":{"environment_info":{"tool_defs":{"tools":[]}}},"simulations":[]}`))
	f.Add([]byte(`{"simulations":[{"messages":[{"role":"tool","id":"x","content":"late","requestor":"assistant"}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		importtest.Fuzz(t, data, func(sink ingest.Sink, rep *ingest.Report) error {
			return New().Import("fuzz.json", bytes.NewReader(data), &ingest.Options{}, sink, rep)
		})
	})
}

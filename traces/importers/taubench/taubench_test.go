package taubench

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers/ingest"
	"github.com/defersim/defersim/traces/importers/internal/importtest"
	"github.com/defersim/defersim/traces/importers/toolschema"
)

var update = flag.Bool("update", false, "rewrite golden files")

// The fixtures in testdata are hand-built in the tau-bench result shape
// (they copy no recorded session).
func TestImportFileGolden(t *testing.T) {
	var sink importtest.Sink
	rep := ingest.NewReport(Format)
	if err := New().ImportFile(filepath.Join("testdata", "test-model-airline.json"), &ingest.Options{}, &sink, rep); err != nil {
		t.Fatal(err)
	}
	trace := importtest.Encode(t, sink.Sessions)
	importtest.Validate(t, trace)
	importtest.Golden(t, *update, filepath.Join("testdata", "test-model-airline.golden.jsonl"), trace)
	importtest.Golden(t, *update, filepath.Join("testdata", "test-model-airline.report.golden.json"), importtest.ReportJSON(t, rep))

	if len(sink.Sessions) != 2 {
		t.Fatalf("sessions = %d, want 2", len(sink.Sessions))
	}
	s := sink.Sessions[0]
	if len(s.Schemas) != 1 || len(s.Schemas[0].Tools) != 2 || s.DefaultServer != "tau-bench-airline" || s.Domain != "airline" {
		t.Errorf("schemas %v, server %q, domain %q: want the 2 auto-detected tools of tau-bench-airline",
			s.Schemas, s.DefaultServer, s.Domain)
	}
	if st := s.Start(); st.Model() != "test-model" || st.SystemPrompt() == "" || st.Meta()["timing"] != ingest.TimingSynthetic {
		t.Errorf("session_start = %+v", st)
	}
}

func TestImportFileExplicitToolsSkipAutoDetect(t *testing.T) {
	var sink importtest.Sink
	rep := ingest.NewReport(Format)
	opts := &ingest.Options{}
	sets, _, err := toolschema.LoadFile(filepath.Join("testdata", "tools_airline.json"))
	if err != nil {
		t.Fatal(err)
	}
	opts.Tools = sets
	if err := New().ImportFile(filepath.Join("testdata", "test-model-airline.json"), opts, &sink, rep); err != nil {
		t.Fatal(err)
	}
	if n := len(sink.Sessions[0].Schemas); n != 0 {
		t.Errorf("session schemas = %d, want none when --tools covers the domain", n)
	}
	for _, n := range rep.Notes {
		if bytes.Contains([]byte(n), []byte("auto-detected")) {
			t.Errorf("unexpected note %q", n)
		}
	}
}

func TestCallStatusAndPairing(t *testing.T) {
	var sink importtest.Sink
	rep := ingest.NewReport(Format)
	if err := New().ImportFile(filepath.Join("testdata", "test-model-airline.json"), &ingest.Options{}, &sink, rep); err != nil {
		t.Fatal(err)
	}
	type call struct{ tool, status, result string }
	var got []call
	for _, s := range sink.Sessions {
		for _, ev := range s.Events {
			if ev.Type == traces.ToolCall {
				got = append(got, call{ev.Tool, ev.Status, ev.Result})
			}
		}
	}
	want := []call{
		{"find_booking", "ok", `{"code": "QX12", "status": "active"}`},
		{"cancel_booking", "error", "Error: booking is not refundable"},
		{"think", "ok", ""},
		{"find_booking", "ok", `{"code": "QX12"}`}, // second use of call_1 pairs with the second result
		{"find_booking", "", ""},                   // no result recorded
	}
	if len(got) != len(want) {
		t.Fatalf("calls = %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("call %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestImportErrors(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		{"not json", "hello", "want a JSON array"},
		{"syntax", "[{\"traj\": [}]", "line 1 col"},
		{"traj not array", `[{"traj": 3}]`, "[0].traj: want an array"},
		{"message not object", `[{"traj": [3]}]`, "[0].traj[0]: want a JSON object"},
		{"call without name", `[{"traj": [{"role":"assistant","tool_calls":[{"id":"x","function":{"arguments":"{}"}}]}]}]`, "tool call without a name"},
		// A run without "traj" (a file of another format, an OpenAI message
		// array) used to import as an empty session, exit status 0.
		{"run without traj", `[{"foo": 1}]`, `[0]: run without "traj"`},
		{"message array", `[{"role":"user","content":"hi"}]`, `[0]: run without "traj"`},
		{"traj null", `[{"traj": null}]`, `[0]: run without "traj"`},
		{"object without traj", `{"resourceSpans": []}`, `[0]: run without "traj"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var sink importtest.Sink
			err := New().Import("x-airline.json", bytes.NewReader([]byte(tt.data)), &ingest.Options{}, &sink, ingest.NewReport(Format))
			if err == nil || !bytes.Contains([]byte(err.Error()), []byte(tt.want)) {
				t.Fatalf("error = %v, want one containing %q", err, tt.want)
			}
			if !bytes.HasPrefix([]byte(err.Error()), []byte("x-airline.json: ")) {
				t.Errorf("error %q does not name the file", err)
			}
		})
	}
}

func FuzzImportTauBench(f *testing.F) {
	seed, err := os.ReadFile(filepath.Join("testdata", "test-model-airline.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte(`[{"task_id":1,"traj":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]}]`))
	f.Add([]byte(`{"task_id":"a","traj":[{"role":"tool","tool_call_id":"z","content":"orphan"}]}`))
	f.Add([]byte(`[{"traj":[{"role":"assistant","tool_calls":[{"id":"","function":{"name":"f","arguments":"[1,2]"}}]}]}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		importtest.Fuzz(t, data, func(sink ingest.Sink, rep *ingest.Report) error {
			return New().Import("fuzz-airline.json", bytes.NewReader(data), &ingest.Options{}, sink, rep)
		})
	})
}

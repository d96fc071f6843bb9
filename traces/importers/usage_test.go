package importers_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers"
)

// TestImportReportCountsRequestsWithoutUsage pins that the import report
// counts the model requests written without usage, in text and JSON, and
// says nothing when every request has usage. (Before, they showed only
// later, as fewer requests compared in run.fidelity.)
func TestImportReportCountsRequestsWithoutUsage(t *testing.T) {
	for _, tc := range []struct {
		name, format, input string
		want                int
		text                string
	}{
		{"chat without usage", "openai-messages", filepath.Join("testdata", "chat.jsonl"), 4,
			"model requests without usage:  4 of 4"},
		{"otel, one request without usage", "otel", filepath.Join("otel", "testdata", "export.json"), 1, "model requests without usage:  1 of "},
		{"anthropic, every request with usage", "anthropic-messages", "", 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "t.jsonl")
			if tc.input == "" {
				tc.input = filepath.Join(t.TempDir(), "pair.jsonl")
				if err := os.WriteFile(tc.input, []byte(`{"id":"c","model":"m","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"text","text":"hello"}],"usage":{"input_tokens":12,"output_tokens":3}}]}`+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			rep, err := importers.Run(importers.Request{Format: tc.format, Inputs: []string{tc.input}, Out: out})
			if err != nil {
				t.Fatal(err)
			}
			// Count them in what was written, independently of the report.
			sessions, _, err := traces.ReadAll(out)
			if err != nil {
				t.Fatal(err)
			}
			var written int
			for _, s := range sessions {
				for _, ev := range s.Events {
					if ev.Type == traces.ModelRequest && ev.Usage == nil {
						written++
					}
				}
			}
			if rep.Events[traces.ModelRequest] == 0 {
				t.Fatal("no model request imported")
			}
			if written != tc.want || rep.RequestsWithoutUsage != tc.want {
				t.Fatalf("report counts %d requests without usage, the trace holds %d, want %d", rep.RequestsWithoutUsage, written, tc.want)
			}
			js, err := json.Marshal(rep)
			if err != nil {
				t.Fatal(err)
			}
			if got := bytes.Contains(js, []byte(`"requests_without_usage":`)); got != (tc.want > 0) {
				t.Errorf("JSON report has requests_without_usage: %v, want %v", got, tc.want > 0)
			}
			var b bytes.Buffer
			if err := rep.WriteText(&b); err != nil {
				t.Fatal(err)
			}
			if tc.text != "" && !strings.Contains(b.String(), tc.text) || tc.text == "" && strings.Contains(b.String(), "without usage") {
				t.Errorf("text report, want %q:\n%s", tc.text, b.String())
			}
		})
	}
}

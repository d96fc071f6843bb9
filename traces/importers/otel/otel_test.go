package otel

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers/ingest"
	"github.com/defersim/defersim/traces/importers/internal/importtest"
)

var update = flag.Bool("update", false, "rewrite golden files")

// testdata/export.json is hand-built from the published OTLP JSON encoding
// and GenAI semantic conventions (REFERENCE §7; no recorded trace): an agent
// conversation (chat and execute_tool spans, tool definitions, messages as
// JSON strings and as structured values, a failed tool, a call never
// executed) and a second trace with no conversation id.
func TestImportGolden(t *testing.T) {
	var sink importtest.Sink
	rep := ingest.NewReport(Format)
	if err := New().ImportFile(filepath.Join("testdata", "export.json"), &ingest.Options{}, &sink, rep); err != nil {
		t.Fatal(err)
	}
	trace := importtest.Encode(t, sink.Sessions)
	importtest.Validate(t, trace)
	importtest.Golden(t, *update, filepath.Join("testdata", "export.golden.jsonl"), trace)
	importtest.Golden(t, *update, filepath.Join("testdata", "export.report.golden.json"), importtest.ReportJSON(t, rep))

	if len(sink.Sessions) != 2 || sink.Sessions[0].ID != "conv-9" || sink.Sessions[1].ID != "bbbb" {
		t.Fatalf("sessions = %d (%v)", len(sink.Sessions), ids(sink.Sessions))
	}
	byType := map[traces.EventType][]traces.Event{}
	for _, ev := range sink.Sessions[0].Events {
		byType[ev.Type] = append(byType[ev.Type], ev)
	}
	reqs := byType[traces.ModelRequest]
	// The second request's 300 < 1000 cached shows the producer reports
	// the uncached figure: the whole session is read so, also the first
	// request (TestCacheConventionPerSession).
	if len(reqs) != 3 || *reqs[0].Usage != (traces.Usage{Input: 1500, CacheRead: 1000, CacheWrite: 200, Output: 40}) ||
		reqs[0].ID != "resp_1" || reqs[0].DurationMs != 1400 {
		t.Errorf("requests = %+v", reqs)
	}
	if *reqs[1].Usage != (traces.Usage{Input: 300, CacheRead: 1000, Output: 20}) {
		t.Errorf("second request usage = %+v", *reqs[1].Usage)
	}
	users := byType[traces.UserMessage]
	if len(users) != 2 || users[0].Text != "Book a table for two." || users[1].Text != "Yes please." {
		t.Errorf("user messages = %+v", users)
	}
	calls := byType[traces.ToolCall]
	if len(calls) != 3 {
		t.Fatalf("calls = %+v", calls)
	}
	if c := calls[0]; c.Tool != "find_table" || c.Request != "resp_1" || string(c.Args) != `{"people":2}` || c.DurationMs != 400 || c.Status != traces.StatusOK {
		t.Errorf("executed call = %+v", c)
	}
	if c := calls[1]; c.Tool != "book_table" || c.Status != "" || c.Request != "s3" {
		t.Errorf("unexecuted call = %+v", c)
	}
	if c := calls[2]; c.Tool != "add_event" || c.Server != "calendar" || c.Status != traces.StatusError || c.Error != "calendar offline" {
		t.Errorf("failed call = %+v", c)
	}
	st := sink.Sessions[0].Start()
	if st.SystemPrompt() != "Be brief." || st.Model() != "test-model-2025" || st.Meta()["agent.name"] != "travel" || st.Meta()["resource.service.name"] != "travel-agent" {
		t.Errorf("session_start = %+v", st)
	}
	if len(sink.Sessions[0].Schemas) != 1 || len(sink.Sessions[0].Schemas[0].Tools) != 2 {
		t.Errorf("schemas = %+v", sink.Sessions[0].Schemas)
	}
	// Resource attributes are copied per session, so their credential is
	// dropped (and counted) once per session.
	for k, n := range map[string]int{"resource attribute deployment.api_key": 2, "chat span attribute http.request.header.authorization": 1} {
		if rep.CredentialsDropped[k] != n {
			t.Errorf("credential %q dropped %d times, want %d: %v", k, rep.CredentialsDropped[k], n, rep.CredentialsDropped)
		}
	}
}

func ids(ss []*ingest.Session) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.ID)
	}
	return out
}

func TestJSONLinesAndErrors(t *testing.T) {
	line := `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"x","spanId":"1","name":"chat m","startTimeUnixNano":"1000000000","endTimeUnixNano":"2000000000"}]}]}]}`
	tests := []struct {
		name     string
		data     string
		sessions int
		wantErr  string
	}{
		{"jsonl", line + "\n" + strings.ReplaceAll(line, `"x"`, `"y"`) + "\n", 2, ""},
		{"array", "[" + line + "," + line + "]", 1, ""},
		// Issue 18.8: these imported 0 sessions with exit 0.
		{"empty", "", 0, "empty file: not an OTLP trace export"},
		{"null", "null", 0, "not an OTLP trace export: null"},
		{"empty object", "{}", 0, `not an OTLP trace export: an empty object (no "resourceSpans")`},
		{"misspelt resourceSpans", `{"resourceSpan":[]}`, 0, `not an OTLP trace export: no "resourceSpans" key (found "resourceSpan")`},
		{"misspelt in an array", `[` + line + `,{"resource_span":[],"x":1}]`, 0, `export.json: [1]: not an OTLP trace export: no "resourceSpans" key (found "resource_span", "x")`},
		{"no spans", `{"resourceSpans":[]}`, 0, `the export holds no spans ("resourceSpans" lists none): 0 sessions to import`},
		{"bad line", line + "\n{nope\n", 0, "line 2"},
		{"bad time", `{"resourceSpans":[{"scopeSpans":[{"spans":[{"startTimeUnixNano":"soon"}]}]}]}`, 0, "spans[0]: startTimeUnixNano"},
		{"bad int", `{"resourceSpans":[{"scopeSpans":[{"spans":[{"attributes":[{"key":"k","value":{"intValue":"1.5"}}]}]}]}]}`, 0, `attribute "k"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var sink importtest.Sink
			err := New().Import("export.json", strings.NewReader(tt.data), &ingest.Options{}, &sink, ingest.NewReport(Format))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.HasPrefix(err.Error(), "export.json: ") {
					t.Fatalf("error = %v, want one naming the file and containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(sink.Sessions) != tt.sessions {
				t.Errorf("sessions = %d, want %d", len(sink.Sessions), tt.sessions)
			}
		})
	}
}

func FuzzImportOTel(f *testing.F) {
	seed, err := os.ReadFile(filepath.Join("testdata", "export.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	// A malformed JSON Lines export between good ones, with leading blanks
	// and CRLF ends: its error names the line and the column in it.
	f.Add([]byte("{\"resourceSpans\":[]}\r\n  {\"resourceSpans\":[{\r\n{\"resourceSpans\":[]}\r\n"))
	f.Add([]byte(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"name":"execute_tool","startTimeUnixNano":5,"endTimeUnixNano":1},{"name":"chat","attributes":[{"key":"gen_ai.output.messages","value":{"stringValue":"[{\"parts\":[{\"type\":\"tool_call\",\"name\":\"f\"}]}]"}}]}]}]}]}`))
	f.Add([]byte(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"name":"chat","attributes":[{"key":"gen_ai.usage.input_tokens","value":{"intValue":"-5"}},{"key":"gen_ai.tool.definitions","value":{"stringValue":"[{}]"}}]}]}]}]}`))
	f.Add([]byte("{}\n[]\n"))
	f.Add([]byte(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"name":"execute_tool route","attributes":[{"key":"gen_ai.tool.call.arguments","value":{"stringValue":"{\"query\":\"q\"}"}},{"key":"gen_ai.tool.call.result","value":{"stringValue":"a__b"}}]},{"name":"execute_tool execute-tool","attributes":[{"key":"gen_ai.tool.call.arguments","value":{"stringValue":"{\"tool_name\":\"b\",\"server_name\":\"a\"}"}},{"key":"gen_ai.tool.call.result","value":{"stringValue":"{\"isError\":true}"}}]}]}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		importtest.Fuzz(t, data, func(sink ingest.Sink, rep *ingest.Report) error {
			return New().Import("fuzz.json", bytes.NewReader(data), &ingest.Options{Gateway: ingest.Gateway{SearchTools: []string{"route"}, ExecuteTools: []string{"execute-tool"}}}, sink, rep)
		})
	})
}

// TestGatewayMetaTools pins the mapping of gateway meta-tools in OTel spans:
// an execute_tool span of the search tool becomes a search with its query
// and result text; one of the execute tool named by a chat output first, a
// call of the tool and server its arguments name; a result carrying an MCP
// isError marks the call failed.
func TestGatewayMetaTools(t *testing.T) {
	attr := func(k, v string) string {
		return `{"key":"` + k + `","value":{"stringValue":` + strconv.Quote(v) + `}}`
	}
	span := func(name, start string, attrs ...string) string {
		return `{"traceId":"t","spanId":"` + start + `","name":"` + name + `","startTimeUnixNano":"` + start +
			`","endTimeUnixNano":"` + start + `5","attributes":[` + strings.Join(attrs, ",") + `]}`
	}
	data := `{"resourceSpans":[{"scopeSpans":[{"spans":[` + strings.Join([]string{
		span("execute_tool route", "100", attr("gen_ai.tool.call.arguments", `{"query":"calendar"}`),
			attr("gen_ai.tool.call.result", `{"tools":[{"name":"create_event"}]}`)),
		span("chat m", "200", attr("gen_ai.output.messages",
			`[{"role":"assistant","parts":[{"type":"tool_call","id":"x","name":"execute-tool","arguments":{"server":"calendar","tool":"create_event","arguments":{"title":"t"}}}]}]`)),
		span("execute_tool execute-tool", "300", attr("gen_ai.tool.call.id", "x"),
			attr("gen_ai.tool.call.result", `{"content":[{"type":"text","text":"busy"}],"isError":true}`)),
	}, ",") + `]}]}]}`
	var sink importtest.Sink
	rep := ingest.NewReport(Format)
	opts := &ingest.Options{Gateway: ingest.Gateway{SearchTools: []string{"route"}, ExecuteTools: []string{"execute-tool"}}}
	if err := New().Import("g.json", strings.NewReader(data), opts, &sink, rep); err != nil {
		t.Fatal(err)
	}
	want := []string{`search calendar -> {"tools":[{"name":"create_event"}]}`, `call calendar/create_event {"title":"t"} error`}
	if d := cmp.Diff(want, importtest.Calls(sink.Sessions[0])); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if rep.ErrorResults["result content (isError, is_error or a non-empty error member)"] != 1 {
		t.Errorf("error results = %v", rep.ErrorResults)
	}
}

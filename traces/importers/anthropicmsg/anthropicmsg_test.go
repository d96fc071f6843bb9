package anthropicmsg

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers/ingest"
	"github.com/defersim/defersim/traces/importers/internal/importtest"
)

var update = flag.Bool("update", false, "rewrite golden files")

// testdata/conversations.jsonl is hand-built from the published Anthropic
// Messages format (no recorded session): a conversation object with cached
// system blocks, a deferred tool, a server-side tool search, an MCP server
// with a credential, usage with cache reads and writes; and a bare message
// array with MCP connector blocks.
func TestImportGolden(t *testing.T) {
	var sink importtest.Sink
	rep := ingest.NewReport(Format)
	if err := New().ImportFile(filepath.Join("testdata", "conversations.jsonl"), &ingest.Options{}, &sink, rep); err != nil {
		t.Fatal(err)
	}
	trace := importtest.Encode(t, sink.Sessions)
	importtest.Validate(t, trace)
	importtest.Golden(t, *update, filepath.Join("testdata", "conversations.golden.jsonl"), trace)
	importtest.Golden(t, *update, filepath.Join("testdata", "conversations.report.golden.json"), importtest.ReportJSON(t, rep))

	s := sink.Sessions[0]
	st := s.Start()
	if st.SystemPrompt() != "You answer travel questions." || st.RecordedStrategy() != "defer_loading" ||
		len(st.Servers()) != 1 || st.Servers()[0].Name != "docs" {
		t.Errorf("session_start = %+v", st)
	}
	if rep.CredentialsDropped["mcp_servers[].authorization_token"] != 1 {
		t.Errorf("credentials dropped = %v", rep.CredentialsDropped)
	}
	byType := map[traces.EventType][]traces.Event{}
	for _, ev := range s.Events {
		byType[ev.Type] = append(byType[ev.Type], ev)
	}
	if d := byType[traces.DeferralChange]; len(d) != 1 || strings.Join(d[0].Added(), ",") != "search_docs" {
		t.Errorf("deferral changes = %+v", d)
	}
	if q := byType[traces.ToolSearch]; len(q) != 1 || q[0].Query() != "billing" || strings.Join(q[0].Returned(), ",") != "search_docs" {
		t.Errorf("tool searches = %+v", q)
	}
	reqs := byType[traces.ModelRequest]
	if len(reqs) != 3 || *reqs[0].Usage != (traces.Usage{Input: 50, CacheWrite: 1200, Output: 40}) ||
		*reqs[1].Usage != (traces.Usage{Input: 30, CacheRead: 1200, Output: 25}) || reqs[0].ID != "msg_1" || reqs[0].DurationMs != 3000 {
		t.Errorf("requests = %+v", reqs)
	}
	calls := byType[traces.ToolCall]
	if len(calls) != 2 || calls[1].Status != traces.StatusError || calls[1].Error != "index unavailable" || calls[0].DurationMs != 1000 {
		t.Errorf("calls = %+v", calls)
	}
	for _, ev := range sink.Sessions[1].Events {
		if ev.Type == traces.ToolCall && ev.CallID == "m1" && (ev.Server != "docs" || ev.Result != "p1, p2") {
			t.Errorf("MCP connector call = %+v", ev)
		}
	}
}

func FuzzImportAnthropicMessages(f *testing.F) {
	seed, err := os.ReadFile(filepath.Join("testdata", "conversations.jsonl"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte(`{"messages":[{"role":"assistant","content":[{"type":"tool_use","name":"ToolSearch","input":{}}]},{"role":"user","content":[{"type":"tool_result","content":{"error_code":"x"}}]}]}`))
	f.Add([]byte(`[{"role":"assistant","usage":{"input_tokens":-1},"content":"x"}]`))
	f.Add([]byte(`{"tools":[{"name":"a","defer_loading":true}],"messages":[]}`))
	// A malformed line between good ones, with leading blanks and CRLF
	// ends: its error names the line and the column in it.
	f.Add([]byte("{\"messages\":[]}\r\n  {\"messages\":[{\"role\"\r\n{\"messages\":[]}\r\n"))
	f.Add([]byte(`{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"s","name":"mcp__gw__route","input":{"query":"x"}},{"type":"tool_use","id":"e","name":"execute-tool","input":{"tool":"b__c","args":{}}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"s","content":[{"type":"text","text":"{\"tools\":[\"c\"]}"}]},{"type":"tool_result","tool_use_id":"e","content":"{\"error\":\"no\"}"}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		// Half the inputs (by length) are read with --skip-bad.
		importtest.Fuzz(t, data, func(sink ingest.Sink, rep *ingest.Report) error {
			return New().Import("fuzz.jsonl", bytes.NewReader(data), &ingest.Options{Gateway: ingest.Gateway{SearchTools: []string{"route"}, ExecuteTools: []string{"execute-tool"}},
				SkipBad: len(data)%2 == 0}, sink, rep)
		})
	})
}

// TestGatewayMetaTools pins the mapping of gateway meta-tools in Anthropic
// content: an MCP-qualified search tool becomes a search with its query and
// its text result kept, an execute tool a call of the tool and server its
// input names, failed by the MCP result it passes on.
func TestGatewayMetaTools(t *testing.T) {
	data := `{"id":"g","messages":[
{"role":"user","content":"go"},
{"role":"assistant","content":[{"type":"tool_use","id":"s","name":"mcp__gw__route","input":{"query":"open issues"}}]},
{"role":"user","content":[{"type":"tool_result","tool_use_id":"s","content":[{"type":"text","text":"issues/list_issues"}]}]},
{"role":"assistant","content":[{"type":"tool_use","id":"x","name":"mcp__gw__execute-tool","input":{"server_name":"issues","tool_name":"list_issues","params":{"state":"open"}}}]},
{"role":"user","content":[{"type":"tool_result","tool_use_id":"x","content":"{\"isError\":true,\"content\":[]}"}]}]}`
	var sink importtest.Sink
	rep := ingest.NewReport(Format)
	opts := &ingest.Options{Gateway: ingest.Gateway{SearchTools: []string{"route"}, ExecuteTools: []string{"execute-tool"}}}
	if err := New().Import("g.json", strings.NewReader(strings.ReplaceAll(data, "\n", "")), opts, &sink, rep); err != nil {
		t.Fatal(err)
	}
	want := []string{"search open issues -> issues/list_issues", `call issues/list_issues {"state":"open"} error`}
	if d := cmp.Diff(want, importtest.Calls(sink.Sessions[0])); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if rep.Gateway["gateway search call → tool_search"] != 1 || rep.Gateway["gateway execute call → call of the named tool"] != 1 {
		t.Errorf("gateway counts = %v", rep.Gateway)
	}
}

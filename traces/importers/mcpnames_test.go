package importers_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers"
	"github.com/defersim/defersim/traces/importers/toolschema"
)

// TestMCPNamedDefinitionsJoinTheirServer pins that a tool defined as
// mcp__<server>__<tool> (the sessions' own tools or a --tools file) is
// written to <server>'s catalog as <tool>, where the calls of that name go:
// it used to stay on the format's default server under its prefixed name,
// so every call of it was reported without a schema and `run` stopped on an
// unknown server although the log defined the tool.
func TestMCPNamedDefinitionsJoinTheirServer(t *testing.T) {
	obj := `{"type":"object","properties":{"q":{"type":"string"}}}`
	anthropicTools := `[{"name":"mcp__github__search_issues","description":"Search issues","input_schema":` + obj + `},` +
		`{"name":"lookup","input_schema":` + obj + `}]`
	anthropicMsgs := `[{"role":"user","content":"go"},` +
		`{"role":"assistant","id":"m1","content":[{"type":"tool_use","id":"t1","name":"mcp__github__search_issues","input":{"q":"crash"}},` +
		`{"type":"tool_use","id":"t2","name":"lookup","input":{"q":"x"}}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"2"},{"type":"tool_result","tool_use_id":"t2","content":"y"}]}]`
	openaiTools := `[{"type":"function","function":{"name":"mcp__github__search_issues","description":"Search issues","parameters":` + obj + `}},` +
		`{"type":"function","function":{"name":"lookup","parameters":` + obj + `}}]`
	openaiMsgs := `[{"role":"user","content":"go"},{"role":"assistant","tool_calls":[` +
		`{"id":"c1","type":"function","function":{"name":"mcp__github__search_issues","arguments":"{\"q\":\"crash\"}"}},` +
		`{"id":"c2","type":"function","function":{"name":"lookup","arguments":"{}"}}]},` +
		`{"role":"tool","tool_call_id":"c1","content":"2"},{"role":"tool","tool_call_id":"c2","content":"y"}]`
	tests := []struct {
		name, format, conv, tools string
		def                       string // the format's default server
	}{
		{"anthropic-messages, own tools", "anthropic-messages",
			`{"id":"s1","model":"m","tools":` + anthropicTools + `,"messages":` + anthropicMsgs + `}`, "", "anthropic-messages"},
		{"anthropic-messages, --tools file", "anthropic-messages",
			`{"id":"s1","model":"m","messages":` + anthropicMsgs + `}`, anthropicTools, "anthropic-messages"},
		{"openai-messages, own tools", "openai-messages",
			`{"id":"s1","model":"m","tools":` + openaiTools + `,"messages":` + openaiMsgs + `}`, "", "openai-messages"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			in := filepath.Join(dir, "conv.json")
			if err := os.WriteFile(in, []byte(tc.conv), 0o644); err != nil {
				t.Fatal(err)
			}
			req := importers.Request{Format: tc.format, Inputs: []string{in}, Out: filepath.Join(dir, "out.jsonl")}
			if tc.tools != "" {
				tf := filepath.Join(dir, "tools.json")
				if err := os.WriteFile(tf, []byte(tc.tools), 0o644); err != nil {
					t.Fatal(err)
				}
				req.ToolFiles = []string{tf}
			}
			rep, err := importers.Run(req)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.MissingSchemas) != 0 {
				t.Errorf("calls without a schema: %+v, want none (the log defines both tools)", rep.MissingSchemas)
			}
			got := map[string][]string{}
			for _, cf := range rep.Catalog {
				data, err := os.ReadFile(filepath.Join(rep.CatalogDir, cf.File))
				if err != nil {
					t.Fatal(err)
				}
				sets, _, err := toolschema.Parse(cf.File, data)
				if err != nil {
					t.Fatal(err)
				}
				for _, tl := range sets[0].Tools {
					got[cf.Server] = append(got[cf.Server], tl.Name)
				}
			}
			want := map[string][]string{"github": {"search_issues"}, tc.def: {"lookup"}}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("catalog servers and tools (-want +got):\n%s", d)
			}
			sessions, _, err := traces.ReadAll(req.Out)
			if err != nil || len(sessions) != 1 {
				t.Fatalf("read trace: %d sessions, %v", len(sessions), err)
			}
			var calls, servers []string
			for _, ev := range sessions[0].Events {
				switch ev.Type {
				case traces.SessionStart:
					for _, s := range ev.Servers() {
						servers = append(servers, s.Name+"@"+s.Version)
					}
				case traces.ToolCall:
					calls = append(calls, ev.Server+"/"+ev.Tool)
				}
			}
			if want := []string{"github/search_issues", tc.def + "/lookup"}; !slices.Equal(calls, want) {
				t.Errorf("calls = %v, want %v", calls, want)
			}
			for _, s := range servers {
				if strings.HasSuffix(s, "@") {
					t.Errorf("session server %s has no catalog version: %v", s, servers)
				}
			}
		})
	}
}

// TestToolReferencesAsCatalogNames pins that a search's tool_reference to
// mcp__<server>__<tool> (Claude Code's ToolSearch) is recorded in returned
// as <tool>, the name the catalog lists: it used to keep the prefix, which
// trace v1 does not allow, so `trace validate` reported a freshly imported
// trace invalid (exit 1) and `run` counted the search's tools as unknown.
func TestToolReferencesAsCatalogNames(t *testing.T) {
	dir := t.TempDir()
	line := func(s string) string { return s + "\n" }
	session := line(`{"type":"user","sessionId":"s1","uuid":"u1","timestamp":"2025-09-10T09:00:00Z","message":{"role":"user","content":"find crash issues"}}`) +
		line(`{"type":"assistant","sessionId":"s1","uuid":"m1","timestamp":"2025-09-10T09:00:01Z","requestId":"r1","message":{"id":"msg_1","role":"assistant","model":"m",`+
			`"content":[{"type":"tool_use","id":"t1","name":"ToolSearch","input":{"query":"issues"}}],"usage":{"input_tokens":3,"output_tokens":9}}}`) +
		line(`{"type":"user","sessionId":"s1","uuid":"u2","timestamp":"2025-09-10T09:00:02Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1",`+
			`"content":[{"type":"tool_reference","tool_name":"mcp__github__search_issues"},{"type":"tool_reference","tool_name":"Read"}]}]}}`)
	in := filepath.Join(dir, "session.jsonl")
	cats := filepath.Join(dir, "cats")
	if err := os.MkdirAll(cats, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		in:                                   session,
		filepath.Join(cats, "github@1.json"): `{"tools":[{"name":"search_issues","inputSchema":{"type":"object"}}]}`,
	} {
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "out.jsonl")
	if _, err := importers.Run(importers.Request{Format: "claude-code", Inputs: []string{in}, Out: out, ToolFiles: []string{cats}}); err != nil {
		t.Fatal(err)
	}
	sessions, _, err := traces.ReadAll(out)
	if err != nil || len(sessions) != 1 {
		t.Fatalf("read trace: %d sessions, %v", len(sessions), err)
	}
	var returned []string
	for _, ev := range sessions[0].Events {
		if ev.Type == traces.ToolSearch {
			returned = append(returned, ev.Returned()...)
		}
	}
	if want := []string{"search_issues", "Read"}; !slices.Equal(returned, want) {
		t.Errorf("returned = %v, want %v", returned, want)
	}
}

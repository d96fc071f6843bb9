package importers_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers"
	"github.com/defersim/defersim/traces/importers/ingest"
)

// TestServerAttribution pins how a call that names no server gets one: the
// only server whose catalog serves the name, a server__tool name whose
// server serves the tool (or is connected without a schema), and never a
// guess between several servers (reported, kept on the default server).
func TestServerAttribution(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tool := func(names ...string) string {
		s := `{"tools":[`
		for i, n := range names {
			if i > 0 {
				s += ","
			}
			s += `{"name":"` + n + `","inputSchema":{"type":"object"}}`
		}
		return s + "]}"
	}
	files := []string{
		write("issues@1.0.0.json", tool("search", "close_issue", "x__y")),
		write("notes@1.0.0.json", tool("search", "get_note")),
		write("x@1.0.0.json", tool("y")),
	}
	calls := func(names ...string) string {
		s := `{"id":"s","mcp_servers":[{"type":"url","name":"wiki"}],"tools":[{"name":"own_tool","input_schema":{"type":"object"}}],"messages":[{"role":"assistant","content":[`
		for i, n := range names {
			if i > 0 {
				s += ","
			}
			s += `{"type":"tool_use","id":"c` + n + `","name":"` + n + `","input":{}}`
		}
		return s + "]}]}\n"
	}
	in := write("conv.jsonl", calls("search", "get_note", "notes__get_note", "x__y", "wiki__page", "own_tool", "nowhere", "mcp__issues__close_issue"))
	out := filepath.Join(dir, "out.jsonl")
	rep, err := importers.Run(importers.Request{Format: "anthropic-messages", Inputs: []string{in}, Out: out, ToolFiles: files})
	if err != nil {
		t.Fatal(err)
	}
	sessions, _, err := traces.ReadAll(out)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][2]string{}
	for _, ev := range sessions[0].Events {
		if ev.Type == traces.ToolCall {
			got[ev.CallID] = [2]string{ev.Server, ev.Tool}
		}
	}
	want := map[string][2]string{
		"csearch":                   {"anthropic-messages", "search"}, // issues and notes serve it
		"cget_note":                 {"notes", "get_note"},
		"cnotes__get_note":          {"notes", "get_note"},
		"cx__y":                     {"anthropic-messages", "x__y"}, // issues serves x__y, x serves y
		"cwiki__page":               {"wiki", "page"},               // connected, no schema
		"cown_tool":                 {"anthropic-messages", "own_tool"},
		"cnowhere":                  {"anthropic-messages", "nowhere"},
		"cmcp__issues__close_issue": {"issues", "close_issue"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("servers (-want +got):\n%s", d)
	}
	wantAmb := []ingest.AmbiguousTool{
		{Tool: "search", Servers: []string{"issues", "notes"}, Calls: 1},
		{Tool: "x__y", Servers: []string{"issues", "x"}, Calls: 1},
	}
	if d := cmp.Diff(wantAmb, rep.Ambiguous); d != "" {
		t.Errorf("ambiguous (-want +got):\n%s", d)
	}
	wantHow := map[string]int{
		"ambiguous: several servers serve the tool (kept on the default server)": 2,
		"the only server whose catalog serves the tool":                          2,
		"server__tool name": 2,
		"format default server (no catalog serves the tool)":                               1,
		"named by the source (mcp__ prefix, server field, gateway arguments, format rule)": 1,
	}
	if d := cmp.Diff(wantHow, rep.Servers); d != "" {
		t.Errorf("attribution counts (-want +got):\n%s", d)
	}
}

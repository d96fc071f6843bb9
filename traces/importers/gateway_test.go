package importers_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers"
	"github.com/defersim/defersim/traces/importers/ingest"
	"github.com/defersim/defersim/traces/importers/internal/importtest"
)

// testdata/gateway is hand-written for these tests: sessions.jsonl holds two
// OpenAI-format conversations recorded through an MCP gateway whose only
// tools are a search meta-tool "route" (results as qualified text, as JSON
// and as bare text, one finding nothing) and an execute meta-tool
// "execute-tool" (naming server and tool with params, with the alternative
// fields server/tool/arguments and string-encoded arguments, and without a
// server), plus direct calls attributed by a server field and by a
// server__tool name; catalog/ holds the three servers' tools/list results.
func gatewayRequest(out string) importers.Request {
	return importers.Request{
		Format:    "openai-messages",
		Inputs:    []string{filepath.Join("testdata", "gateway", "sessions.jsonl")},
		Out:       out,
		ToolFiles: []string{filepath.Join("testdata", "gateway", "catalog")},
		Gateway:   ingest.Gateway{SearchTools: []string{"route"}, ExecuteTools: []string{"execute-tool"}},
	}
}

func TestGatewayGolden(t *testing.T) {
	out := filepath.Join(t.TempDir(), "gateway.jsonl")
	rep, err := importers.Run(gatewayRequest(out))
	if err != nil {
		t.Fatal(err)
	}
	trace, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	importtest.Validate(t, trace)
	importtest.Golden(t, *update, filepath.Join("testdata", "gateway.golden.jsonl"), trace)
	importtest.Golden(t, *update, filepath.Join("testdata", "gateway.report.golden.json"), reportJSON(t, rep))

	sessions, _, err := traces.ReadAll(out)
	if err != nil {
		t.Fatal(err)
	}
	type search struct {
		Session, Query string
		Returned       []string
	}
	type call struct {
		Session, ID, Server, Tool, Status, Args string
	}
	var searches []search
	var calls []call
	for _, s := range sessions {
		for _, ev := range s.Events {
			switch ev.Type {
			case traces.ToolSearch:
				searches = append(searches, search{s.ID, ev.Query(), ev.Returned()})
			case traces.ToolCall:
				calls = append(calls, call{s.ID, ev.CallID, ev.Server, ev.Tool, ev.Status, string(ev.Args)})
			}
		}
	}
	wantSearches := []search{
		{"gw-1", "list issues by label", []string{"list_issues", "search_issues", "create_note"}}, // qualified text
		{"gw-1", "create a calendar event", []string{"create_event", "list_events"}},              // JSON
		{"gw-2", "notes", []string{"create_note", "append_note"}},                                 // bare text; "search" in prose not counted
		{"gw-2", "weather tomorrow", nil},                                                         // nothing found
	}
	if d := cmp.Diff(wantSearches, searches); d != "" {
		t.Errorf("tool searches (-want +got):\n%s", d)
	}
	wantCalls := []call{
		{"gw-1", "x1", "issues", "list_issues", "ok", `{"labels":["flaky"],"state":"open"}`},
		{"gw-1", "x2", "calendar", "create_event", "ok", `{"title":"Fix flaky tests","start":"2026-02-04T10:00:00Z","minutes":60}`},
		{"gw-2", "x3", "notes", "append_note", "error", `{"id":"standup","text":"Shipped the retry fix."}`}, // no server: catalog; MCP isError
		{"gw-2", "x4", "notes", "get_note", "ok", `{"id":"standup-2026"}`},                                  // server_name field
		{"gw-2", "d1", "calendar", "list_events", "ok", `{"day":"2026-02-04"}`},                             // server__tool name
	}
	if d := cmp.Diff(wantCalls, calls); d != "" {
		t.Errorf("tool calls (-want +got):\n%s", d)
	}

	// The imported catalog is found from the trace and resolves everything.
	dir, ok, err := traces.CatalogFor(out)
	if err != nil || !ok || dir != out+".catalog" {
		t.Fatalf("CatalogFor = %q, %v, %v; want %q", dir, ok, err, out+".catalog")
	}
	cat, err := catalog.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	probs, _, err := traces.Validate(out, traces.ValidateOptions{Tools: cat})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range probs {
		t.Errorf("validate with the imported catalog: %s", p)
	}
}

// TestGatewayWithoutFlags pins what the gateway shape imports as without
// --search-tool/--execute-tool: calls of the two meta-tools on the default
// server (the shape issue 15 describes), so the flags are what maps them.
func TestGatewayWithoutFlags(t *testing.T) {
	req := gatewayRequest(filepath.Join(t.TempDir(), "plain.jsonl"))
	req.Gateway = ingest.Gateway{}
	rep, err := importers.Run(req)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Events[traces.ToolSearch] != 0 || rep.Events[traces.ToolCall] != 9 {
		t.Errorf("events = %v, want 9 tool calls and no search", rep.Events)
	}
	if len(rep.Gateway) != 0 {
		t.Errorf("gateway counts without gateway flags: %v", rep.Gateway)
	}
}

func TestGatewayFlagsRefusedByOtherFormats(t *testing.T) {
	req := gatewayRequest(filepath.Join(t.TempDir(), "x.jsonl"))
	req.Format = "tau2"
	if _, err := importers.Run(req); err == nil || !bytes.Contains([]byte(err.Error()), []byte("do not apply to tau2")) {
		t.Errorf("error = %v, want the gateway options refused for tau2", err)
	}
}

package importers_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/traces/importers"
	"github.com/defersim/defersim/traces/importers/ingest"
)

// TestRecordedArgsRejectedBySchema pins that the import checks each
// recorded call's arguments against the exact schema its catalog version
// gives the tool and reports those the schema rejects, with how many the
// server accepted (status ok): a catalog directory gives a server's latest
// version, and sessions recorded on an older one (memory 2026.9.1 made
// search_nodes' limit required; the sessions never sent it) imported,
// validated and replayed with no word, every later figure priced on a
// schema the sessions did not run with (the engine takes recorded calls
// as valid). Calls the schema accepts, approximate schemas and arguments
// that are not an object are not counted.
func TestRecordedArgsRejectedBySchema(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	const search = `{"name":"search_nodes","inputSchema":{"type":"object","properties":{"query":{"type":"string"},"limit":{"type":"integer"}},"required":["query"%s]}}`
	write("cats/memory@1.0.0.json", `{"tools":[`+strings.Replace(search, "%s", "", 1)+`]}`)
	cats := filepath.Dir(write("cats/memory@2.0.0.json", `{"tools":[`+strings.Replace(search, "%s", `,"limit"`, 1)+`]}`))
	approx := write("approx.json", `{"tools":[{"name":"lookup","inputSchema":{"type":"object","required":["id"]}}]}`)
	call := func(id, name, args, result string) string {
		return `{"role":"assistant","tool_calls":[{"id":"` + id + `","type":"function","function":{"name":"` + name + `","arguments":` + args + `}}]},` +
			`{"role":"tool","tool_call_id":"` + id + `",` + result + `}`
	}
	in := write("in.jsonl", `{"id":"s1","messages":[{"role":"user","content":"find acme"},`+
		call("a", "mcp__memory__search_nodes", `"{\"query\":\"acme\"}"`, `"content":"[]"`)+","+
		call("b", "mcp__memory__search_nodes", `"{\"query\":\"acme\"}"`, `"content":"limit is required","error":true`)+","+
		call("c", "mcp__memory__search_nodes", `"{\"query\":\"acme\",\"limit\":5}"`, `"content":"[]"`)+","+
		call("d", "lookup", `"{}"`, `"content":"x"`)+","+
		call("e", "mcp__memory__search_nodes", `"not json"`, `"content":"x"`)+
		`,{"role":"assistant","content":"done"}]}`)
	rep, err := importers.Run(importers.Request{Format: "openai-messages", Inputs: []string{in}, Out: filepath.Join(dir, "t.jsonl"),
		ToolFiles: []string{cats}, ApproximateToolFiles: []string{approx}})
	if err != nil {
		t.Fatal(err)
	}
	want := []ingest.RejectedArgs{{Server: "memory", Version: "2.0.0", Tool: "search_nodes", Class: "missing_required",
		Keyword: "#/required", Calls: 2, Accepted: 1}}
	if diff := cmp.Diff(want, rep.Rejected); diff != "" {
		t.Errorf("rejected arguments (-want +got):\n%s", diff)
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"memory@2.0.0/search_nodes", "missing_required at / (#/required)", "2 calls", "1 ok",
		"the server took 1 call whose arguments the schema rejects"} {
		if !strings.Contains(text.String(), line) {
			t.Errorf("report text lacks %q:\n%s", line, text.String())
		}
	}

	// The version the sessions ran with, given as the only one, rejects none.
	rep, err = importers.Run(importers.Request{Format: "openai-messages", Inputs: []string{in}, Out: filepath.Join(dir, "t1.jsonl"),
		ToolFiles: []string{filepath.Join(cats, "memory@1.0.0.json")}, ApproximateToolFiles: []string{approx}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Rejected != nil {
		t.Errorf("with memory@1.0.0: rejected = %+v, want none", rep.Rejected)
	}
}

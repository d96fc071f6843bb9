package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/traces"
)

// TestImportConnectedDocFigures pins the figures docs/importers.md gives
// under "Connected servers" for its two one-session examples imported with
// --tools ../shared/data/catalogs: the number of server series the
// directory lists (42; the page said 40 and 39 pairs after the shared
// catalogs had grown), the (session, server) pairs the recorded list keeps
// out, and the eager input tokens of each replay (400,399 with every
// server, 1,131 with the called one or the recorded list). Each figure
// must also be the one the page states.
func TestImportConnectedDocFigures(t *testing.T) {
	cats := shareddata.Path(t, "catalogs")
	doc := docWords(t, "importers.md")
	tmp := t.TempDir()
	write := func(name, line string) string {
		p := filepath.Join(tmp, name)
		if err := os.WriteFile(p, []byte(line+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// The two inputs as the page's printf lines write them.
	anthropic := write("hello-anthropic.jsonl", `{"id":"s1","mcp_servers":[{"type":"url","name":"mcp-hello-world","url":"https://example.invalid/mcp"}],"messages":[{"role":"user","content":"say hi"},{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"mcp__mcp-hello-world__echo","input":{"message":"hi"}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"hi"}]},{"role":"assistant","content":"hi"}]}`)
	openai := write("hello.jsonl", `{"id":"s1","messages":[{"role":"user","content":"say hi"},{"role":"assistant","tool_calls":[{"id":"a","type":"function","function":{"name":"mcp__mcp-hello-world__echo","arguments":"{\"message\":\"hi\"}"}}]},{"role":"tool","tool_call_id":"a","content":"hi"},{"role":"assistant","content":"hi"}]}`)

	recordedOut, code := runCLI(t, "trace", "import", "--from", "anthropic-messages", anthropic, "--tools", cats, "-o", filepath.Join(tmp, "hello-recorded.jsonl"))
	if code != 0 {
		t.Fatalf("import exit %d:\n%s", code, recordedOut)
	}
	all := importTrace(t, tmp, "hello-all.jsonl", "--from", "openai-messages", openai, "--tools", cats)
	called := importTrace(t, tmp, "hello-called.jsonl", "--from", "openai-messages", openai, "--tools", cats, "--connected", "called")

	sessions, _, err := traces.ReadAll(all)
	if err != nil {
		t.Fatal(err)
	}
	if len(sessions) != 1 {
		t.Fatalf("%d sessions in %s, want 1", len(sessions), all)
	}
	series := len(sessions[0].Start().Servers())
	tokens := func(trace string) int64 {
		return int64(runTrace(t, trace, "--strategies", "eager").Strategies[0].Metrics["input_tokens"].Sum)
	}
	figures := []struct {
		name string
		got  int64
		doc  string // how the page states it
	}{
		{"server series under --connected all", int64(series), fmt.Sprintf("all %d server series", series)},
		{"servers --connected all used to add", int64(series), fmt.Sprintf("added all %d servers", series)},
		{"eager input tokens, --connected all", tokens(all), "sends 400,399 input tokens"},
		{"eager input tokens, --connected called", tokens(called), "alone and sends 1,131"},
		{"eager input tokens, recorded list", tokens(filepath.Join(tmp, "hello-recorded.jsonl")), "sends 1,131 input tokens, as with"},
	}
	for _, f := range figures {
		if !strings.Contains(doc, f.doc) {
			t.Errorf("%s: docs/importers.md does not say %q", f.name, f.doc)
		}
		if want := fmt.Sprint(f.got); !strings.Contains(strings.ReplaceAll(f.doc, ",", ""), want) {
			t.Errorf("%s = %d, docs/importers.md says %q", f.name, f.got, f.doc)
		}
	}
	// Every series but the one the request lists is a pair the recorded
	// list keeps out.
	pairs := fmt.Sprintf("so the %d (session, server) pairs", series-1)
	if !strings.Contains(recordedOut, pairs) || !strings.Contains(doc, pairs) {
		t.Errorf("want the import's note and docs/importers.md to say %q; the import said:\n%s", pairs, recordedOut)
	}
}

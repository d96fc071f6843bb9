package importers_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/defersim/defersim/traces/importers"
)

// TestCatalogDirSourcesNameTheFilesRead pins that the import report names
// each file a --tools DIR contributed by the file actually read: a
// manifest in DIR may take a server from a sub-directory or from outside
// DIR, and the report used to print DIR/<base name> for every one of them
// (cats/lex.json for a file read from elsewhere/lex.json). A file outside
// DIR is named by the path it was read from, relative when the user's
// --tools was relative; a file inside by DIR's name and its path in DIR.
func TestCatalogDirSourcesNameTheFilesRead(t *testing.T) {
	tools := func(names ...string) string {
		var b strings.Builder
		b.WriteString(`{"tools":[`)
		for i, n := range names {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`{"name":"` + n + `","inputSchema":{"type":"object"}}`)
		}
		return b.String() + "]}"
	}
	files := map[string]string{
		"elsewhere/lex.json":         tools("lookup"),
		"cats/captures/notes.json":   tools("note"),
		"cats/local.json":            tools("clock"),
		"chat.jsonl":                 `{"id":"c1","messages":[{"role":"user","content":"hi"},{"role":"assistant","tool_calls":[{"id":"a","type":"function","function":{"name":"lookup","arguments":"{}"}},{"id":"b","type":"function","function":{"name":"note","arguments":"{}"}},{"id":"c","type":"function","function":{"name":"clock","arguments":"{}"}}]}]}` + "\n",
		"cats/catalog.yaml":          "servers:\n  - {server: lex, version: \"1.0\", file: ../elsewhere/lex.json}\n  - {server: notes, version: \"2.0\", file: captures/notes.json}\n  - {server: clock, version: \"0.1\", file: local.json}\n",
		"cats/ignored@9.json":        tools("never"),
		"elsewhere/unrelated@1.json": tools("other"),
	}
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	rep, err := importers.Run(importers.Request{Format: "openai-messages", Inputs: []string{"chat.jsonl"},
		Out: filepath.Join("out", "t.jsonl"), ToolFiles: []string{"cats"}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"lex": "elsewhere/lex.json", "notes": "cats/captures/notes.json", "clock": "cats/local.json"}
	for _, c := range rep.Catalog {
		if w, ok := want[c.Server]; !ok || !slices.Equal(c.Sources, []string{w}) {
			t.Errorf("catalog file %s: sources %q, want [%q]", c.File, c.Sources, w)
		}
		delete(want, c.Server)
	}
	if len(want) > 0 {
		t.Errorf("servers missing from the catalog: %v", want)
	}
	for _, w := range []string{"elsewhere/lex.json: the sessions call 1 of its 1 tool",
		"cats/captures/notes.json: the sessions call 1 of its 1 tool", "cats/local.json: the sessions call 1 of its 1 tool"} {
		if !slices.Contains(rep.Notes, w) {
			t.Errorf("no note %q in %q", w, rep.Notes)
		}
	}
	for _, n := range rep.Notes {
		if strings.Contains(n, "cats/lex.json") || strings.Contains(n, "cats/notes.json") || strings.Contains(n, dir) {
			t.Errorf("note names a file that was not read, or a machine path: %q", n)
		}
	}
}

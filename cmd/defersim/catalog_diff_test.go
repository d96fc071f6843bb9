package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/catalog"
)

// TestCatalogDiffSaysWhatItCompares pins that `catalog diff` says, in its
// output (text "note:" lines, JSON "notes") and as a warning on stderr,
// when its sides are different servers, the newer version first or the
// same version; and that a missing file in a directory holding other
// versions of the server names them. Before, a diff across servers or
// backwards read as an ordinary release, and a mistyped version as
// "stat …: no such file or directory" alone.
func TestCatalogDiffSaysWhatItCompares(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"svc@1.0.json":   `{"tools":[{"name":"a","inputSchema":{"type":"object"}},{"name":"b","inputSchema":{"type":"object"}}]}`,
		"svc@1.1.json":   `{"tools":[{"name":"a","inputSchema":{"type":"object"}}]}`,
		"other@1.0.json": `{"tools":[{"name":"x","inputSchema":{"type":"object"}}]}`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := func(name string) string { return filepath.Join(dir, name) }
	for _, tc := range []struct {
		name string
		a, b string
		note string // "" for none
	}{
		{"release", "svc@1.0.json", "svc@1.1.json", ""},
		{"different servers", "svc@1.0.json", "other@1.0.json", "are different servers (svc, other)"},
		{"newer first", "svc@1.1.json", "svc@1.0.json", "svc@1.0 is older than svc@1.1"},
		{"same file", "svc@1.0.json", "svc@1.0.json", "the same version"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, code, msg := runCatalogCmd(t, "diff", p(tc.a), p(tc.b))
			if code != 0 {
				t.Fatalf("exit %d: %s", code, msg)
			}
			if n := strings.Count(out, "note: "); (tc.note == "") != (n == 0) || (tc.note != "" && !strings.Contains(out, "note: ")) {
				t.Errorf("%d note lines, want note %q:\n%s", n, tc.note, out)
			}
			if tc.note != "" && (!strings.Contains(out, tc.note) || !strings.Contains(out, "warning: ")) {
				t.Errorf("output lacks the note %q and its warning:\n%s", tc.note, out)
			}
			js, code, _ := runCatalogCmd(t, "diff", "-q", "--format", "json", p(tc.a), p(tc.b))
			var d catalog.DiffResult
			if code != 0 || json.Unmarshal([]byte(js), &d) != nil {
				t.Fatalf("--format json: exit %d, output %s", code, js)
			}
			if got := strings.Join(d.Notes, "; "); (tc.note == "") != (got == "") || !strings.Contains(got, tc.note) {
				t.Errorf("JSON notes %q, want %q", d.Notes, tc.note)
			}
		})
	}
	_, code, msg := runCatalogCmd(t, "diff", p("svc@1.0.json"), p("svc@1.2.json"))
	if code != 2 || !strings.Contains(msg, "svc@1.2.json: no such file; "+dir+" holds svc at 1.0, 1.1") {
		t.Errorf("missing version: exit %d, %q; want 2 and the versions held", code, msg)
	}
	// A missing file is offered the version or file most likely meant
	// (catalog.NearName): a misspelt server name said only "no such file".
	for _, tc := range []struct{ file, want string }{
		{"svc@1.00.json", `holds svc at 1.0, 1.1; did you mean "1.0"?`},
		{"svcc@1.0.json", `svcc@1.0.json: no such file; ` + dir + ` holds no catalog of svcc; did you mean "svc@1.0.json"?`},
		{"unrelated@1.0.json", "no such file or directory"},
	} {
		_, code, msg := runCatalogCmd(t, "diff", p("svc@1.0.json"), p(tc.file))
		if code != 2 || !strings.Contains(msg, tc.want) {
			t.Errorf("%s: exit %d, %q; want 2 and %q", tc.file, code, msg, tc.want)
		}
	}
}

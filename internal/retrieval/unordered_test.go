package retrieval

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHardSetNotesUnorderedVersions pins that a hard set over catalogs
// whose versions are content hashes (trace import names them so) took the
// last version by spelling as the server's newest without a word: the
// set's source line (results.json, report.md) now names the series and the
// version taken, and says nothing for a catalog with release versions.
func TestHardSetNotesUnorderedVersions(t *testing.T) {
	chat := map[string]string{
		"chat@0a1b2c3d4e5f.json": `{"tools":[{"name":"say","description":"Say a thing.","inputSchema":{"type":"object"}},{"name":"rooms","description":"List rooms.","inputSchema":{"type":"object"}}]}`,
		"chat@f0e1d2c3b4a5.json": `{"tools":[{"name":"say","description":"Say a thing aloud.","inputSchema":{"type":"object"}}]}`,
	}
	mail := map[string]string{
		"mail@1.0.0.json": `{"tools":[{"name":"send","description":"Send mail.","inputSchema":{"type":"object"}}]}`,
		"mail@1.1.0.json": `{"tools":[{"name":"send","description":"Send a mail.","inputSchema":{"type":"object"}}]}`,
	}
	for _, tc := range []struct {
		name  string
		files []map[string]string
		set   string
		want  string
	}{
		{"content-hash versions", []map[string]string{chat, mail},
			"name: mini\ntitle: Mini\nqueries:\n  - {id: a, q: say hi, want: [chat/say]}\n  - {id: b, q: send mail, want: [mail/send]}\n",
			"(note: the corpus takes chat@f0e1d2c3b4a5 (of 2 versions) at the last version by spelling: their versions are content hashes"},
		{"release versions", []map[string]string{mail},
			"name: m\ntitle: M\nqueries:\n  - {id: b, q: send mail, want: [mail/send]}\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, files := range tc.files {
				for name, data := range files {
					if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			set := filepath.Join(t.TempDir(), "set.yaml")
			if err := os.WriteFile(set, []byte(tc.set), 0o644); err != nil {
				t.Fatal(err)
			}
			src := Sources{Catalogs: dir}
			cat, err := src.LoadCatalog()
			if err != nil {
				t.Fatal(err)
			}
			s, err := LoadNamed(set, src, cat)
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == "" && strings.Contains(s.Source, "note:") || tc.want != "" && !strings.Contains(s.Source, tc.want) {
				t.Errorf("source %q, want it to contain %q", s.Source, tc.want)
			}
			if strings.Contains(s.Source, "mail@") {
				t.Errorf("source %q names mail, whose versions have a release order", s.Source)
			}
		})
	}
}

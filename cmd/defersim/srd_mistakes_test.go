package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSRDLintUserMistakes pins what srd lint says for each mistake of the
// user walk in docs/srd.md ("Mistakes, and what defersim says"): it works,
// or it exits non-zero naming the file, the line where there is one, and the
// reason. A .json file with a trailing comma linted clean before.
func TestSRDLintUserMistakes(t *testing.T) {
	catalogs := filepath.Join("..", "..", "srd", "testdata", "lint", "catalogs")
	files := `srd_version: 1
server_id: acme-files
domain: documents
display_name: Acme Files
intent_triggers: [open my document]
disambiguation:
  - domain: chat
    differs: Keeps documents; talking to people is chat.
tool_groups:
  reading: [open_doc]
`
	chat := `{"srd_version": 1,
 "server_id": "acme-chat",
 "domain": "chat",
 "display_name": "Acme Chat",
 "intent_triggers": ["tell the room"],
 "disambiguation": [{"domain": "documents", "differs": "Short messages."}],
 "tool_groups": {"talk": ["say"]}
}
`
	for _, tc := range []struct {
		name  string
		files map[string]string // written beside files.yaml and chat.json ("" removes one)
		code  int
		want  string // in the output; "" a clean summary
	}{
		{"clean", nil, 0, "2 SRDs, no problems"},
		{"a server no catalog holds", map[string]string{"files.yaml": strings.Replace(files, "acme-files", "acme-filez", 1)},
			1, `files.yaml:2: server_id: no catalog of server "acme-filez" in the catalogs; did you mean "acme-files"?`},
		{"a tool the server does not serve", map[string]string{"files.yaml": strings.Replace(files, "[open_doc]", "[open_doc, say]", 1)},
			1, `files.yaml:10: tool_groups.reading[1]: unknown tool "say": no version of acme-files serves it`},
		// It linted clean: lint now warns, naming the versions that serve
		// it, and still exits 0 (a group may describe an older version).
		{"a tool only an older version serves", map[string]string{"files.yaml": strings.Replace(files, "[open_doc]", "[open_doc, save_doc]", 1)},
			0, `files.yaml:10: tool_groups.reading[1]: warning: tool "save_doc" is not in the latest version of acme-files (acme-files@2.0.0): only acme-files@1.0.0 serves it; a session on the latest version cannot call it
2 SRDs, no problems, 1 warning`},
		{"a variant key that matches nothing", map[string]string{"v.yaml": strings.Replace(strings.Replace(files, "acme-files", "acme-files+big", 1), "documents", "big-documents", 1)},
			1, `v.yaml:2: server_id: no catalog of server "acme-files+big" in the catalogs`},
		{"two SRDs for one server", map[string]string{"again.yaml": files},
			1, `server_id: server "acme-files" is also described at`},
		{"a lone domain's neighbour nobody has", map[string]string{"chat.json": strings.Replace(chat, `"domain": "documents"`, `"domain": "nowhere"`, 1)},
			1, `chat.json:6: disambiguation[0].domain: names no known domain: "nowhere" is claimed by no SRD`},
		{"YAML syntax error", map[string]string{"files.yaml": strings.Replace(files, "[open_doc]", "[open_doc", 1)},
			2, "files.yaml:10: invalid YAML: did not find expected ',' or ']'"},
		{"JSON trailing comma", map[string]string{"chat.json": strings.Replace(chat, `["say"]}`, `["say"]},`, 1)},
			2, "chat.json:7: invalid JSON: a comma before '}' at column 34 (JSON allows no trailing comma)"},
		{"an empty file", map[string]string{"empty.yaml": ""}, 1, "empty.yaml: no SRD in file"},
		{"a README beside the SRDs", map[string]string{"README.md": "# Our SRDs\n"}, 0, "2 SRDs, no problems"},
		{"UTF-8 byte order marks", map[string]string{"files.yaml": "\ufeff" + files, "chat.json": "\ufeff" + chat}, 0, "2 SRDs, no problems"},
		{"Windows line endings", map[string]string{"files.yaml": strings.ReplaceAll(files, "\n", "\r\n"), "chat.json": strings.ReplaceAll(chat, "\n", "\r\n")},
			0, "2 SRDs, no problems"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			all := map[string]string{"files.yaml": files, "chat.json": chat}
			for name, text := range tc.files {
				all[name] = text
			}
			for name, text := range all {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			out, code := runSRDCmd(t, "lint", dir, "--catalogs", catalogs)
			if code != tc.code || !strings.Contains(out, tc.want) {
				t.Errorf("exit %d, want %d; output lacks %q:\n%s", code, tc.code, tc.want, out)
			}
		})
	}
}

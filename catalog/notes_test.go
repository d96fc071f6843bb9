package catalog

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCatalogFilesNotSilent pins that no catalog file is dropped or read
// empty without a word: a file listing no tools ([], {"tools":[]}, a
// JSON-RPC result holding none) loads and is named by EmptyServers and
// Notes (a server with no tools may be legitimate); a file LoadDir would
// skip although its name makes it a catalog (".JSON", ".Json",
// ".json.gz") stops LoadDir with an error naming it. Other files are still
// ignored.
func TestCatalogFilesNotSilent(t *testing.T) {
	tests := []struct {
		name    string
		files   map[string]string
		wantErr string // "" : loads; DIR stands for the directory
		empty   []string
		servers int
	}{
		{name: "bare empty array", files: map[string]string{"a@1.json": `[]`, "b@1.json": `[` + toolGreet + `]`},
			empty: []string{"DIR/a@1.json: lists no tools; the server loads and serves none"}, servers: 2},
		{name: "empty tools member", files: map[string]string{"a@1.json": `{"tools":[]}`},
			empty: []string{"DIR/a@1.json: lists no tools; the server loads and serves none"}, servers: 1},
		{name: "json-rpc result without tools", files: map[string]string{"a@1.json": `{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`},
			empty: []string{"DIR/a@1.json: lists no tools; the server loads and serves none"}, servers: 1},
		{name: "upper-case extension", files: map[string]string{"a@1.json": `[` + toolGreet + `]`, "b@1.JSON": `[` + toolAdd + `]`},
			wantErr: `load catalog dir DIR: b@1.JSON is not read: a catalog file's name ends in ".json", in lower case: rename it to b@1.json (or move it out of the directory)`},
		{name: "mixed-case extension", files: map[string]string{"b@1.Json": `[]`},
			wantErr: `b@1.Json is not read: a catalog file's name ends in ".json", in lower case: rename it to b@1.json`},
		{name: "gzip-compressed", files: map[string]string{"a@1.json": `[` + toolGreet + `]`, "b@1.json.gz": "\x1f\x8b"},
			wantErr: `load catalog dir DIR: b@1.json.gz is not read: compressed catalogs are not read: decompress it to b@1.json (or move it out of the directory)`},
		{name: "zstd-compressed, upper case", files: map[string]string{"b@1.JSON.ZST": ""},
			wantErr: `b@1.JSON.ZST is not read: compressed catalogs are not read: decompress it to b@1.JSON`},
		{name: "other files still ignored", files: map[string]string{"a@1.json": `[` + toolGreet + `]`, "README.md": "x", "a@1.json.bak": "", "a@1.yaml": "",
			".hidden.JSON": ""}, servers: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range tc.files {
				writeFile(t, dir, name, content)
			}
			c, err := LoadDir(dir)
			if tc.wantErr != "" {
				want := strings.ReplaceAll(tc.wantErr, "DIR", dir)
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Fatalf("LoadDir error = %v, want %q", err, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if n := len(c.All()); n != tc.servers {
				t.Errorf("%d servers, want %d", n, tc.servers)
			}
			var want []string
			for _, e := range tc.empty {
				want = append(want, strings.ReplaceAll(e, "DIR/", dir+string(filepath.Separator)))
			}
			if d := cmp.Diff(want, EmptyServers(c.All())); d != "" {
				t.Errorf("EmptyServers (-want +got):\n%s", d)
			}
			var notes []Note
			if len(tc.empty) > 0 {
				notes = []Note{{Kind: NoteNoTools, Count: len(tc.empty), Items: []string{"a@1"}}}
			}
			if d := cmp.Diff(notes, Notes(c.All(), nil)); d != "" {
				t.Errorf("Notes (-want +got):\n%s", d)
			}
		})
	}
}

// TestNotesCountAndCap pins what a run reports of its catalogs' load-time
// substitutions: per kind (missing, null input schema; schemas the check
// finds broken, each distinct schema checked once; servers without
// tools), the count of all of them and at most MaxNoteItems named, in
// load order; nil for clean catalogs (so a clean run's results.json has no
// such key).
func TestNotesCountAndCap(t *testing.T) {
	many := make([]string, 30)
	for i := range many {
		many[i] = fmt.Sprintf(`{"name":"t%02d","inputSchema":null}`, i)
	}
	// dictCheck stands in for validation.SchemaCheck: a schema holding a
	// "dict" type fails.
	dictCheck := func(schema []byte) (string, bool) {
		if strings.Contains(string(schema), `"type":"dict"`) {
			return `/properties/o/type: not a type`, false
		}
		return "", true
	}
	dict := `{"name":"opts","inputSchema":{"type":"object","properties":{"o":{"type":"dict"}}}}`
	tests := []struct {
		name    string
		catalog map[string]string // label → content
		check   SchemaCheck
		want    []Note
	}{
		{name: "clean", catalog: map[string]string{"a@1": `[` + toolGreet + `]`}},
		{name: "one of each", catalog: map[string]string{
			"a@1": `[` + toolGreet + `,{"name":"bare"},{"name":"nul","inputSchema":null}]`,
			"e@2": `{"tools":[]}`},
			want: []Note{
				{Kind: NoteSchemaMissing, Count: 1, Items: []string{`a@1: tools[1] "bare"`}},
				{Kind: NoteSchemaNull, Count: 1, Items: []string{`a@1: tools[2] "nul"`}},
				{Kind: NoteNoTools, Count: 1, Items: []string{"e@2"}},
			}},
		{name: "capped", catalog: map[string]string{"a@1": `[` + strings.Join(many, ",") + `]`},
			want: []Note{{Kind: NoteSchemaNull, Count: 30, Items: func() []string {
				var it []string
				for i := range MaxNoteItems {
					it = append(it, fmt.Sprintf(`a@1: tools[%d] "t%02d"`, i, i))
				}
				return it
			}()}}},
		{name: "schemas failing the check, in two versions", catalog: map[string]string{"a@1": `[` + toolGreet + `,` + dict + `]`, "e@2": `[` + dict + `]`},
			check: dictCheck, want: []Note{{Kind: NoteSchemaInvalid, Count: 2,
				Items: []string{`a@1: tools[1] "opts" at /properties/o/type: not a type`, `e@2: tools[0] "opts" at /properties/o/type: not a type`}}}},
		{name: "no check", catalog: map[string]string{"a@1": `[` + dict + `]`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var servers []*Server
			for _, label := range []string{"a@1", "e@2"} {
				content, ok := tc.catalog[label]
				if !ok {
					continue
				}
				name, version, _ := strings.Cut(label, "@")
				s, err := Parse([]byte(content), name, version, "")
				if err != nil {
					t.Fatal(err)
				}
				servers = append(servers, s)
			}
			if d := cmp.Diff(tc.want, Notes(servers, tc.check)); d != "" {
				t.Errorf("Notes (-want +got):\n%s", d)
			}
		})
	}
}

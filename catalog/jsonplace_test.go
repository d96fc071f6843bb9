package catalog

import (
	"strings"
	"testing"
)

// TestInvalidJSONSaysWhere pins that invalid JSON in a catalog or in its
// .meta.json is reported with its line, column and byte offset, and a file
// cut short with its size: before, a 10 MB capture with one stray comma
// said only "invalid JSON: invalid character '}' looking for beginning of
// object key string", and a truncated one "unexpected EOF".
func TestInvalidJSONSaysWhere(t *testing.T) {
	tests := []struct {
		name, catalog, meta, want string
	}{
		{"trailing comma", "{\"tools\":[\n  {\"name\":\"a\",\n  }\n]}", "",
			`fs@1.0.json: invalid JSON: invalid character '}' looking for beginning of object key string (line 3, column 3, byte offset 28)`},
		{"cut short", `{"tools":[{"name":"a"`, "",
			`fs@1.0.json: invalid JSON: unexpected EOF (the file ends inside a JSON value, after 21 bytes: it is cut short, or a bracket or quote is not closed)`},
		{"empty", "\n", "",
			`fs@1.0.json: invalid JSON: unexpected EOF (the file holds no JSON value: 1 bytes, none but white space)`},
		{"meta", `{"tools":[` + toolGreet + `]}`, "{\n\"tool_count\": 1\n\"pages\": 1}",
			`fs@1.0.meta.json: invalid JSON: invalid character '"' after object key:value pair (line 3, column 1, byte offset 18)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := writeFile(t, dir, "fs@1.0.json", tc.catalog)
			if tc.meta != "" {
				writeFile(t, dir, "fs@1.0.meta.json", tc.meta)
			}
			_, err := LoadFile(p)
			if err == nil {
				t.Fatal("loaded")
			}
			if !strings.HasSuffix(err.Error(), tc.want) {
				t.Errorf("error\n got %q\nwant …%q", err, tc.want)
			}
		})
	}
}

package catalog

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/bounded"
)

// genCatalog writes parts (strings, or funcs writing to w) to dir/name.
func genCatalog(t *testing.T, dir, name string, parts ...any) string {
	t.Helper()
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for _, p := range parts {
		switch p := p.(type) {
		case string:
			w.WriteString(p)
		case func(*bufio.Writer):
			p(w)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func times(s string, n int) func(*bufio.Writer) {
	return func(w *bufio.Writer) {
		for range n {
			w.WriteString(s)
		}
	}
}

// catalogHeapFactor bounds the heap a catalog load may use per byte of
// file (plus 64 MiB). A catalog is not streamed: it is parsed into a value
// tree (about 5 bytes of tree per byte of schema) and each tool keeps four
// derived byte forms (Raw, InputSchema, Wire, WireOpenAI) for the whole
// run; tiny tools add a fixed cost each (about 1.5 KiB for 100,000 tools of
// 72 bytes). Measured peaks: 11× for a 10 MB schema, 23× for 100,000 tools.
const catalogHeapFactor = 32

// TestBadCatalogCorpus loads every file of the hostile-catalog corpus: each
// gives its exact error naming the file, the tool index and the field (or
// loads, when the content is legal JSON the loader keeps as written), never
// panics, finishes, and keeps the heap within catalogHeapFactor× the file
// size + 64 MiB.
func TestBadCatalogCorpus(t *testing.T) {
	tests := []struct {
		name string
		file string // under testdata/bad
		gen  func(t *testing.T, dir string) string
		// want is the error, FILE standing for the path; "" means it loads.
		want string
		// tools is how many tools a file that loads has.
		tools int
	}{
		{name: "same tool twice", file: "dup@1.0.json", want: `FILE: tools[2]: duplicate tool name "lookup" (first at tools[0])`},
		{name: "$ref cycles (kept as written)", file: "refcycle@1.0.json", tools: 1},
		{name: "invalid UTF-8", file: "utf8@1.0.json", want: "FILE: invalid UTF-8 at byte offset 22 (line 1): a catalog is JSON, which is UTF-8; re-encode the file as UTF-8 from the encoding it was saved in (often Latin-1 or Windows-1252)"},
		{name: "NUL byte", file: "nul@1.0.json", want: `FILE: invalid JSON: invalid character '\x00' in string literal (line 1, column 33, byte offset 32)`},
		{name: "numbers that overflow (kept as written)", file: "overflow@1.0.json", tools: 1},
		{name: "negative lengths (kept as written)", file: "negative@1.0.json", tools: 1},
		{name: "truncated", file: "truncated@1.0.json", want: "FILE: invalid JSON: unexpected EOF (the file ends inside a JSON value, after 71 bytes: it is cut short, or a bracket or quote is not closed)"},
		{name: "duplicate key", file: "dupkey@1.0.json", want: `FILE: invalid JSON: duplicate key "type" (line 1, column 60, byte offset 59)`},
		{name: "empty file", file: "empty@1.0.json", want: "FILE: invalid JSON: unexpected EOF (the file holds no JSON value: 0 bytes, none but white space)"},
		{name: "schema nested 100,000 levels", gen: func(t *testing.T, dir string) string {
			return genCatalog(t, dir, "deep@1.0.json", `{"tools":[{"name":"deep","inputSchema":`,
				times(`{"properties":{"a":`, 100000), "{}", times("}}", 100000), "}]}")
		}, want: "FILE: invalid JSON: JSON nested too deeply (more than 512 levels) (line 1, column 4881, byte offset 4880)"},
		{name: "10 MB schema", gen: func(t *testing.T, dir string) string {
			return genCatalog(t, dir, "huge@1.0.json", `{"tools":[{"name":"huge","inputSchema":{"type":"object","properties":{`,
				func(w *bufio.Writer) {
					for i := range 100000 {
						if i > 0 {
							w.WriteString(",")
						}
						fmt.Fprintf(w, `"p%06d":{"type":"string","description":"%s"}`, i, strings.Repeat("d", 60))
					}
				}, "}}}]}")
		}, tools: 1},
		{name: "100,000 tools", gen: func(t *testing.T, dir string) string {
			return genCatalog(t, dir, "many@1.0.json", `{"tools":[`, func(w *bufio.Writer) {
				for i := range 100000 {
					if i > 0 {
						w.WriteString(",")
					}
					fmt.Fprintf(w, `{"name":"t%06d","description":"tool","inputSchema":{"type":"object"}}`, i)
				}
			}, "]}")
		}, tools: 100000},
		{name: "JSON-RPC error with a 1 MiB message (quoted cut to 200 bytes)", gen: func(t *testing.T, dir string) string {
			return genCatalog(t, dir, "rpcerr@1.0.json", `{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"`, times("x", 1<<20), `"}}`)
		}, want: `FILE: a JSON-RPC error response, not a tools/list result: {"code":-32000,"message":"` + strings.Repeat("x", 174) + `… (1048604 bytes)`},
		{name: "file over 64 MiB", gen: func(t *testing.T, dir string) string {
			return genCatalog(t, dir, "over@1.0.json", `{"tools":[{"name":"a","description":"`, times(strings.Repeat("x", 1<<20), 65), `"}]}`)
		}, want: "read catalog FILE: 68157481 bytes is over the 67108864-byte limit"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join("testdata", "bad", tc.file)
			if tc.gen != nil {
				if testing.Short() {
					t.Skip("generates a large file")
				}
				path = tc.gen(t, t.TempDir())
			}
			st, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			var s *Server
			res, err := bounded.Run(t, bounded.Scaled(st.Size(), catalogHeapFactor), func() error {
				var err error
				s, err = LoadFile(path)
				return err
			})
			t.Logf("%d bytes: peak heap growth %d KiB", st.Size(), res.PeakHeapGrowth>>10)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if want := strings.ReplaceAll(tc.want, "FILE", path); got != want {
				t.Fatalf("LoadFile error:\n got %q\nwant %q", got, want)
			}
			if err == nil && len(s.Tools) != tc.tools {
				t.Errorf("loaded %d tools, want %d", len(s.Tools), tc.tools)
			}
		})
	}
}

// TestParseRejectsInvalidUTF8 pins the fix for a bug the corpus found: a
// catalog file with bytes that are not UTF-8 loaded without a word, its
// strings silently changed to U+FFFD (so the tool's name, fingerprint and
// token count were not the server's). Parse now names the byte.
func TestParseRejectsInvalidUTF8(t *testing.T) {
	_, err := Parse([]byte("{\"tools\":[{\"name\":\"caf\xe9\"}]}"), "s", "1", "")
	if err == nil || !strings.HasPrefix(err.Error(), "invalid UTF-8 at byte offset 22 (line 1): ") {
		t.Fatalf("Parse = %v, want the invalid byte named", err)
	}
	if _, err := Parse([]byte(`{"tools":[{"name":"café"}]}`), "s", "1", ""); err != nil {
		t.Fatalf("valid UTF-8 rejected: %v", err)
	}
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunAndStatsFlagCatalogNotes pins what `run` and `catalog stats` show
// of a user's catalogs that do not load as served: a tool with a null or no
// input schema (read as {"type":"object"}) and a server version listing no
// tools are warned about on stderr and noted in the run summary, which no
// longer says "exact definitions"; a compressed or upper-case catalog file
// in the directory stops both commands, naming it, where it was skipped
// without a word. A tool schema failing its meta-schema (a nested
// "type": "dict", as BFCL's) is named with its JSON pointer and why by
// run, catalog stats and trace validate (a warning: validate still
// passes), where all three said nothing. Clean catalogs print none of it.
func TestRunAndStatsFlagCatalogNotes(t *testing.T) {
	const files = `{"tools":[{"name":"read_file","description":"Read a file.","inputSchema":{"type":"object","properties":{"path":{"type":"string"}}}}` +
		`,{"name":"stat","description":"Stat a file."}]}`
	const filesNull = `{"tools":[{"name":"read_file","description":"Read a file.","inputSchema":null},{"name":"stat","description":"Stat a file.","inputSchema":{"type":"object"}}]}`
	tests := []struct {
		name    string
		catalog map[string]string
		code    int
		// stderr and stdout of run, stderr of stats: each string must
		// appear; absent must appear in none of the outputs.
		runErr, runOut, statsErr []string
		validateOut              []string // trace validate --catalogs (exit 0)
		absent                   []string
		exact                    bool // the summary says "exact definitions"
	}{
		{name: "clean", catalog: map[string]string{"files@1.json": `{"tools":[{"name":"read_file","description":"Read a file.","inputSchema":{"type":"object"}}]}`},
			exact: true, absent: []string{"warning", "Catalogs:"}},
		{name: "missing schema", catalog: map[string]string{"files@1.json": files},
			runErr: []string{`defersim: warning: catalogs: 1 tool has no inputSchema, read as {"type":"object"}: files@1: tools[1] "stat" (results.json run.catalog_notes)`},
			runOut: []string{`Note:                 Catalogs: 1 tool has no inputSchema, read as {"type":"object"}: files@1: tools[1] "stat".`,
				`inputs:  all 2 tool calls resolved against the catalogs; 1 catalog tool read with a stand-in {"type":"object"} schema (see the notes)`},
			statsErr: []string{`warning: 1 tool read as {"type":"object"}`}},
		{name: "null schema and a server without tools", catalog: map[string]string{"files@1.json": filesNull, "idle@1.json": `[]`},
			runErr: []string{`defersim: warning: catalogs: 1 tool has a null inputSchema, read as {"type":"object"}: files@1: tools[0] "read_file"`,
				`defersim: warning: catalogs: 1 server version serves no tools (the file lists none): idle@1`},
			runOut:   []string{`Catalogs: 1 server version serves no tools (the file lists none): idle@1. A session naming one is offered none of its tools`},
			statsErr: []string{"idle@1.json: lists no tools; the server loads and serves none", "warning: 1 server version serves no tools"}},
		{name: "schema failing its meta-schema", catalog: map[string]string{"files@1.json": `{"tools":[{"name":"read_file","description":"Read a file.",` +
			`"inputSchema":{"type":"object","properties":{"path":{"type":"string"},"opts":{"type":"dict","properties":{"n":{"type":"float"}}}}}}]}`},
			exact: true,
			runErr: []string{`defersim: warning: catalogs: 1 tool has an inputSchema that fails its meta-schema (or does not compile), so it cannot check calls: ` +
				`files@1: tools[0] "read_file" at /properties/opts/properties/n/type ("float"): not a JSON Schema type (results.json run.catalog_notes)`},
			runOut: []string{`Note:                 Catalogs: 1 tool has an inputSchema that fails its meta-schema (or does not compile), so it cannot check calls: files@1: tools[0] "read_file" at /properties/opts/properties/n/type ("float")`,
				"a stale-warm call checked against one is neither valid nor malformed"},
			statsErr: []string{`warning: files@1: tools[0] "read_file" at /properties/opts/properties/n/type ("float"): not a JSON Schema type`,
				"warning: 1 tool has an inputSchema that fails its meta-schema"},
			validateOut: []string{`catalogs: warning: 1 tool has an inputSchema that fails its meta-schema (or does not compile), so it cannot check calls: files@1: tools[0] "read_file" at /properties/opts/properties/n/type ("float")`,
				"valid: 1 file"}},
		{name: "compressed catalog", catalog: map[string]string{"files@1.json": files, "more@1.json.gz": "\x1f\x8b"}, code: 2,
			runErr: []string{"more@1.json.gz is not read: compressed catalogs are not read: decompress it to more@1.json"}, statsErr: []string{"more@1.json.gz is not read"}},
		{name: "upper-case extension", catalog: map[string]string{"files@1.json": files, "more@1.JSON": `[]`}, code: 2,
			runErr: []string{`more@1.JSON is not read: a catalog file's name ends in ".json", in lower case`}, statsErr: []string{"more@1.JSON is not read"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			cats := filepath.Join(dir, "catalogs")
			if err := os.Mkdir(cats, 0o755); err != nil {
				t.Fatal(err)
			}
			for name, content := range tc.catalog {
				if err := os.WriteFile(filepath.Join(cats, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			trace := `{"v":1,"type":"session_start","session":"s1","t":"2026-01-01T10:00:00Z","servers":[{"name":"files","version":"1"}]}
{"type":"user","session":"s1","t":"2026-01-01T10:00:05Z","text":"read the file"}
{"type":"model_request","session":"s1","t":"2026-01-01T10:00:06Z","id":"r1","usage":{"input":100,"output":10}}
{"type":"tool_call","session":"s1","t":"2026-01-01T10:00:07Z","request":"r1","call_id":"c1","tool":"read_file","server":"files","status":"ok","args":{"path":"a"},"result":"text of a"}
{"type":"model_request","session":"s1","t":"2026-01-01T10:00:08Z","id":"r2","usage":{"input":120,"output":10}}
{"type":"tool_call","session":"s1","t":"2026-01-01T10:00:09Z","request":"r2","call_id":"c2","tool":"read_file","server":"files","status":"ok","args":{"path":"b"},"result":"text of b"}
{"type":"session_end","session":"s1","t":"2026-01-01T10:00:10Z"}
`
			tracePath := filepath.Join(dir, "trace.jsonl")
			if err := os.WriteFile(tracePath, []byte(trace), 0o644); err != nil {
				t.Fatal(err)
			}
			stdout, stderr, code := cliRun(t, "run", "--traces", tracePath, "--catalogs", cats, "--strategies", "eager,claude-code-default",
				"-o", filepath.Join(dir, "out"), "--no-report", "--bootstrap", "-1")
			if code != tc.code {
				t.Fatalf("run: exit %d, want %d\n%s%s", code, tc.code, stdout, stderr)
			}
			for _, want := range tc.runErr {
				if !strings.Contains(stderr, want) {
					t.Errorf("run stderr lacks %q:\n%s", want, stderr)
				}
			}
			for _, want := range tc.runOut {
				if !strings.Contains(stdout, want) {
					t.Errorf("run summary lacks %q:\n%s", want, stdout)
				}
			}
			statsOut, statsErr, _ := cliRun(t, "catalog", "stats", "--counters", "bytes/4", cats)
			for _, want := range tc.statsErr {
				if !strings.Contains(statsErr, want) {
					t.Errorf("catalog stats stderr lacks %q:\n%s", want, statsErr)
				}
			}
			if tc.validateOut != nil {
				out, errs, code := cliRun(t, "trace", "validate", "--catalogs", cats, tracePath)
				if code != 0 {
					t.Errorf("trace validate: exit %d, want 0\n%s%s", code, out, errs)
				}
				for _, want := range tc.validateOut {
					if !strings.Contains(out, want) {
						t.Errorf("trace validate output lacks %q:\n%s", want, out)
					}
				}
			}
			if tc.code == 0 && strings.Contains(stdout, "exact definitions") != tc.exact {
				t.Errorf("run summary says \"exact definitions\": %v, want %v:\n%s", !tc.exact, tc.exact, stdout)
			}
			for _, no := range tc.absent {
				for what, s := range map[string]string{"run stdout": stdout, "run stderr": stderr, "stats stdout": statsOut, "stats stderr": statsErr} {
					if strings.Contains(s, no) {
						t.Errorf("%s has %q:\n%s", what, no, s)
					}
				}
			}
		})
	}
}

// TestCatalogStatsEscapesWarnings pins that `catalog stats` prints its
// warnings terminal-safe: a catalog file whose name holds an escape
// sequence is named with the control character escaped (\x1b), where the
// raw name reached the terminal.
func TestCatalogStatsEscapesWarnings(t *testing.T) {
	dir := t.TempDir()
	name := "files\x1b[2J@1.json"
	if err := os.WriteFile(filepath.Join(dir, name), []byte(`{"tools":[{"name":"read_file","inputSchema":null}]}`), 0o644); err != nil {
		t.Skipf("this file system takes no such name: %v", err)
	}
	_, stderr, code := cliRun(t, "catalog", "stats", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.Contains(stderr, "\x1b") || !strings.Contains(stderr, `files\x1b[2J@1.json`) {
		t.Errorf("stderr %q: want the file named with the escape character escaped", stderr)
	}
}

// TestCatalogStatsWarnsUnorderedLatest pins that `catalog stats` over a
// directory whose server has versions named by content hash warns that the
// version it counts is only the last by spelling: it counted that one as
// the server's cost without a word. Every version is counted with
// --all-versions, which needs no warning.
func TestCatalogStatsWarnsUnorderedLatest(t *testing.T) {
	dir := t.TempDir()
	for _, v := range []string{"0aaa0000aaaa", "ffff0000ffff"} {
		if err := os.WriteFile(filepath.Join(dir, "srv@"+v+".json"), []byte(`{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, stderr, code := cliRun(t, "catalog", "stats", dir)
	if code != 0 || !strings.Contains(stderr, "srv: 2 versions named by content hash have no release order: counted is ffff0000ffff, the last by spelling") {
		t.Errorf("exit %d, stderr %q: want a warning naming the version counted", code, stderr)
	}
	if _, stderr, code := cliRun(t, "catalog", "stats", "--all-versions", dir); code != 0 || strings.Contains(stderr, "content hash") {
		t.Errorf("--all-versions: exit %d, stderr %q: want no warning", code, stderr)
	}
}

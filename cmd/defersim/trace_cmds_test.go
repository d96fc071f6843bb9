package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runTraceCmd runs "defersim trace ARGS..." and returns stdout and the exit status.
func runTraceCmd(t *testing.T, args ...string) (string, int) {
	t.Helper()
	root := newRootCmd()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(append([]string{"trace"}, args...))
	err := root.Execute()
	var ex exitError
	switch {
	case err == nil:
		return out.String(), 0
	case errors.As(err, &ex):
		return out.String(), ex.code
	default:
		t.Fatalf("trace %v: %v", args, err)
		return "", -1
	}
}

func TestTraceValidateAndStatsCmds(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join("..", "..", "traces", "testdata", "small.jsonl")
	bad := filepath.Join(dir, "bad.jsonl")
	data := `{"v":1,"type":"session_start","session":"a","t":"2026-01-01T00:00:00Z"}` + "\nnot json\n" +
		`{"type":"session_end","session":"a","t":"2026-01-01T00:00:01Z"}` + "\n"
	if err := os.WriteFile(bad, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	cats := filepath.Join(dir, "catalogs")
	if err := os.Mkdir(cats, 0o755); err != nil {
		t.Fatal(err)
	}
	for file, tools := range map[string][]string{
		"files@1.4.0.json":   {"read_file"},
		"issues@2.0.1.json":  {"list_issues"},
		"browser@0.9.3.json": {"browser_navigate", "browser_snapshot"},
	} {
		var list []string
		for _, name := range tools {
			list = append(list, `{"name":"`+name+`","description":"d","inputSchema":{"type":"object"}}`)
		}
		if err := os.WriteFile(filepath.Join(cats, file), []byte(`{"tools":[`+strings.Join(list, ",")+`]}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	partial := filepath.Join(dir, "partial")
	if err := os.Mkdir(partial, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(cats, "browser@0.9.3.json"), filepath.Join(partial, "browser@0.9.3.json")); err != nil {
		t.Fatal(err)
	}
	// The version the trace's catalog_change moves browser to: without it,
	// run resolves the later browser call against 0.9.3 and counts it as
	// version missing, and so does validate.
	upgraded := filepath.Join(dir, "upgraded")
	if err := os.Mkdir(upgraded, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(upgraded, "browser@0.9.4.json"),
		[]byte(`{"tools":[{"name":"browser_snapshot","description":"d","inputSchema":{"type":"object"}}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		args     []string
		wantCode int
		want     []string
	}{
		{"valid file", []string{"validate", "--no-catalogs", good}, 0, []string{"valid: 1 file (0 unreadable), 32 lines, 32 events, 3 sessions, 0 problems",
			"run: tool names NOT checked (--no-catalogs)"}},
		// Without a catalog of its own the file's tool names are not
		// checked, and `run --traces FILE` would stop on it (it checked
		// them against the default scenario's embedded catalog).
		{"no catalog of its own", []string{"validate", good}, 2, []string{"small.jsonl: tool names NOT checked: the trace names no catalog of its own",
			"run would stop: no catalog: pass --catalogs DIR", "well-formed, but run would stop: 1 file (0 unreadable), 32 lines, 32 events, 3 sessions, 0 problems; run would stop: no catalog: "}},
		{"given the sample catalog", []string{"validate", "--catalogs", "embedded:catalog", good}, 1, []string{
			"run: 4 of 5 tool calls (80.0%) would not resolve, 3 of 3 sessions (100.0%) name a server or version missing from the catalogs; run stops above 1% of either",
			"run would stop: 4 of 5 tool calls (80.0%) did not resolve against the catalogs", "(--max-unresolved / --allow-unresolved)"}},
		{"invalid file", []string{"validate", good, bad}, 1, []string{
			bad + ":2: invalid JSON at column 2: invalid character 'o' in literal null (expecting 'u')",
			"INVALID: 2 files (0 unreadable)"}},
		{"every tool in some catalog", []string{"validate", "--catalogs", cats, "--catalogs", partial, "--catalogs", upgraded, good}, 0, []string{"valid: 1 file"}},
		{"a version no catalog holds", []string{"validate", "--catalogs", cats, "--catalogs", partial, good}, 1, []string{
			good + `:26: session "ops-003": tool_call of tool "browser_snapshot" of server "browser" at version "0.9.4" (catalog_change at line 24), which no catalog holds`}},
		{"tool no catalog knows", []string{"validate", "--catalogs", cats, good}, 1, []string{
			good + `:22: session "ops-003": tool_call of tool "browser_navigate" of server "browser", which no catalog knows`}},
		{"unreadable catalog", []string{"validate", "--catalogs", filepath.Join(dir, "nope"), good}, 2, nil},
		{"unreadable file", []string{"validate", filepath.Join(dir, "absent.jsonl")}, 2, []string{"absent.jsonl: open: no such file"}},
		{"json report", []string{"validate", "--format", "json", bad}, 1, []string{`"valid": false`, `"kind": "bad_json"`}},
		{"stats", []string{"stats", "--top", "1", good}, 0, []string{"tool calls                          5  (ok 4, error 1)", "2   40.0%  files   read_file"}},
		{"stats json", []string{"stats", "--format", "json", good}, 0, []string{`"tool_calls": 5`, `"sessions": 3`}},
		{"stats of a bad file", []string{"stats", bad}, 1, nil},
		{"stats skipping bad lines", []string{"stats", "--skip-bad", bad}, 0, []string{"skipped 1 malformed line (bad_json 1)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, code := runTraceCmd(t, tc.args...)
			if code != tc.wantCode {
				t.Errorf("exit status %d, want %d; output:\n%s", code, tc.wantCode, out)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestTraceImportGatewayThenValidate runs the gateway fixture through
// "trace import" with the gateway flags, then "trace validate" and "trace
// stats" with no catalog flag: both find the imported catalog through the
// trace and resolve every call and search result.
func TestTraceImportGatewayThenValidate(t *testing.T) {
	dir := t.TempDir()
	fixture := filepath.Join("..", "..", "traces", "importers", "testdata")
	out := filepath.Join(dir, "gw.jsonl.gz")
	got, code := runTraceCmd(t, "import", "--from", "openai-messages", filepath.Join(fixture, "gateway", "sessions.jsonl"),
		"--tools", filepath.Join(fixture, "gateway", "catalog"), "--search-tool", "route", "--execute-tool", "execute-tool", "-o", out)
	if code != 0 || !strings.Contains(got, "gateway search call → tool_search") {
		t.Fatalf("import: exit %d\n%s", code, got)
	}
	partial := filepath.Join(dir, "chat.jsonl")
	if _, code := runTraceCmd(t, "import", "--from", "openai-messages", filepath.Join(fixture, "chat.jsonl"),
		"--tools", filepath.Join(fixture, "github@1.0.0.json"), "-o", partial); code != 0 {
		t.Fatalf("import chat: exit %d", code)
	}
	tests := []struct {
		name     string
		args     []string
		wantCode int
		want     []string
	}{
		{"validate with its own catalog", []string{"validate", out}, 0, []string{
			"tools checked against its catalog " + out + ".catalog", "valid: 1 file (0 unreadable), 27 lines, 27 events, 2 sessions, 0 problems"}},
		{"stats with its own catalog", []string{"stats", out}, 0, []string{"tool calls not served at their version in force: 0 of 5"}},
		{"own catalog lacks tools", []string{"validate", partial}, 1, []string{`tool "delete_repo" of server "github", which no catalog knows`}},
		{"--no-catalogs", []string{"validate", "--no-catalogs", partial}, 0, []string{"0 problems"}},
		{"stats counts unserved calls", []string{"stats", partial}, 0, []string{"tool calls not served at their version in force: 2 of 5", "github/delete_repo  1"}},
		{"flags exclude each other", []string{"validate", "--no-catalogs", "--catalogs", dir, partial}, 2, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, code := runTraceCmd(t, tc.args...)
			if code != tc.wantCode {
				t.Errorf("exit status %d, want %d; output:\n%s", code, tc.wantCode, got)
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("output lacks %q:\n%s", w, got)
				}
			}
		})
	}
}

// TestTraceStatsUnreadableFile pins that trace stats, which looks for the
// files' own catalogs before reading them (to count the calls not served
// at their version in force), still reports a file it cannot open as the
// read does, with exit status 2: the catalog lookup said "open trace: …".
func TestTraceStatsUnreadableFile(t *testing.T) {
	absent := filepath.Join(t.TempDir(), "absent.jsonl")
	_, stderr, code := cliRun(t, "trace", "stats", absent)
	if want := "open " + absent + ": no such file or directory\n"; code != 2 || stderr != want {
		t.Errorf("exit %d, stderr %q; want 2, %q", code, stderr, want)
	}
}

// TestTraceValidateNotATraceSummary pins what trace validate prints for a
// pretty-printed JSON document (a file of tool schemas): every line keeps
// its file:line problem and the count stays exact, the advice on what to
// do is given once (it was repeated on each line opening an object), and
// a line after the problems points back at it, which the other problems
// would otherwise scroll away. A trace with one such line among its
// events gets no such line.
func TestTraceValidateNotATraceSummary(t *testing.T) {
	dir := t.TempDir()
	doc := filepath.Join(dir, "tools.json")
	if err := os.WriteFile(doc, []byte("[\n  {\n    \"name\": \"a\"\n  },\n  {\n    \"name\": \"b\"\n  }\n]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mixed := filepath.Join(dir, "mixed.jsonl")
	if err := os.WriteFile(mixed, []byte(`{"v":1,"type":"session_start","session":"a","t":"2026-01-01T00:00:00Z"}`+"\n"+
		`{"tools":[]}`+"\n"+`{"v":1,"type":"session_end","session":"a","t":"2026-01-01T00:00:01Z"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		file     string
		problems int
		summary  bool
	}{
		{doc, 8, true},
		{mixed, 4, false},
	}
	for _, tc := range tests {
		out, code := runTraceCmd(t, "validate", "--no-catalogs", tc.file)
		if code != 1 {
			t.Fatalf("%s: exit %d: %s", tc.file, code, out)
		}
		if n := strings.Count(out, "defersim trace import --from FORMAT"); n != 1 {
			t.Errorf("%s: advice given %d times, want once:\n%s", tc.file, n, out)
		}
		if n := strings.Count(out, tc.file+":"); n < tc.problems {
			t.Errorf("%s: %d lines name the file, want at least %d (one per problem):\n%s", tc.file, n, tc.problems, out)
		}
		want := fmt.Sprintf("%s: not a trace (%d problems, no event): line 1 says what the file looks like and what to do\n", tc.file, tc.problems)
		if got := strings.Contains(out, want); got != tc.summary {
			t.Errorf("%s: summary line %v, want %v:\n%s", tc.file, got, tc.summary, out)
		}
		if want := fmt.Sprintf(", %d problems\n", tc.problems); !strings.Contains(out, want) {
			t.Errorf("%s: no %q in:\n%s", tc.file, want, out)
		}
	}
}

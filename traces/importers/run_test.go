package importers_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers"
	"github.com/defersim/defersim/traces/importers/ingest"
	"github.com/defersim/defersim/traces/importers/internal/importtest"
)

var update = flag.Bool("update", false, "rewrite golden files")

// testdata/chat.jsonl is hand-built (three OpenAI-format conversations, two
// sharing an id, one calling MCP-qualified tools); github@1.0.0.json is a
// hand-built tools/list for one of those tools.
func runFixture(t *testing.T, out string, mutate func(*importers.Request)) (*importers.Request, []byte) {
	t.Helper()
	req := importers.Request{
		Format:           "openai-messages",
		Inputs:           []string{filepath.Join("testdata", "chat.jsonl")},
		Out:              out,
		ToolFiles:        []string{filepath.Join("testdata", "github@1.0.0.json")},
		SystemPromptFile: filepath.Join("testdata", "prompt.txt"),
		Model:            "given-model",
	}
	if mutate != nil {
		mutate(&req)
	}
	rep, err := importers.Run(req)
	if err != nil {
		t.Fatal(err)
	}
	return &req, reportJSON(t, rep)
}

// reportJSON renders an import report for a golden file. Paths depend on
// the temporary directory; only their base names are kept.
func reportJSON(t *testing.T, rep *ingest.Report) []byte {
	t.Helper()
	rep.Output, rep.CatalogDir = filepath.Base(rep.Output), filepath.Base(rep.CatalogDir)
	for i := range rep.Inputs {
		rep.Inputs[i] = filepath.Base(rep.Inputs[i])
	}
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

func TestRunGolden(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "chat.jsonl.gz")
	_, report := runFixture(t, out, nil)
	importtest.Golden(t, *update, filepath.Join("testdata", "chat.report.golden.json"), report)

	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(raw) < 2 || raw[0] != 0x1f || raw[1] != 0x8b {
		t.Fatal("a .gz output is not gzip")
	}
	r, err := traces.Open(out, traces.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var plain bytes.Buffer
	w := traces.NewWriter(&plain, false)
	for s, err := range r.Sessions() {
		if err != nil {
			t.Fatal(err)
		}
		if err := w.WriteSession(s); err != nil {
			t.Fatal(err)
		}
	}
	r.Close()
	w.Close()
	importtest.Validate(t, plain.Bytes())
	importtest.Golden(t, *update, filepath.Join("testdata", "chat.golden.jsonl"), plain.Bytes())

	var files []string
	entries, err := os.ReadDir(out + ".catalog")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		files = append(files, e.Name())
	}
	sort.Strings(files)
	var cat bytes.Buffer
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(out+".catalog", f))
		if err != nil {
			t.Fatal(err)
		}
		cat.WriteString("== " + f + "\n")
		cat.Write(data)
	}
	importtest.Golden(t, *update, filepath.Join("testdata", "chat.catalog.golden.txt"), cat.Bytes())
}

func TestRunDeterministic(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	_, ra := runFixture(t, a, nil)
	_, rb := runFixture(t, b, func(r *importers.Request) { r.CatalogDir = filepath.Join(dir, "a.jsonl.catalog") })
	da, _ := os.ReadFile(a)
	db, _ := os.ReadFile(b)
	if !bytes.Equal(da, db) {
		t.Error("the same import wrote different traces")
	}
	rb = bytes.ReplaceAll(rb, []byte(`"b.jsonl"`), []byte(`"a.jsonl"`))
	if d := cmp.Diff(string(ra), string(rb)); d != "" {
		t.Errorf("reports differ:\n%s", d)
	}
}

func TestRunFailureLeavesNoOutput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(bad, []byte("{\"messages\":[]}\n{broken\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.jsonl")
	_, err := importers.Run(importers.Request{Format: "openai-messages", Inputs: []string{bad}, Out: out})
	if err == nil || !strings.Contains(err.Error(), "bad.jsonl: line 2") {
		t.Fatalf("error = %v, want one naming bad.jsonl line 2", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("directory holds %d entries after a failed import, want only the input", len(entries))
	}
}

func TestRunRequestErrors(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join("testdata", "chat.jsonl")
	tests := []struct {
		name string
		req  importers.Request
		want string
	}{
		{"unknown format", importers.Request{Format: "csv", Inputs: []string{in}, Out: filepath.Join(dir, "o")}, `unknown format "csv" (known: tau-bench, tau2, openai-messages, anthropic-messages, otel, claude-code, swe-agent, toolbench); for another format, convert it to openai-messages or write trace v1`},
		{"no inputs", importers.Request{Format: "tau2", Out: filepath.Join(dir, "o")}, "no input files"},
		{"no output", importers.Request{Format: "tau2", Inputs: []string{in}}, "no output file"},
		{"bad tools", importers.Request{Format: "openai-messages", Inputs: []string{in}, Out: filepath.Join(dir, "o"),
			ToolFiles: []string{filepath.Join("testdata", "prompt.txt")}}, "--tools"},
		{"missing input", importers.Request{Format: "tau2", Inputs: []string{filepath.Join(dir, "absent.json")}, Out: filepath.Join(dir, "o")}, "absent.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := importers.Run(tt.req); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestNamesAndLookup(t *testing.T) {
	want := []string{"tau-bench", "tau2", "openai-messages", "anthropic-messages", "otel", "claude-code", "swe-agent", "toolbench"}
	if d := cmp.Diff(want, importers.Names()); d != "" {
		t.Errorf("names (-want +got):\n%s", d)
	}
	for _, n := range want {
		if _, err := importers.Lookup(n); err != nil {
			t.Error(err)
		}
		if importers.Summary()[n] == "" {
			t.Errorf("no summary for %s", n)
		}
	}
}

func TestSanitizeServer(t *testing.T) {
	for in, want := range map[string]string{"": "unknown", "a/b": "a__b", "x@1": "x_1", "ok-name_1.2": "ok-name_1.2", "..": "unknown", "sp ace": "sp_ace"} {
		if got := importers.SanitizeServer(in); got != want {
			t.Errorf("SanitizeServer(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestImportFailuresNameTheInput pins that an import whose inputs hold no
// session fails (exit status 2) instead of writing an empty trace with exit
// status 0, and that an input's error is reported as it is, without the
// hidden staging file's name that used to prefix it ("write
// .out.jsonl.new-XXXX: in.json: …").
func TestImportFailuresNameTheInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	empty := write("empty.json", "")
	list := write("list.json", "[]")
	// (A trace v1 file stops earlier, as already a trace: TestImportOfATrace.)
	lines := write("lines.jsonl", `{"type":"note","text":"s","t":"2026-03-02T09:00:00Z"}`+"\n")
	trunc := write("trunc.json", `[{"traj": [`)
	for _, tc := range []struct {
		name   string
		format string
		inputs []string
		want   string
	}{
		{"empty list, tau-bench", "tau-bench", []string{list},
			list + ": no tau-bench session in it: 0 sessions to import (is --from tau-bench the format of the input?)"},
		{"empty file, openai-messages", "openai-messages", []string{empty},
			empty + ": no openai-messages session in it: 0 sessions to import (is --from openai-messages the format of the input?)"},
		{"empty list, anthropic-messages", "anthropic-messages", []string{list},
			list + ": no anthropic-messages session in it: 0 sessions to import (is --from anthropic-messages the format of the input?)"},
		{"JSON Lines without sessionId, claude-code", "claude-code", []string{lines},
			lines + ": no claude-code session in it: 0 sessions to import (is --from claude-code the format of the input?); not mapped: line without sessionId before any session"},
		{"two inputs, none with a session", "claude-code", []string{lines, empty},
			"no claude-code session in any of the 2 inputs: 0 sessions to import (is --from claude-code the format of the inputs?); not mapped: line without sessionId before any session"},
		{"truncated JSON", "tau-bench", []string{trunc},
			"trunc.json: line 1 col 12: unexpected end of JSON input"},
		// An input without a session beside others that have some: the
		// import succeeds and its report says so.
		{"one input of two without a session", "tau-bench",
			[]string{filepath.Join("taubench", "testdata", "test-model-airline.json"), list}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, "out", strings.ReplaceAll(tc.name, " ", "-")+".jsonl")
			rep, err := importers.Run(importers.Request{Format: tc.format, Inputs: tc.inputs, Out: out})
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if note := "list.json: no session found in it"; !slices.Contains(rep.Notes, note) {
					t.Errorf("notes %q lack %q", rep.Notes, note)
				}
				return
			}
			if err == nil || err.Error() != tc.want {
				t.Fatalf("error = %v\nwant      %s", err, tc.want)
			}
			entries, _ := os.ReadDir(filepath.Dir(out))
			for _, e := range entries {
				t.Errorf("the failed import left %s", e.Name())
			}
		})
	}
}

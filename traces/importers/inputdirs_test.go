package importers_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/traces/importers"
)

// TestSWEAgentDirectoryInput pins that `trace import --from swe-agent DIR`
// reads DIR's .traj files at any depth, in path order, as if they were
// given one by one: it failed with "is a directory", while SWE-agent
// writes a directory per run and users hold a directory of runs.
func TestSWEAgentDirectoryInput(t *testing.T) {
	dir := filepath.Join("sweagent", "testdata") // two run directories beside golden files
	files := []string{
		filepath.Join(dir, "fc-run", "demo__widget-2.traj"),
		filepath.Join(dir, "tinymodel__demo-set__default__t-0.00__p-0.95__c-1.00__install-1", "demo__widget-1.traj"),
	}
	var traces [2][]byte
	for i, inputs := range [][]string{{dir}, files} {
		out := filepath.Join(t.TempDir(), "out.jsonl")
		rep, err := importers.Run(importers.Request{Format: "swe-agent", Inputs: inputs, Out: out})
		if err != nil {
			t.Fatalf("inputs %v: %v", inputs, err)
		}
		if !slices.Equal(rep.Inputs, files) || rep.Sessions != 2 {
			t.Errorf("inputs %v: read %v, %d sessions; want %v, 2 sessions", inputs, rep.Inputs, rep.Sessions, files)
		}
		if traces[i], err = os.ReadFile(out); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(traces[0], traces[1]) {
		t.Errorf("the trace of the directory differs from that of its files given one by one")
	}
}

// TestDirectoryInputRefused pins what a directory input gets from a format
// that reads files only, and from swe-agent when it holds no .traj file:
// an error that says what to pass, not the operating system's "is a
// directory" from deep in the importer. The pattern it gives must match
// files: it advised DIR/*.json for a ToolBench answer directory, whose
// files are one level down (answer/G1_answer/*.json), so the pasted advice
// matched nothing.
func TestDirectoryInputRefused(t *testing.T) {
	empty := t.TempDir()
	nested := t.TempDir() // as ToolBench's data/answer: G1_answer/*.json, G2_answer/*.json
	for _, f := range []string{"G1_answer/1_a.json", "G1_answer/2_a.json", "G2_answer/3_a.json", "G2_answer/deeper/4_a.json", "notes.txt"} {
		p := filepath.Join(nested, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("[]"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sep := string(filepath.Separator)
	for _, tc := range []struct {
		format, input, want string
	}{
		{"tau-bench", "testdata", "testdata: is a directory; --from tau-bench reads files, one or more per input: pass them (the .json files nearest its top: testdata" + sep + "*.json, 3 files)"},
		{"openai-messages", "testdata", "(the .jsonl files nearest its top: testdata" + sep + "*.jsonl, 3 files)"},
		{"claude-code", "testdata" + sep, "(the .jsonl files nearest its top: testdata" + sep + "*.jsonl, 3 files)"},
		{"toolbench", nested, "(the .json files nearest its top: " + nested + sep + "*" + sep + "*.json, 3 files)"},
		{"toolbench", empty, "is a directory, and holds no .json file at any depth; --from toolbench reads .json files, one or more per input"},
		{"swe-agent", empty, "directory holds no .traj file, at any depth (--from swe-agent reads those)"},
	} {
		_, err := importers.Run(importers.Request{Format: tc.format, Inputs: []string{tc.input}, Out: filepath.Join(t.TempDir(), "out.jsonl")})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("--from %s %s: err = %v, want it to hold %q", tc.format, tc.input, err, tc.want)
		}
	}
}

// TestDirectoryAdviceOnSharedToolBench pins docs/importers.md's quote: the
// shared ToolBench answer directory, given whole, gets the pattern of its
// answer files one level down, and that pattern matches them all.
func TestDirectoryAdviceOnSharedToolBench(t *testing.T) {
	dir := shareddata.Path(t, "sessions", "toolbench", "data_example", "answer")
	_, err := importers.Run(importers.Request{Format: "toolbench", Inputs: []string{dir}, Out: filepath.Join(t.TempDir(), "out.jsonl")})
	pattern := filepath.Join(dir, "*", "*.json")
	files, gerr := filepath.Glob(pattern)
	if gerr != nil || len(files) == 0 {
		t.Fatalf("glob %s: %d files, %v", pattern, len(files), gerr)
	}
	want := fmt.Sprintf("(the .json files nearest its top: %s, %d files)", pattern, len(files))
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v, want it to hold %q", err, want)
	}
	page, rerr := os.ReadFile(filepath.Join("..", "..", "docs", "importers.md"))
	if rerr != nil {
		t.Fatal(rerr)
	}
	if quote := fmt.Sprintf("answer/*/*.json, %d files)", len(files)); !strings.Contains(string(page), quote) {
		t.Errorf("docs/importers.md does not quote %q", quote)
	}
}

package importers_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

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
// directory" from deep in the importer.
func TestDirectoryInputRefused(t *testing.T) {
	empty := t.TempDir()
	for _, tc := range []struct {
		format, input, want string
	}{
		{"tau-bench", "testdata", "testdata: is a directory; --from tau-bench reads files, one or more per input: pass them (testdata/*.json)"},
		{"openai-messages", "testdata", "testdata: is a directory; --from openai-messages reads files, one or more per input: pass them (testdata/*.jsonl)"},
		{"claude-code", "testdata", "(testdata/*.jsonl)"},
		{"swe-agent", empty, "directory holds no .traj file, at any depth (--from swe-agent reads those)"},
	} {
		_, err := importers.Run(importers.Request{Format: tc.format, Inputs: []string{tc.input}, Out: filepath.Join(t.TempDir(), "out.jsonl")})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("--from %s %s: err = %v, want it to hold %q", tc.format, tc.input, err, tc.want)
		}
	}
}

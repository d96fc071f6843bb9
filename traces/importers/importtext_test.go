package importers_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/defersim/defersim/traces/importers"
	"github.com/defersim/defersim/traces/importers/ingest"
)

// importText imports input, written to a file, as format, and returns the
// report and the path of the trace written.
func importText(t *testing.T, format, input string) (*ingest.Report, string) {
	t.Helper()
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.jsonl"), filepath.Join(dir, "t.jsonl")
	if err := os.WriteFile(in, []byte(input+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := importers.Run(importers.Request{Format: format, Inputs: []string{in}, Out: out})
	if err != nil {
		t.Fatal(err)
	}
	return rep, out
}

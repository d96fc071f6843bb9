package importers_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/defersim/defersim/traces/importers"
)

// TestImportOfATrace pins that an import given a defersim trace (plain or
// gzip, alone or beside an input of the format) stops under every --from,
// saying it is already a trace that needs no import and naming the
// commands that read it (the path quoted for a shell when it needs it),
// and writes nothing. It used to stop with the importer's own error
// ("[0]: want a JSON object: invalid character '{' after top-level
// value"), or, under claude-code beside other inputs, to skip it with a
// note.
func TestImportOfATrace(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join("..", "testdata", "small.jsonl")
	gz := filepath.Join("..", "..", "scenarios", "default", "trace.jsonl.gz")
	data, err := os.ReadFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	spaced := filepath.Join(dir, "my trace.jsonl")
	if err := os.WriteFile(spaced, data, 0o644); err != nil {
		t.Fatal(err)
	}
	const msg = `%s: already a defersim trace (its first record is a session_start with "v": 1): it needs no import; ` +
		`replay it with defersim run --traces %s, check it with defersim trace validate %s`
	session := filepath.Join("claudecode", "testdata", "session.jsonl")
	tests := []struct {
		name   string
		inputs []string
		trace  string // the input the error names
		quoted string // as the commands name it
	}{
		{"plain", []string{plain}, plain, plain},
		{"gzip", []string{gz}, gz, gz},
		{"beside another input", []string{session, plain}, plain, plain},
		{"path with a space", []string{spaced}, spaced, "'" + spaced + "'"},
	}
	for _, tt := range tests {
		for _, from := range importers.Names() {
			t.Run(tt.name+" as "+from, func(t *testing.T) {
				out := filepath.Join(dir, tt.name+"-"+from, "out.jsonl")
				_, err := importers.Run(importers.Request{Format: from, Inputs: tt.inputs, Out: out})
				want := fmt.Sprintf(msg, tt.trace, tt.quoted, tt.quoted)
				if err == nil || err.Error() != want {
					t.Fatalf("error = %v\nwant      %s", err, want)
				}
				if _, err := os.Stat(out); !os.IsNotExist(err) {
					t.Errorf("output written (stat: %v)", err)
				}
			})
		}
	}
}

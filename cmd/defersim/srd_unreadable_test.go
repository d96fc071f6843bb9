package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSRDLintUnreadableExitsTwo pins srd lint's exit status on a file that
// cannot be read as YAML (a syntax error, bytes that are not UTF-8): 2, as
// for bad input (docs/cli.md), with the file, line and reason printed and
// in the error, and the other files' problems still listed; it exited 1, as
// for a rule broken. A rule broken alone still exits 1.
func TestSRDLintUnreadableExitsTwo(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	rules := filepath.Join("..", "..", "srd", "testdata", "lint", "rules.yaml")
	syntax := write("syntax.yaml", "srd_version: 1\nserver_id: [x\n")
	latin1 := write("latin1.yaml", "srd_version: 1\nserver_id: caf\xe9\n")
	for _, tc := range []struct {
		name  string
		files []string
		code  int
		want  []string
	}{
		{"syntax error", []string{syntax}, 2, []string{"syntax.yaml:2: invalid YAML: did not find expected ',' or ']'"}},
		{"not UTF-8", []string{latin1}, 2, []string{"latin1.yaml:2: not UTF-8: byte 0xE9 at column 15"}},
		{"with a rule broken", []string{rules, syntax}, 2, []string{"rules.yaml:13: priority: 12 is out of bounds (0..10)", "syntax.yaml:2: invalid YAML:"}},
		{"a rule broken alone", []string{rules}, 1, []string{"rules.yaml:13: priority: 12 is out of bounds (0..10)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, code := runSRDCmd(t, append([]string{"lint"}, tc.files...)...)
			if code != tc.code {
				t.Errorf("exit %d, want %d; output:\n%s", code, tc.code, out)
			}
			root := newRootCmd()
			root.SetOut(io.Discard)
			root.SetErr(io.Discard)
			root.SetArgs(append([]string{"srd", "lint"}, tc.files...))
			err := root.Execute()
			if wantErr := "1 file cannot be read as SRD YAML or JSON (first: " + tc.files[len(tc.files)-1] + ":"; tc.code == 2 && (err == nil || !strings.HasPrefix(err.Error(), wantErr)) {
				t.Errorf("error %v, want it to start %q", err, wantErr)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

package main

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/mcpsnap"
	"github.com/defersim/defersim/internal/mcpsnap/fakemcp"
)

// TestCatalogSnapshotWarnsOfNotes pins that `catalog snapshot` of a server
// serving no tools, or serving a tool without inputSchema, warns on stderr
// naming the server and tools and records the notes in the metadata
// ("notes"), exiting 0 unless --fail-on-notes; a clean server gets no
// warning and no notes. Before, such a snapshot was written without a word
// and only a later run mentioned it among its input notes.
func TestCatalogSnapshotWarnsOfNotes(t *testing.T) {
	for _, tc := range []struct {
		name, mode string
		strict     bool
		kind       string // the note's kind; "" none
		warning    string // in stderr
		code       int
	}{
		{"clean", fakemcp.ModeOK, true, "", "", 0},
		{"no tools", fakemcp.ModeNoTools, false, catalog.NoteNoTools, "1 server version serves no tools (the file lists none): fake@9.9", 0},
		{"no input schema", fakemcp.ModeNoSchema, false, catalog.NoteSchemaMissing, `1 tool has no inputSchema, read as {"type":"object"}: fake@9.9: tools[7] "theta_bare"`, 0},
		{"no input schema, --fail-on-notes", fakemcp.ModeNoSchema, true, catalog.NoteSchemaMissing, `tools[7] "theta_bare"`, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			args := []string{"catalog", "snapshot", "-o", dir, "--captures", "1", "--name", "fake", "--version", "9.9"}
			if tc.strict {
				args = append(args, "--fail-on-notes")
			}
			root := newRootCmd()
			var stdout, stderr bytes.Buffer
			root.SetOut(&stdout)
			root.SetErr(&stderr)
			root.SetArgs(append(args, fakeArgs(tc.mode)...))
			err := root.Execute()
			code := 0
			var ex exitError
			if errors.As(err, &ex) {
				code = ex.code
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.code {
				t.Fatalf("exit %d (%v), want %d\nstdout:\n%s\nstderr:\n%s", code, err, tc.code, stdout.String(), stderr.String())
			}
			path := filepath.Join(dir, "fake@9.9.json")
			if !strings.Contains(stdout.String(), "wrote "+path) {
				t.Errorf("the snapshot was not written:\n%s", stdout.String())
			}
			if tc.warning == "" && strings.Contains(stderr.String(), "warning") || !strings.Contains(stderr.String(), tc.warning) {
				t.Errorf("stderr %q, want the warning %q", stderr.String(), tc.warning)
			}
			if strings.Contains(stdout.String(), "warning") {
				t.Errorf("a warning went to stdout:\n%s", stdout.String())
			}
			m, err := mcpsnap.ReadMeta(mcpsnap.MetaPath(path))
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tc.kind == "" && len(m.Notes) != 0:
				t.Errorf("meta notes %+v, want none", m.Notes)
			case tc.kind != "" && (len(m.Notes) != 1 || m.Notes[0].Kind != tc.kind || m.Notes[0].Count != 1):
				t.Errorf("meta notes %+v, want one %s", m.Notes, tc.kind)
			}
		})
	}
}

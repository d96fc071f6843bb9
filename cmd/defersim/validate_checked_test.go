package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestValidateJSONSaysWhatWasChecked pins that trace validate --format
// json says which tool names were checked, as the text does: run.checked
// is true only when every file's tool names were resolved against
// catalogs, and files[].tool_names_checked says it per file. Before, a
// trace with no catalog (run would stop: runner.NoCatalogError) and an
// unreadable file gave run.checked: true while the text said "tool names
// NOT checked".
func TestValidateJSONSaysWhatWasChecked(t *testing.T) {
	dir := t.TempDir()
	trace, err := os.ReadFile(filepath.Join("testdata", "filechecks", "trace.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	tracePath := filepath.Join(dir, "trace.jsonl")
	if err := os.WriteFile(tracePath, trace, 0o644); err != nil {
		t.Fatal(err)
	}
	cats := filepath.Join("testdata", "filechecks", "toolname")
	missing := filepath.Join(dir, "missing.jsonl")
	tests := []struct {
		name         string
		args         []string
		checked      bool
		stops        bool
		filesChecked []bool
		text         string // in the text output
	}{
		{"no catalog", []string{tracePath}, false, true, []bool{false}, "tool names NOT checked"},
		{"--catalogs", []string{"--catalogs", cats, tracePath}, true, false, []bool{true}, "run: 0 of 1 tool call"},
		{"--no-catalogs", []string{"--no-catalogs", tracePath}, false, false, []bool{false}, "run: tool names NOT checked (--no-catalogs)"},
		{"an unreadable file", []string{"--catalogs", cats, tracePath, missing}, false, true, []bool{true, false}, "run would stop: 1 of 2 trace files"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, _, _ := cliRun(t, append([]string{"trace", "validate", "--format", "json"}, tc.args...)...)
			var rep struct {
				Files []struct {
					ToolNamesChecked *bool `json:"tool_names_checked"`
				} `json:"files"`
				Run struct {
					Checked bool `json:"checked"`
					Stops   bool `json:"stops"`
				} `json:"run"`
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if rep.Run.Checked != tc.checked || rep.Run.Stops != tc.stops {
				t.Errorf("run.checked %v stops %v, want %v %v\n%s", rep.Run.Checked, rep.Run.Stops, tc.checked, tc.stops, out)
			}
			if len(rep.Files) != len(tc.filesChecked) {
				t.Fatalf("%d files, want %d", len(rep.Files), len(tc.filesChecked))
			}
			for i, f := range rep.Files {
				if f.ToolNamesChecked == nil || *f.ToolNamesChecked != tc.filesChecked[i] {
					t.Errorf("files[%d].tool_names_checked = %v, want %v", i, f.ToolNamesChecked, tc.filesChecked[i])
				}
			}
			text, errText, _ := cliRun(t, append([]string{"trace", "validate"}, tc.args...)...)
			if !strings.Contains(text+errText, tc.text) {
				t.Errorf("text lacks %q:\n%s%s", tc.text, text, errText)
			}
		})
	}
}

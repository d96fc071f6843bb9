package calibrate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestHeldOutTracesRelativeToScenario pins that the held-out trace file
// calibrate writes beside the scenario is named in its traces: relative to
// the scenario's directory, whether -o is absolute or relative (an absolute
// -o used to write traces: as an absolute path while catalogs: was
// relative), and that the written scenario loads and finds it.
func TestHeldOutTracesRelativeToScenario(t *testing.T) {
	trace, cat := recorded(t)
	tests := []struct {
		name string
		out  func(dir string) string // the -o path, given the working directory
	}{
		{"absolute -o", func(dir string) string { return filepath.Join(dir, "out", "cal.yaml") }},
		{"relative -o", func(string) string { return filepath.Join("out", "cal.yaml") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir)
			res, err := Run(context.Background(), config(t, trace, cat, "claude-sonnet-4.5", FitOn{Kind: FitEven}))
			if err != nil {
				t.Fatal(err)
			}
			out := tt.out(dir)
			if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
				t.Fatal(err)
			}
			ws, err := WriteScenarios(res, ScenarioOptions{Path: out, Catalogs: []string{cat}, Seed: 1, Inputs: []string{trace, cat}})
			if err != nil {
				t.Fatal(err)
			}
			if len(ws) != 1 || ws[0].HeldOut == "" {
				t.Fatalf("written %+v", ws)
			}
			var doc struct {
				Traces []string `yaml:"traces"`
			}
			if err := yaml.Unmarshal(ws[0].YAML, &doc); err != nil {
				t.Fatal(err)
			}
			if want := []string{"cal.held-out.jsonl.gz"}; strings.Join(doc.Traces, ",") != strings.Join(want, ",") {
				t.Errorf("traces: %q, want %q\n%s", doc.Traces, want, ws[0].YAML)
			}
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(data), "\n  - cal.held-out.jsonl.gz\n") {
				t.Errorf("written file does not name the held-out traces relatively:\n%s", data)
			}
		})
	}
}

package main

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/runner"
)

// TestJobInputsReadTheScenarioCatalogs pins that recommend and calibrate
// read a --scenario's catalogs on disk for traces without a catalog of
// their own, as run --traces does under that scenario, and say so: they
// stopped with "no catalog: pass --catalogs DIR (the traces name none and
// none is beside them)", not saying the scenario's catalogs went unread.
// The embedded default's (no --scenario) and a scenario's embedded ones
// are still not taken for other traces.
func TestJobInputsReadTheScenarioCatalogs(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"logs", "cat"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	trace := filepath.Join(dir, "logs", "t.jsonl")
	line := `{"v":1,"type":"session_start","session":"s1","t":"2026-01-01T00:00:00Z","model":"gpt-4o"}` + "\n"
	if err := os.WriteFile(trace, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	write := func(name, catalogs string) string {
		p := filepath.Join(dir, name)
		doc := "name: " + strings.TrimSuffix(name, ".yaml") + "\ntraces: [logs/t.jsonl]\ncatalogs: " + catalogs + "\nmodel: gpt-4o\nstrategies: [eager]\n"
		if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	onDisk := write("disk.yaml", "[cat]")
	embedded := write("sample.yaml", "[embedded:catalog]")
	for _, tc := range []struct {
		name, scenario string
		want           []string // nil: stops with runner.NoCatalogError
		note           string
	}{
		{"scenario catalogs on disk", onDisk, []string{filepath.Join(dir, "cat")}, "reading scenario disk's catalogs (" + filepath.Join(dir, "cat") + "), as run --traces does"},
		{"scenario catalogs embedded", embedded, nil, ""},
		{"no --scenario", "", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr strings.Builder
			in, err := jobInputs(&stderr, tc.scenario, "", nil, []string{trace})
			if tc.want == nil {
				var nc runner.NoCatalogError
				if !errors.As(err, &nc) {
					t.Fatalf("err %v: want the no-catalog error", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(in.catalogs, tc.want) || !strings.Contains(stderr.String(), tc.note) {
				t.Errorf("catalogs %q, stderr %q: want %q and %q", in.catalogs, stderr.String(), tc.want, tc.note)
			}
		})
	}
}

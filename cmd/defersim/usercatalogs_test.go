package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUserCatalogSources pins how run and trace validate take a user's
// --catalogs: validate accepts a single file as run does (it refused with
// "not a directory"), and two sources holding one server version with
// different tools stop both with the two files named (run let the later
// source win, so the order of --catalogs changed the cost).
func TestUserCatalogSources(t *testing.T) {
	dir := t.TempDir()
	g := filepath.Join(dir, "g")
	if _, errs, code := cliIn(t, nil, "trace", "gen", "-q", "-o", g, "--sessions", "3", "--seed", "1"); code != 0 {
		t.Fatalf("trace gen: exit %d: %s", code, errs)
	}
	trace, cat := filepath.Join(g, "trace.jsonl.gz"), filepath.Join(g, "catalog")
	entries, err := os.ReadDir(cat)
	if err != nil || len(entries) == 0 {
		t.Fatalf("catalog dir: %v", err)
	}
	first := entries[0].Name()
	other := filepath.Join(dir, "other")
	if err := os.Mkdir(other, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, first), []byte(`[{"name":"x","inputSchema":{"type":"object"}}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	conflict := "is in " + filepath.Join(cat, first) + " and in " + filepath.Join(other, first) + " with different tools: keep one"
	tests := []struct {
		name string
		args []string
		code int
		want string // in the output
	}{
		{"validate one file", []string{"trace", "validate", trace, "--catalogs", filepath.Join(cat, first)}, 1, "which no catalog knows"},
		{"validate the directory", []string{"trace", "validate", trace, "--catalogs", cat}, 0, "0 problems"},
		{"validate the same directory twice", []string{"trace", "validate", trace, "--catalogs", cat + "," + cat}, 0, "0 problems"},
		{"validate conflicting sources", []string{"trace", "validate", trace, "--catalogs", cat + "," + other}, 2, conflict},
		{"run conflicting sources", []string{"run", "-q", "--traces", trace, "--catalogs", cat, "--catalogs", other, "--strategies", "eager", "-o", filepath.Join(dir, "r")}, 2, conflict},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := cliIn(t, nil, tc.args...)
			if code != tc.code || !strings.Contains(out+errs, tc.want) {
				t.Fatalf("exit %d (want %d), output does not contain %q:\n%s%s", code, tc.code, tc.want, out, errs)
			}
		})
	}
}

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCatalogStatsJSONHasItsWarnings pins that `catalog stats --format
// json` records the warnings it gives on stderr of a file without
// @VERSION read as the oldest version (versionless) and of a server
// version read from two paths and counted once (counted_once): the JSON
// had neither, so a script reading it did not know a file was counted as
// another version or a copy left out. Clean catalogs have neither key.
func TestCatalogStatsJSONHasItsWarnings(t *testing.T) {
	const tool = `[{"name":"greet","description":"Say hello.","inputSchema":{"type":"object"}}]`
	tests := []struct {
		name              string
		files             []string // under dir; a/ and b/ are given as PATHs
		versionless, once int
	}{
		{"clean", []string{"a/fs@1.0.json", "a/fs@2.0.json"}, 0, 0},
		{"both", []string{"a/fs.json", "a/fs@2.0.json", "b/fs@2.0.json"}, 1, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range append(tc.files, "b/gh@1.json") {
				p := filepath.Join(dir, f)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(tool), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			out, errs, code := cliRun(t, "catalog", "stats", "--counters", "bytes/4", "--format", "json", filepath.Join(dir, "a"), filepath.Join(dir, "b"))
			if code != 0 {
				t.Fatalf("exit %d\n%s", code, errs)
			}
			var st struct {
				Versionless []string `json:"versionless"`
				CountedOnce []string `json:"counted_once"`
			}
			if err := json.Unmarshal([]byte(out), &st); err != nil {
				t.Fatalf("%v:\n%s", err, out)
			}
			if len(st.Versionless) != tc.versionless || len(st.CountedOnce) != tc.once {
				t.Fatalf("versionless %q, counted_once %q; want %d and %d", st.Versionless, st.CountedOnce, tc.versionless, tc.once)
			}
			for _, w := range append(st.Versionless, st.CountedOnce...) {
				if !strings.Contains(errs, "defersim: warning: "+w+"\n") {
					t.Errorf("JSON %q is not the warning stderr gives:\n%s", w, errs)
				}
			}
		})
	}
}

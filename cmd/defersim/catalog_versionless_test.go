package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCatalogCmdsNameFilesWithoutVersion pins that `catalog stats` and
// `catalog history` warn of a file whose name has no @VERSION read beside
// versions of its server (it is read as the oldest one), and that stats'
// "counted:" line writes its version as "(no version)". Before, both said
// nothing, and the line read "fs: 2.0 counted;  not counted". Alone, or
// beside other servers only, such a file draws no warning.
func TestCatalogCmdsNameFilesWithoutVersion(t *testing.T) {
	const tool = `[{"name":"greet","description":"Say hello.","inputSchema":{"type":"object"}}]`
	tests := []struct {
		name  string
		files []string
		warn  string // "" when none
		line  string // in stats' stdout
	}{
		{"beside a version", []string{"fs.json", "fs@2.0.json"},
			`fs.json: no version, so it is read as the oldest version of fs, before 2.0: name the file fs@VERSION.json (in a manifest, give its entry a version), or move it out`,
			"fs: 2.0 counted; (no version) not counted"},
		{"beside two versions", []string{"fs@1.10.json", "fs.json", "fs@1.9.json"}, "oldest version of fs, before 1.9, 1.10:", "fs: 1.10 counted; (no version), 1.9 not counted"},
		{"alone", []string{"fs.json"}, "", ""},
		{"beside another server", []string{"fs.json", "gh@2.0.json"}, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, f), []byte(tool), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			statsOut, statsErr, code := cliRun(t, "catalog", "stats", "--counters", "bytes/4", dir)
			if code != 0 {
				t.Fatalf("stats: exit %d\n%s", code, statsErr)
			}
			_, histErr, code := cliRun(t, "catalog", "history", dir)
			if code != 0 {
				t.Fatalf("history: exit %d\n%s", code, histErr)
			}
			for what, stderr := range map[string]string{"stats": statsErr, "history": histErr} {
				if tc.warn == "" {
					if strings.Contains(stderr, "no version") {
						t.Errorf("%s warns:\n%s", what, stderr)
					}
					continue
				}
				if !strings.Contains(stderr, "warning: "+filepath.Join(dir, "fs.json")+": ") || !strings.Contains(stderr, tc.warn) ||
					!strings.Contains(stderr, "warning: 1 file without @VERSION read as the oldest version of its server") {
					t.Errorf("%s stderr lacks %q:\n%s", what, tc.warn, stderr)
				}
			}
			if !strings.Contains(statsOut, tc.line) {
				t.Errorf("stats lacks %q:\n%s", tc.line, statsOut)
			}
		})
	}
}

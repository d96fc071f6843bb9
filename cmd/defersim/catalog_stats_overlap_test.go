package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCatalogStatsCountsOverlappingPathsOnce pins that `catalog stats`
// counts a server version once when its PATHs overlap: DIR DIR printed
// "TOTAL (4 servers)" over two, and DIR DIR/file.json counted the file
// twice. Each version skipped is named on stderr; the same version with
// other tools in two PATHs is an error naming both files, as run
// --catalogs A B says.
func TestCatalogStatsCountsOverlappingPathsOnce(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a/fs@1.0.json":     `{"tools":[{"name":"read","inputSchema":{"type":"object"}}]}`,
		"a/fs@2.0.json":     `{"tools":[{"name":"read","inputSchema":{"type":"object"}},{"name":"write","inputSchema":{"type":"object"}}]}`,
		"a/clock@1.0.json":  `{"tools":[{"name":"now","inputSchema":{"type":"object"}}]}`,
		"b/clock@1.0.json":  `{"tools":[{"name":"now","inputSchema":{"type":"object"}}]}`,
		"c/clock@1.0.json":  `{"tools":[{"name":"now","description":"other","inputSchema":{"type":"object"}}]}`,
		"d/clock@v1.0.json": `{"tools":[{"name":"now","inputSchema":{"type":"object"}}]}`,
	}
	writeTree(t, dir, files)
	a := filepath.Join(dir, "a")
	for _, tc := range []struct {
		name       string
		args       []string
		wantOut    []string
		notWantOut []string
		wantErr    []string
	}{
		{"one directory twice", []string{a, a}, []string{"TOTAL (2 servers, latest versions)", "1 older version read, not counted"},
			[]string{"4 servers"}, []string{"clock@1.0: " + filepath.Join(a, "clock@1.0.json") + " read twice, counted once",
				"warning: 3 server versions read from more than one PATH"}},
		{"a directory and a file in it", []string{a, filepath.Join(a, "clock@1.0.json")}, []string{"TOTAL (2 servers, latest versions)"},
			[]string{"3 servers", "3 versions"}, []string{"warning: 1 server version read from more than one PATH"}},
		{"an older version given by name", []string{filepath.Join(a, "fs@1.0.json"), a}, []string{"TOTAL (3 versions of 2 servers)"},
			[]string{"not counted"}, []string{"fs@1.0: " + filepath.Join(a, "fs@1.0.json") + " read twice"}},
		{"a copy with the same tools", []string{a, filepath.Join(dir, "b")}, []string{"TOTAL (2 servers, latest versions)"},
			nil, []string{"clock@1.0: " + filepath.Join(dir, "b", "clock@1.0.json") + " holds the same tools as " + filepath.Join(a, "clock@1.0.json")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := cliRun(t, append([]string{"catalog", "stats", "--top", "0"}, tc.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			checkOutput(t, "stdout", stdout, tc.wantOut, tc.notWantOut)
			checkOutput(t, "stderr", stderr, tc.wantErr, nil)
		})
	}
	for _, tc := range []struct {
		name  string
		other string
		want  []string
	}{
		{"other tools", "c", []string{"server version clock@1.0 is in " + filepath.Join(a, "clock@1.0.json") + " and in " + filepath.Join(dir, "c", "clock@1.0.json") + " with different tools: keep one"}},
		{"spelled two ways", "d", []string{"clock@1.0 (" + filepath.Join(a, "clock@1.0.json") + ") and clock@v1.0", "the same version spelled two ways"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := cliRun(t, "catalog", "stats", a, filepath.Join(dir, tc.other))
			if code == 0 {
				t.Fatal("exit 0, want an error")
			}
			checkOutput(t, "stderr", stderr, tc.want, nil)
		})
	}
}

// writeTree writes files (slash-separated paths relative to dir → content)
// under dir, making the directories they need.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

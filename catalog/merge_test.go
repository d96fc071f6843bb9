package catalog

import (
	"strings"
	"testing"
)

// TestVersionsSpelledTwoWays pins that a directory holding one series
// version under two spellings (1.10.0 and v1.10.0) stops with both files
// named; before, both loaded and the bytewise "latest" (v1.10.0) was used,
// with a spurious release 1.10.0 → v1.10.0 in catalog history.
func TestVersionsSpelledTwoWays(t *testing.T) {
	tests := []struct {
		name  string
		files []string
		want  string // "" for no error
	}{
		{"v prefix", []string{"fs@1.10.0.json", "fs@v1.10.0.json"}, "fs@1.10.0 (DIR/fs@1.10.0.json) and fs@v1.10.0 (DIR/fs@v1.10.0.json) are the same version spelled two ways"},
		{"trailing zero", []string{"fs@1.2.json", "fs@1.2.0.json"}, "are the same version spelled two ways"},
		{"no version and 0", []string{"fs.json", "fs@0.json"}, "are the same version spelled two ways"},
		{"different variants", []string{"fs@1.2.json", "fs@1.2.0+wide.json"}, ""},
		{"different versions", []string{"fs@1.2.json", "fs@1.2.1.json", "fs@1.10.json"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range tc.files {
				writeFile(t, dir, f, `[`+toolGreet+`]`)
			}
			_, err := LoadDir(dir)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			want := strings.ReplaceAll(tc.want, "DIR", dir)
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("error = %v, want it to contain %q", err, want)
			}
		})
	}
}

// TestMergeSources pins how servers from several sources (run --catalogs
// A --catalogs B) merge: the same version with the same tools is kept once;
// with different tools, or spelled two ways, it is an error. Before, the
// later source silently replaced the earlier, so the order of --catalogs
// changed the results.
func TestMergeSources(t *testing.T) {
	srv := func(version, tool, source string) *Server {
		t.Helper()
		s, err := Parse([]byte(`[`+tool+`]`), "fs", version, "")
		if err != nil {
			t.Fatal(err)
		}
		s.Source = source
		return s
	}
	tests := []struct {
		name     string
		servers  []*Server
		want     string // the error, or "" for none
		versions int    // of fs, when no error
	}{
		{"same tools twice", []*Server{srv("1.0", toolGreet, "a/fs@1.0.json"), srv("1.0", toolGreet, "b/fs@1.0.json")}, "", 1},
		{"different tools", []*Server{srv("1.0", toolGreet, "a/fs@1.0.json"), srv("1.0", toolAdd, "b/fs@1.0.json")}, "server version fs@1.0 is in a/fs@1.0.json and in b/fs@1.0.json with different tools: keep one", 0},
		{"spelled two ways", []*Server{srv("1.0", toolGreet, "a/fs@1.0.json"), srv("v1.0", toolGreet, "b/fs@v1.0.json")}, "fs@1.0 (a/fs@1.0.json) and fs@v1.0 (b/fs@v1.0.json) are the same version spelled two ways", 0},
		{"different versions", []*Server{srv("1.0", toolGreet, "a/fs@1.0.json"), srv("1.1", toolAdd, "b/fs@1.1.json")}, "", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Merge(tc.servers)
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("error = %v, want it to contain %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if n := len(c.Versions["fs"]); n != tc.versions {
				t.Errorf("%d versions of fs, want %d", n, tc.versions)
			}
		})
	}
}

package main

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"
)

// TestCatalogStatsLatestAcrossPaths pins that `catalog stats` counts a
// server's latest version across every PATH given, not the latest of each
// PATH: a directory of old captures beside one of new ones counted a
// server twice ("TOTAL (3 versions of 2 servers)" for fs 2.0 in one and
// fs 3.0 in the other). The versions read of each server are listed, text
// and JSON, whatever the order of the PATHs; a version given by name is
// still counted, and a newer one given by name makes a directory's latest
// not counted.
func TestCatalogStatsLatestAcrossPaths(t *testing.T) {
	dir := t.TempDir()
	tool := func(names ...string) string {
		out := `{"tools":[`
		for i, n := range names {
			if i > 0 {
				out += ","
			}
			out += `{"name":"` + n + `","inputSchema":{"type":"object"}}`
		}
		return out + "]}"
	}
	files := map[string]string{
		"old/fs@1.0.json":    tool("read"),
		"old/fs@2.0.json":    tool("read", "write"),
		"old/clock@1.0.json": tool("now"),
		"new/fs@3.0.json":    tool("read", "write", "stat"),
		"pin/fs@4.0.json":    tool("read", "write", "stat", "chmod"),
	}
	writeTree(t, dir, files)
	old, newer := filepath.Join(dir, "old"), filepath.Join(dir, "new")
	for _, tc := range []struct {
		name       string
		args       []string
		want       []string
		notWant    []string
		counted    []string // servers[].server, in order
		notCounted []string
	}{
		{"old then new", []string{old, newer},
			[]string{"TOTAL (2 servers, latest versions)", "  fs: 3.0 counted; 1.0, 2.0 not counted\n"},
			[]string{"fs@2.0 ", "versions of"}, []string{"clock@1.0", "fs@3.0"}, []string{"fs@1.0", "fs@2.0"}},
		{"new then old", []string{newer, old},
			[]string{"TOTAL (2 servers, latest versions)", "  fs: 3.0 counted; 1.0, 2.0 not counted\n"},
			[]string{"fs@2.0 ", "versions of"}, []string{"fs@3.0", "clock@1.0"}, []string{"fs@1.0", "fs@2.0"}},
		{"an older version given by name", []string{filepath.Join(old, "fs@1.0.json"), newer, old},
			[]string{"TOTAL (3 versions of 2 servers)", "  fs: 1.0, 3.0 counted; 2.0 not counted\n"},
			nil, []string{"fs@1.0", "fs@3.0", "clock@1.0"}, []string{"fs@2.0"}},
		{"a newer version given by name", []string{old, newer, filepath.Join(dir, "pin", "fs@4.0.json")},
			[]string{"TOTAL (2 servers, latest versions)", "  fs: 4.0 counted; 1.0, 2.0, 3.0 not counted\n"},
			[]string{"fs@3.0 "}, []string{"clock@1.0", "fs@4.0"}, []string{"fs@1.0", "fs@2.0", "fs@3.0"}},
		{"every version", []string{"--all-versions", old, newer},
			[]string{"TOTAL (4 versions of 2 servers)"}, []string{"not counted"},
			[]string{"clock@1.0", "fs@1.0", "fs@2.0", "fs@3.0"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := cliRun(t, append([]string{"catalog", "stats", "--top", "0"}, tc.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			checkOutput(t, "stdout", stdout, tc.want, tc.notWant)
			stdout, stderr, code = cliRun(t, append([]string{"catalog", "stats", "--json"}, tc.args...)...)
			if code != 0 {
				t.Fatalf("json: exit %d: %s", code, stderr)
			}
			var got struct {
				Servers []struct {
					Server string `json:"server"`
				} `json:"servers"`
				NotCounted   []string `json:"not_counted"`
				VersionsSeen []struct {
					Series     string   `json:"series"`
					Counted    []string `json:"counted"`
					NotCounted []string `json:"not_counted"`
				} `json:"versions_seen"`
			}
			if err := json.Unmarshal([]byte(stdout), &got); err != nil {
				t.Fatal(err)
			}
			var counted []string
			for _, s := range got.Servers {
				counted = append(counted, s.Server)
			}
			if !slices.Equal(counted, tc.counted) || !slices.Equal(got.NotCounted, tc.notCounted) {
				t.Errorf("counted %q, not counted %q; want %q, %q", counted, got.NotCounted, tc.counted, tc.notCounted)
			}
			if len(tc.notCounted) > 0 && (len(got.VersionsSeen) != 1 || got.VersionsSeen[0].Series != "fs") {
				t.Errorf("versions_seen %+v: want fs's versions", got.VersionsSeen)
			}
		})
	}
}

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCatalogStatsSaysWhichVersionsCount pins that `catalog stats` over a
// directory holding a server in two versions says what its rows and total
// cover: it printed "TOTAL (2 servers)" over three files and left the
// older version out without a word. The total now says it counts the
// latest versions, the older one is named as read and not counted (text
// and JSON), --all-versions says its total sums versions of the same
// server, and one server is "1 server", not "1 servers".
func TestCatalogStatsSaysWhichVersionsCount(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"fs@1.0.json":    `{"tools":[{"name":"read","inputSchema":{"type":"object"}}]}`,
		"fs@2.0.json":    `{"tools":[{"name":"read","inputSchema":{"type":"object"}},{"name":"write","inputSchema":{"type":"object"}}]}`,
		"clock@1.0.json": `{"tools":[{"name":"now","inputSchema":{"type":"object"}}]}`,
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	single := filepath.Join(dir, "clock@1.0.json")
	for _, tc := range []struct {
		name    string
		args    []string
		want    []string
		notWant []string
	}{
		{"latest", []string{dir}, []string{
			"TOTAL (2 servers, latest versions)",
			"counted: the latest version of each of 2 servers",
			"1 older version read, not counted (--all-versions counts every version):\n  fs: 2.0 counted; 1.0 not counted\n",
		}, []string{"fs@1.0 "}},
		{"all versions", []string{"--all-versions", dir}, []string{
			"TOTAL (3 versions of 2 servers)",
			"counted: every version read, 3 versions of 2 servers",
			"fs@1.0 ",
		}, []string{"not counted"}},
		{"one file", []string{single}, []string{"TOTAL (1 server)"}, []string{"counted:", "1 servers"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := cliRun(t, append([]string{"catalog", "stats", "--top", "0"}, tc.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			checkOutput(t, "stdout", stdout, tc.want, tc.notWant)
		})
	}
	for _, tc := range []struct {
		name       string
		args       []string
		series     int
		versions   int
		notCounted []string
		covers     string
	}{
		{"latest", []string{dir}, 2, 2, []string{"fs@1.0"}, "the latest version of each of 2 servers"},
		{"all versions", []string{"--all-versions", dir}, 2, 3, nil, "every version read, 3 versions of 2 servers"},
		{"one file", []string{single}, 1, 1, nil, "one version of 1 server"},
	} {
		t.Run("json "+tc.name, func(t *testing.T) {
			stdout, stderr, code := cliRun(t, append([]string{"catalog", "stats", "--json"}, tc.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var got struct {
				Series     int      `json:"series"`
				NotCounted []string `json:"not_counted"`
				Covers     string   `json:"covers"`
				Total      struct {
					Servers int `json:"servers"`
				} `json:"total"`
			}
			if err := json.Unmarshal([]byte(stdout), &got); err != nil {
				t.Fatal(err)
			}
			if got.Series != tc.series || got.Total.Servers != tc.versions || !slices.Equal(got.NotCounted, tc.notCounted) || !strings.HasPrefix(got.Covers, tc.covers) {
				t.Errorf("series %d, total.servers %d, not_counted %q, covers %q; want %d, %d, %q, %q…",
					got.Series, got.Total.Servers, got.NotCounted, got.Covers, tc.series, tc.versions, tc.notCounted, tc.covers)
			}
		})
	}
}

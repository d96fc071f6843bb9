package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/shareddata"
)

// TestCatalogStatsNamesOutliers pins that `catalog stats` names a tool over
// --outlier-tokens (default catalog.DefaultOutlierTokens) on stderr and in
// JSON "outliers", with its tokens, where its bytes are and its share of
// the total. Before, a catalog whose one tool held a pasted 2 MB
// description was counted without a word (400,015 tokens, the whole total).
func TestCatalogStatsNamesOutliers(t *testing.T) {
	dir := writeOutlierCatalog(t, `{"name":"greet","description":"Say hello.","inputSchema":{"type":"object"}}`)
	tests := []struct {
		name string
		args []string
		want string // "" when no tool is named
	}{
		{"default threshold", nil, `fs@1.0.json: tools[1] "big" is 12015 o200k_base tokens (60064 bytes: description 60000, input schema 17), 99.9% of the total's 12033: over --outlier-tokens 10000`},
		{"threshold above the tool", []string{"--outlier-tokens", "20000"}, ""},
		{"threshold below both", []string{"--outlier-tokens", "10"}, `tools[0] "greet" is 18 o200k_base tokens (76 bytes: description 10, input schema 17), 0.1% of the total's 12033: over --outlier-tokens 10`},
		{"turned off", []string{"--outlier-tokens", "0"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"catalog", "stats", "--counters", "o200k_base", "--format", "json", dir}, tc.args...)
			stdout, stderr, code := cliRun(t, args...)
			if code != 0 {
				t.Fatalf("exit %d\n%s", code, stderr)
			}
			var st catalog.Stats
			if err := json.Unmarshal([]byte(stdout), &st); err != nil {
				t.Fatal(err)
			}
			if tc.want == "" {
				if len(st.Outliers) > 0 || strings.Contains(stderr, "outlier") {
					t.Errorf("outliers %q, stderr:\n%s", st.Outliers, stderr)
				}
				return
			}
			if !slices.ContainsFunc(st.Outliers, func(o string) bool { return strings.Contains(o, tc.want) }) {
				t.Errorf("JSON outliers = %q, want one to contain %q", st.Outliers, tc.want)
			}
			if !strings.Contains(stderr, "warning: "+filepath.Join(dir, "fs@1.0.json")) || !strings.Contains(stderr, tc.want) || !strings.Contains(stderr, "over --outlier-tokens: one tool can be most of the total") {
				t.Errorf("stderr lacks %q:\n%s", tc.want, stderr)
			}
		})
	}
	if _, stderr, code := cliRun(t, "catalog", "stats", "--outlier-tokens", "-1", dir); code != 2 || !strings.Contains(stderr, "--outlier-tokens must be 0") {
		t.Errorf("--outlier-tokens -1: exit %d, %s", code, stderr)
	}
}

// writeOutlierCatalog writes, in a new directory it returns, fs@1.0.json
// holding the tool first, then a tool "big" of 12,000 words (12,015
// o200k_base tokens, over catalog.DefaultOutlierTokens).
func writeOutlierCatalog(t *testing.T, first string) string {
	t.Helper()
	dir := t.TempDir()
	big := `{"name":"big","description":"` + strings.Repeat("word ", 12_000) + `","inputSchema":{"type":"object"}}`
	if err := os.WriteFile(filepath.Join(dir, "fs@1.0.json"), []byte(`{"tools":[`+first+`,`+big+`]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestSharedCatalogsHaveNoOutlier pins the figure docs/catalogs.md gives for
// the default --outlier-tokens: every tool of every version of the shared
// real catalogs is under 3,000 o200k_base tokens (the largest, 2,845),
// so none is named.
func TestSharedCatalogsHaveNoOutlier(t *testing.T) {
	dir := shareddata.Path(t, "catalogs")
	stdout, stderr, code := cliRun(t, "catalog", "stats", "--all-versions", "--counters", "o200k_base", "--top", "1", "--format", "json", dir)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var st catalog.Stats
	if err := json.Unmarshal([]byte(stdout), &st); err != nil {
		t.Fatal(err)
	}
	if len(st.Outliers) > 0 || len(st.Total.Top) != 1 {
		t.Fatalf("outliers %q, top %v", st.Outliers, st.Total.Top)
	}
	top := st.Total.Top[0]
	if n := top.Tokens["o200k_base"]; n >= 3000 || n*3 > catalog.DefaultOutlierTokens || top.Tool != "export" || n != 2845 {
		t.Errorf("largest shared tool: %s of %s, %d tokens; docs/catalogs.md says export of mongodb-mcp-server, 2,845, under a third of the default threshold", top.Tool, top.Server, n)
	}
}

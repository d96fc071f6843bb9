package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/shareddata"
)

// TestCatalogStatsCSVAgreesWithJSON pins `catalog stats --format csv` (it
// did not exist: --format csv was refused): one row per tool counted, whose
// tokens per counter and bytes are the JSON's for the same tool, over the
// shared real catalogs, for the latest versions and with --all-versions.
func TestCatalogStatsCSVAgreesWithJSON(t *testing.T) {
	dir := shareddata.Path(t, "catalogs")
	tests := []struct {
		name  string
		args  []string
		tools int // the rows: tools counted, as docs/catalogs.md gives them
	}{
		{"latest versions", nil, 743},
		{"all versions", []string{"--all-versions"}, 1426},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := append([]string{"catalog", "stats", dir, "--top", "100000"}, tc.args...)
			js, stderr, code := cliRun(t, append(base, "--format", "json")...)
			if code != 0 {
				t.Fatalf("json: exit %d\n%s", code, stderr)
			}
			var st catalog.Stats
			if err := json.Unmarshal([]byte(js), &st); err != nil {
				t.Fatal(err)
			}
			byTool := map[string]catalog.ToolTokens{}
			for _, tt := range st.Total.Top {
				byTool[tt.Server+" "+tt.Tool] = tt
			}
			out, stderr, code := cliRun(t, append(base, "--format", "csv")...)
			if code != 0 {
				t.Fatalf("csv: exit %d\n%s", code, stderr)
			}
			head, rows := parseCSV(t, out)
			want := []string{"server", "version", "tool", "tokens_o200k_base", "tokens_cl100k_base", "tokens_bytes/3.5", "bytes", "form", "outlier"}
			if strings.Join(head, ",") != strings.Join(want, ",") {
				t.Fatalf("header %q, want %q", head, want)
			}
			if len(rows) != st.Total.Tools || len(byTool) != st.Total.Tools {
				t.Fatalf("%d rows, %d tools in the JSON's top list, total.tools %d", len(rows), len(byTool), st.Total.Tools)
			}
			if len(rows) != tc.tools {
				t.Errorf("%d rows, want %d", len(rows), tc.tools)
			}
			seen := map[string]bool{}
			for _, r := range rows {
				name, variant, _ := strings.Cut(r[0], "+")
				label := name + "@" + r[1]
				if variant != "" {
					label += "+" + variant
				}
				key := label + " " + r[2]
				tt, ok := byTool[key]
				if !ok || seen[key] {
					t.Fatalf("row %q: not in the JSON once (found %v, repeated %v)", r, ok, seen[key])
				}
				seen[key] = true
				for i, c := range st.Counters {
					if n, err := strconv.ParseInt(r[3+i], 10, 64); err != nil || n != tt.Tokens[c] {
						t.Errorf("%s: %s = %q, JSON %d", key, c, r[3+i], tt.Tokens[c])
					}
				}
				if n, err := strconv.ParseInt(r[6], 10, 64); err != nil || n != tt.Bytes {
					t.Errorf("%s: bytes = %q, JSON %d", key, r[6], tt.Bytes)
				}
				if r[7] != string(st.Form) || r[8] != "false" {
					t.Errorf("%s: form %q outlier %q, want %q and false (no shared tool is an outlier)", key, r[7], r[8], st.Form)
				}
			}
		})
	}
}

// TestCatalogStatsCSVFlagsOutliersSafely pins the CSV's outlier column
// (true exactly for the tools JSON outliers names, against --outlier-tokens),
// that -o writes the file, and that a tool name a spreadsheet would run as a
// formula is written as text.
func TestCatalogStatsCSVFlagsOutliersSafely(t *testing.T) {
	dir := writeOutlierCatalog(t, `{"name":"=HYPERLINK(\"x\")","description":"Say hello.","inputSchema":{"type":"object"}}`)
	tests := []struct {
		name string
		args []string
		want []string // the outlier column, row by row
	}{
		{"default threshold", nil, []string{"false", "true"}},
		{"threshold below both", []string{"--outlier-tokens", "10"}, []string{"true", "true"}},
		{"turned off", []string{"--outlier-tokens", "0"}, []string{"false", "false"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "stats.csv")
			args := append([]string{"catalog", "stats", "--counters", "o200k_base", "--format", "csv", "-o", file, dir}, tc.args...)
			stdout, stderr, code := cliRun(t, args...)
			if code != 0 || stdout != "" {
				t.Fatalf("exit %d, stdout %q\n%s", code, stdout, stderr)
			}
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			_, rows := parseCSV(t, string(data))
			if len(rows) != 2 {
				t.Fatalf("rows %q", rows)
			}
			if rows[0][2] != `'=HYPERLINK("x")` {
				t.Errorf("tool cell %q: a formula a spreadsheet would run", rows[0][2])
			}
			for i, r := range rows {
				if r[len(r)-1] != tc.want[i] {
					t.Errorf("row %d %q: outlier %s, want %s", i, r[2], r[len(r)-1], tc.want[i])
				}
			}
			if rows[1][3] != "12015" || rows[1][0] != "fs" || rows[1][1] != "1.0" {
				t.Errorf("big: %q, want fs, 1.0 and 12015 o200k_base tokens (as stats' outlier warning says)", rows[1])
			}
		})
	}
}

// parseCSV parses a CSV output into its header and rows.
func parseCSV(t *testing.T, s string) (head []string, rows [][]string) {
	t.Helper()
	all, err := csv.NewReader(strings.NewReader(s)).ReadAll()
	if err != nil || len(all) == 0 {
		t.Fatalf("not CSV (%v):\n%s", err, s)
	}
	return all[0], all[1:]
}

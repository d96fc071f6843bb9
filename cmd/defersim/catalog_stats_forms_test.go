package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/shareddata"
)

// TestCatalogStatsFormsAgree pins that `catalog stats` text, json and csv
// give the same numbers for the shared real catalogs: every table row
// (tools, bytes, tokens per counter, B/TOK, ERR%) and the total are the
// JSON's, the CSV's tools add up to each row and to the total, and every
// tool of the text's top list has the CSV's bytes and tokens. The CSV
// counted every tool a second time and applied the outlier rule itself,
// so a change to one form's counting could leave the others behind.
func TestCatalogStatsFormsAgree(t *testing.T) {
	dir := shareddata.Path(t, "catalogs")
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"latest versions", nil},
		{"all versions", []string{"--all-versions"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := append([]string{"catalog", "stats", dir, "--top", "100000"}, tc.args...)
			forms := map[string]string{}
			for _, f := range []string{"text", "json", "csv"} {
				out, stderr, code := cliRun(t, append(base, "--format", f)...)
				if code != 0 {
					t.Fatalf("%s: exit %d\n%s", f, code, stderr)
				}
				forms[f] = out
			}
			var st catalog.Stats
			if err := json.Unmarshal([]byte(forms["json"]), &st); err != nil {
				t.Fatal(err)
			}
			if len(st.Servers) < 20 || st.Reference != "o200k_base" || len(st.Counters) != 3 {
				t.Fatalf("%d servers, reference %q, counters %q: not the shared catalogs under the default counters", len(st.Servers), st.Reference, st.Counters)
			}

			// Text table: one row per JSON server, then the total.
			table, top := textStats(t, forms["text"])
			if len(table) != len(st.Servers)+1 {
				t.Fatalf("text table has %d rows, JSON %d servers and a total", len(table), len(st.Servers))
			}
			for i, row := range table {
				sum := st.Total
				if i < len(st.Servers) {
					if row[0] != st.Servers[i].Server {
						t.Errorf("text row %d is %s, JSON server %s", i, row[0], st.Servers[i].Server)
					}
					sum = st.Servers[i].Summary
				}
				if got := strings.Join(row[1:], " "); got != textCells(st, sum) {
					t.Errorf("text row %s: %s, JSON %s", row[0], got, textCells(st, sum))
				}
			}

			// CSV rows add up to each server and to the total.
			_, rows := parseCSV(t, forms["csv"])
			sums := map[string]*catalog.Summary{}
			var order []string
			byTool := map[string][]string{}
			for _, r := range rows {
				name, variant, _ := strings.Cut(r[0], "+")
				label := name + "@" + r[1]
				if variant != "" {
					label += "+" + variant
				}
				if sums[label] == nil {
					sums[label] = &catalog.Summary{Tokens: map[string]int64{}}
					order = append(order, label)
				}
				s := sums[label]
				s.Tools++
				s.Bytes += csvInt(t, r[6])
				for i, c := range st.Counters {
					s.Tokens[c] += csvInt(t, r[3+i])
				}
				if r[8] != strconv.FormatBool(slices.ContainsFunc(st.Outliers, func(o string) bool { return strings.Contains(o, strconv.Quote(r[2])) })) {
					t.Errorf("%s %s: outlier %s, JSON outliers %q", label, r[2], r[8], st.Outliers)
				}
				byTool[label+" "+r[2]] = r
			}
			total := catalog.Summary{Tokens: map[string]int64{}}
			for i, ss := range st.Servers {
				if i >= len(order) || order[i] != ss.Server {
					t.Fatalf("CSV server versions %q, not in the JSON's order (%d: %s)", order, i, ss.Server)
				}
				got := sums[ss.Server]
				if g, w := sumCells(st, *got), sumCells(st, ss.Summary); g != w {
					t.Errorf("CSV %s adds up to %s, JSON %s", ss.Server, g, w)
				}
				total.Tools += got.Tools
				total.Bytes += got.Bytes
				for c, n := range got.Tokens {
					total.Tokens[c] += n
				}
			}
			if g, w := sumCells(st, total), sumCells(st, st.Total); len(order) != len(st.Servers) || g != w {
				t.Errorf("CSV: %d server versions adding up to %s; JSON %d, total %s", len(order), g, len(st.Servers), w)
			}

			// Text top list: each tool's bytes and tokens are the CSV's.
			if len(top) != st.Total.Tools || len(byTool) != st.Total.Tools {
				t.Fatalf("text top list %d tools, CSV %d distinct, JSON total %d", len(top), len(byTool), st.Total.Tools)
			}
			for _, f := range top { // #, tool, server, bytes, tokens
				r, ok := byTool[f[2]+" "+f[1]]
				if !ok || r[6] != f[3] || r[3] != f[4] {
					t.Errorf("text top %q: CSV row %q", f, r)
				}
			}
		})
	}
}

// TestCatalogStatsRowsInReleaseOrder pins that every form of `catalog
// stats` lists a server's versions in release order (catalog.CompareVersions:
// 0.9.0 before 0.10.0) whatever order the PATHs name them in. They were
// listed in the order given, so two files or directories given newest first
// put 0.10.0 above 0.9.0.
func TestCatalogStatsRowsInReleaseOrder(t *testing.T) {
	root := t.TempDir()
	write := func(sub, file string, tools ...string) string {
		var ts []string
		for _, n := range tools {
			ts = append(ts, fmt.Sprintf(`{"name":%q,"inputSchema":{"type":"object"}}`, n))
		}
		d := filepath.Join(root, sub)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(d, file)
		if err := os.WriteFile(p, []byte(`{"tools":[`+strings.Join(ts, ",")+`]}`), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	newer := write("new", "fs@0.10.0.json", "read", "write")
	older := write("old", "fs@0.9.0.json", "read")
	write("new", "clock@1.0.json", "now")
	want := []string{"fs@0.9.0", "fs@0.10.0"}
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"files, newest first", []string{newer, older}, want},
		{"directories, newest first", []string{"--all-versions", filepath.Dir(newer), filepath.Dir(older)}, []string{"clock@1.0", "fs@0.9.0", "fs@0.10.0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := append([]string{"catalog", "stats", "--counters", "o200k_base", "--top", "0"}, tc.args...)
			out := map[string]string{}
			for _, f := range []string{"text", "json", "csv"} {
				s, stderr, code := cliRun(t, append(base, "--format", f)...)
				if code != 0 {
					t.Fatalf("%s: exit %d\n%s", f, code, stderr)
				}
				out[f] = s
			}
			table, _ := textStats(t, out["text"])
			var text []string
			for _, r := range table[:len(table)-1] {
				text = append(text, r[0])
			}
			var st catalog.Stats
			if err := json.Unmarshal([]byte(out["json"]), &st); err != nil {
				t.Fatal(err)
			}
			var js []string
			for _, s := range st.Servers {
				js = append(js, s.Server)
			}
			_, rows := parseCSV(t, out["csv"])
			var csv []string
			for _, r := range rows {
				if l := r[0] + "@" + r[1]; !slices.Contains(csv, l) {
					csv = append(csv, l)
				}
			}
			for form, got := range map[string][]string{"text": text, "json": js, "csv": csv} {
				if !slices.Equal(got, tc.want) {
					t.Errorf("%s rows %q, want %q", form, got, tc.want)
				}
			}
		})
	}
}

// textStats splits `catalog stats` text output into its table's rows
// (label, then each cell; the total last) and its top list's rows.
func textStats(t *testing.T, out string) (table, top [][]string) {
	t.Helper()
	lines := strings.Split(out, "\n")
	i := 1 // past the header
	for ; i < len(lines) && strings.TrimSpace(lines[i]) != ""; i++ {
		l := strings.TrimSpace(lines[i])
		if strings.HasPrefix(l, "TOTAL") {
			_, cells, _ := strings.Cut(l, ")")
			table = append(table, append([]string{"TOTAL"}, strings.Fields(cells)...))
			continue
		}
		table = append(table, strings.Fields(l))
	}
	if len(table) == 0 || table[len(table)-1][0] != "TOTAL" {
		t.Fatalf("no table ending in a total:\n%s", out)
	}
	at := slices.IndexFunc(lines, func(l string) bool { return strings.Join(strings.Fields(l), " ") == "# TOOL SERVER BYTES TOKENS" })
	if at < 0 {
		return table, nil
	}
	for _, l := range lines[at+1:] {
		if f := strings.Fields(l); len(f) == 5 {
			top = append(top, f)
		} else if l != "" {
			t.Fatalf("top list row %q: not 5 cells", l)
		}
	}
	return table, top
}

// textCells is how the text table writes s's cells after its label: tools,
// bytes, tokens per counter, B/TOK and ERR% per estimator.
func textCells(st catalog.Stats, s catalog.Summary) string {
	cells := sumCells(st, s) + fmt.Sprintf(" %.2f", s.BytesPerToken[st.Reference])
	for _, c := range st.Counters {
		if catalog.IsEstimator(c) {
			cells += fmt.Sprintf(" %+.1f", s.EstimatorErrorPct[c])
		}
	}
	return cells
}

// sumCells is s's tools, bytes and tokens per counter of st.
func sumCells(st catalog.Stats, s catalog.Summary) string {
	cells := fmt.Sprint(s.Tools, " ", s.Bytes)
	for _, c := range st.Counters {
		cells += fmt.Sprint(" ", s.Tokens[c])
	}
	return cells
}

// csvInt parses a CSV integer cell.
func csvInt(t *testing.T, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("cell %q: %v", s, err)
	}
	return n
}

package main

import (
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/srd"
	srddata "github.com/defersim/defersim/srd/data"
)

// TestSRDDocOutput pins the output docs/srd.md quotes — the draft example
// converted to v1 and linted, and the shipped SRDs linted against the
// shared catalogs ("40 SRDs, no problems") — to what the commands print
// now, run from a directory holding the repository's srd/testdata/draft and
// srd/data/catalogs at the paths the page names.
func TestSRDDocOutput(t *testing.T) {
	t.Setenv("DEFERSIM_SHARED_DATA", shareddata.Dir(t))
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	for _, dir := range []string{"srd/testdata/draft", "srd/data/catalogs"} {
		if err := os.CopyFS(filepath.FromSlash(dir), os.DirFS(filepath.Join(root, filepath.FromSlash(dir)))); err != nil {
			t.Fatal(err)
		}
	}
	docRun(t, filepath.Join(root, "docs", "srd.md"), func(rel string) string { return shareddata.Path(t, filepath.FromSlash(rel)) }, nil)
}

// TestSRDDocRoutedSearchTable recomputes the table of docs/srd.md's
// "Routed search in the replay" from a run of scenarios/routed-search.yaml
// over the shared catalogs (seed 11, 400 sessions): the baseline's means
// and each routed strategy's paired differences with their intervals, as
// the page rounds them, and the prose's figures derived from them. A cell
// the page gives without its interval must be a significant difference.
// All rows are current.
func TestSRDDocRoutedSearchTable(t *testing.T) {
	_, page := docPage(t, "srd.md")
	out := t.TempDir()
	scenario := filepath.Join("..", "..", "scenarios", "routed-search.yaml")
	if stdout, stderr, code := cliRun(t, "run", scenario, "--catalogs", shareddata.Path(t, "catalogs"), "-o", out, "-q", "--no-report"); code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, stdout, stderr)
	}
	type interval struct{ Low, High float64 }
	var res struct {
		Strategies []struct {
			Name    string                            `json:"name"`
			Metrics map[string]struct{ Mean float64 } `json:"metrics"`
			Vs      map[string]struct {
				Mean        float64  `json:"mean_diff"`
				CI          interval `json:"mean_diff_ci"`
				Significant bool     `json:"significant"`
			} `json:"vs_baseline"`
		} `json:"strategies"`
	}
	readJSON(t, filepath.Join(out, "results.json"), &res)
	// sign is the page's sign of v: "−" or "+".
	sign := func(v string) (string, string) {
		if a, neg := strings.CutPrefix(v, "-"); neg {
			return "−", a
		}
		return "+", v
	}
	decimals := func(prec int) func(float64) string {
		return func(v float64) string { return fmt.Sprintf("%.*f", prec, v) }
	}
	hundreds := func(v float64) string { return withCommas(int64(math.Round(v/100) * 100)) }
	columns := []struct {
		metric     string
		base       func(float64) string // the baseline's mean
		num        func(float64) string // a difference, unsigned
		unit, cash string               // after a difference's value, and before its digits
	}{
		{"searches", decimals(2), decimals(2), "", ""},
		{"search_misses", decimals(2), decimals(2), "", ""},
		{"first_reply_ms", func(v float64) string { return fmt.Sprintf("%.2f s", v/1000) }, decimals(0), " ms", ""},
		{"schema_tokens", func(v float64) string { return withCommas(int64(math.Round(v))) }, hundreds, "", ""},
		{"cost_usd", func(v float64) string { return fmt.Sprintf("$%.4f", v) }, decimals(4), "", "$"},
	}
	label := map[string]string{
		"flat-bm25":        "flat-bm25 (baseline)",
		"routed":           "routed",
		"routed-hard":      "routed-hard",
		"routed-by-domain": "routed, by-domain directory + notices",
	}
	rows := docTableRows(page, 1+len(columns))
	if len(res.Strategies) != len(label) {
		t.Fatalf("%d strategies, the page has %d rows", len(res.Strategies), len(label))
	}
	means := map[string]map[string]float64{}
	for _, s := range res.Strategies {
		means[s.Name] = map[string]float64{}
		cells, ok := rows[label[s.Name]]
		if !ok {
			t.Errorf("docs/srd.md has no row %q", label[s.Name])
			continue
		}
		for i, c := range columns {
			means[s.Name][c.metric] = s.Metrics[c.metric].Mean
			if s.Vs == nil {
				if want := c.base(s.Metrics[c.metric].Mean); cells[i] != want {
					t.Errorf("%s %s: the page says %q, the run %q", s.Name, c.metric, cells[i], want)
				}
				continue
			}
			d := s.Vs[c.metric]
			bound := func(v float64) string { sg, n := sign(c.num(v)); return sg + n }
			sg, n := sign(c.num(d.Mean))
			value := sg + c.cash + n + c.unit
			full := fmt.Sprintf("%s [%s, %s]", value, bound(d.CI.Low), bound(d.CI.High))
			if !d.Significant {
				full += " (n.s.)"
			}
			if cells[i] != full && !(d.Significant && cells[i] == value) {
				t.Errorf("%s %s: the page says %q, the run %q", s.Name, c.metric, cells[i], full)
			}
		}
	}
	prose := docProse(page)
	for _, want := range []string{
		fmt.Sprintf("and %.0f ms on the mean first reply", means["flat-bm25"]["first_reply_ms"]-means["routed"]["first_reply_ms"]),
		fmt.Sprintf("directory costs about %s prompt tokens per session more", hundreds(means["routed-by-domain"]["schema_tokens"]-means["routed"]["schema_tokens"])),
	} {
		if !strings.Contains(prose, want) {
			t.Errorf("docs/srd.md does not say %q", want)
		}
	}
}

// TestSRDDocShippedCounts recomputes docs/srd.md's "Shipped SRDs" counts
// from the embedded sets: the catalogs' servers and domains, how many
// servers each shared domain holds, and MetaTool's pseudo-servers and the
// tools they group. They were counted by hand; all are current.
func TestSRDDocShippedCounts(t *testing.T) {
	page := docWords(t, "srd.md")
	load := func(dir string) []*srd.SRD {
		t.Helper()
		srds, probs, err := srd.LoadFS(srddata.FS, dir)
		if err != nil || len(probs) > 0 {
			t.Fatalf("%s: %v %v", dir, err, probs)
		}
		return srds
	}
	servers := map[string]int{}
	for _, s := range load(srddata.Catalogs) {
		servers[s.Domain]++
	}
	shared := map[int]int{} // servers in a domain → domains so
	for _, n := range servers {
		shared[n]++
	}
	words := []string{"", "one", "two", "three", "four", "five"}
	tools := 0
	mt := load(srddata.MetaTool)
	for i := range mt {
		tools += len(mt[i].Tools())
	}
	for _, want := range []string{
		fmt.Sprintf("(%d servers, %d domains)", len(load(srddata.Catalogs)), len(servers)),
		fmt.Sprintf("%s browser servers (`browser-automation`), %s code hosts (`code-hosting`)", words[servers["browser-automation"]], words[servers["code-hosting"]]),
		fmt.Sprintf("%d pseudo-servers", len(mt)),
		fmt.Sprintf("every one of the %d tools is grouped exactly once", tools),
	} {
		if !strings.Contains(page, want) {
			t.Errorf("docs/srd.md does not say %q", want)
		}
	}
	// Five domains are shared: one of four servers, three of three (code
	// hosts, databases, web search engines) and one of two (MCP test
	// servers); the rest hold one server each.
	if got, want := shared, map[int]int{4: 1, 3: 3, 2: 1, 1: len(servers) - 5}; !maps.Equal(got, want) {
		t.Errorf("domains by their number of servers: %v, the page says %v", got, want)
	}
}

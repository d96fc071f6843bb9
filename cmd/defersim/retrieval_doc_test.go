package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
)

// TestRetrievalDocBeforeAfter recomputes the rows of docs/retrieval.md's
// "Before and after" table for the five smaller held-out sets with the
// page's srd eval command (MetaTool's report part, 16,515 tasks, is left
// to TestBeforeAfterHeldOut's bounds): flat BM25, today's routed BM25, the
// fused router over bm25f with its interval, and its paired differences
// from both, as srd eval prints them now. All five rows are current.
func TestRetrievalDocBeforeAfter(t *testing.T) {
	if testing.Short() {
		t.Skip("evaluates five retrieval sets, 10-20 s (-short)")
	}
	t.Setenv("DEFERSIM_SHARED_DATA", shareddata.Dir(t))
	_, raw := docPage(t, "retrieval.md")
	// The page writes intervals without units, minus signs as "−", and
	// bolds some cells.
	page := strings.NewReplacer("**", "", "−", "-").Replace(raw)
	units := regexp.MustCompile(`( pp|%)([],])`)
	cell := func(out, against, arm string, col int) string {
		t.Helper()
		_, table, ok := strings.Cut(out, "### Against "+against+"\n")
		if !ok {
			t.Fatalf("srd eval printed no table against %s", against)
		}
		for l := range strings.SplitSeq(table, "\n") {
			if f := strings.Split(l, " | "); len(f) > col && f[0] == "| "+arm {
				return units.ReplaceAllString(f[col], "$2")
			}
		}
		t.Fatalf("no row %s against %s", arm, against)
		return ""
	}
	value := func(c string) string { v, _, _ := strings.Cut(c, " ["); return v }
	for _, set := range []struct{ name, label string }{
		{"metatool-multi", "MetaTool-multi"},
		{"mcp-bench", "MCP-Bench"},
		{"same-name", "same-name"},
		{"near-synonym", "near-synonym"},
		{"long-tail", "long-tail"},
	} {
		t.Run(set.name, func(t *testing.T) {
			stdout, stderr, code := cliRun(t, "srd", "eval", "--set", set.name, "--rankers", "bm25,bm25f", "--modes", "flat,routed,fused", "-o", t.TempDir())
			if code != 0 {
				t.Fatalf("srd eval: exit %d\n%s%s", code, stdout, stderr)
			}
			cells := []string{
				value(cell(stdout, "bm25/routed", "bm25/flat", 1)),
				value(cell(stdout, "bm25/flat", "bm25/routed", 1)),
				cell(stdout, "bm25/flat", "bm25f/fused", 1),
				cell(stdout, "bm25/routed", "bm25f/fused", 2),
				cell(stdout, "bm25/flat", "bm25f/fused", 2),
			}
			want := " | " + strings.Join(cells, " | ") + " |\n"
			re := regexp.MustCompile(`\n\| ` + regexp.QuoteMeta(set.label) + ` \(\d[\d,]*, \d[\d,]*\)` + regexp.QuoteMeta(want))
			if !re.MatchString(page) {
				t.Errorf("docs/retrieval.md has no row %s (tasks, needs)%s", set.label, want)
			}
		})
	}
}

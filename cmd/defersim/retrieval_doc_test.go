package main

import (
	"fmt"
	"path/filepath"
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

// TestRetrievalDocTuningSplit recomputes docs/retrieval.md's figures on the
// tuning split with the page's commands (--split tune on MetaTool, bfcl,
// bfcl-pool): each set's tool recall@5 of flat and routed BM25 and of the
// fused router over bm25f, the fused router's paired difference from the
// routed one, and the mean recall@5 over the three sets of the flat fielded
// arm and the fused one ("Tuning"). All are current. (The first guesses'
// figures are TestTuneDocFigures', internal/retrieval.)
func TestRetrievalDocTuningSplit(t *testing.T) {
	if testing.Short() {
		t.Skip("evaluates MetaTool's tuning part and BFCL twice, about 15 s (-short)")
	}
	t.Setenv("DEFERSIM_SHARED_DATA", shareddata.Dir(t))
	// The page writes minus signs as "−" and bolds some figures.
	page := strings.NewReplacer("**", "", "−", "-").Replace(docWords(t, "retrieval.md"))
	type figure struct{ Mean, Lo, Hi float64 }
	type evalResults struct {
		Arms []struct {
			Name    string `json:"name"`
			Metrics []struct {
				Metric string `json:"metric"`
				figure
			} `json:"metrics"`
		} `json:"arms"`
		Diffs []struct {
			Arm      string `json:"arm"`
			Baseline string `json:"baseline"`
			Metric   string `json:"metric"`
			figure
		} `json:"diffs"`
	}
	// recall returns the arms' tool recall@5 and the fused router's
	// difference from the routed one.
	recall := func(args ...string) (map[string]float64, figure) {
		t.Helper()
		out := t.TempDir()
		args = append(append([]string{"srd", "eval"}, args...), "--rankers", "bm25,bm25f", "--modes", "flat,routed,fused", "-o", out)
		if stdout, stderr, code := cliRun(t, args...); code != 0 {
			t.Fatalf("%v: exit %d\n%s%s", args, code, stdout, stderr)
		}
		var res evalResults
		readJSON(t, filepath.Join(out, "results.json"), &res)
		arms := map[string]float64{}
		for _, a := range res.Arms {
			for _, m := range a.Metrics {
				if m.Metric == "recall" {
					arms[a.Name] = m.Mean
				}
			}
		}
		for _, d := range res.Diffs {
			if d.Arm == "bm25f/fused" && d.Baseline == "bm25/routed" && d.Metric == "recall" {
				return arms, d.figure
			}
		}
		t.Fatalf("%v: no difference bm25f/fused − bm25/routed", args)
		return nil, figure{}
	}
	pct := func(v float64) string { return fmt.Sprintf("%.1f%%", 100*v) }
	pp := func(v float64) string { return fmt.Sprintf("%+.1f", 100*v) }
	tune, tuneDiff := recall("--set", "metatool", "--split", "tune")
	bfcl, bfclDiff := recall("--set", "bfcl")
	pool, poolDiff := recall("--set", "bfcl-pool")
	sets := []map[string]float64{tune, bfcl, pool}
	mean := func(arm string) string {
		var sum float64
		for _, s := range sets {
			sum += s[arm]
		}
		return fmt.Sprintf("%.3f", sum/float64(len(sets)))
	}
	for _, want := range []string{
		fmt.Sprintf("MetaTool's tuning part flat %s, routed %s, fused over bm25f %s (%s pp over the router)",
			pct(tune["bm25/flat"]), pct(tune["bm25/routed"]), pct(tune["bm25f/fused"]), pp(tuneDiff.Mean)),
		fmt.Sprintf("BFCL per query %s, %s, %s (%s pp [%s, %s]:",
			pct(bfcl["bm25/flat"]), pct(bfcl["bm25/routed"]), pct(bfcl["bm25f/fused"]), pp(bfclDiff.Mean), pp(bfclDiff.Lo), pp(bfclDiff.Hi)),
		fmt.Sprintf("pooled BFCL %s, %s, %s (%s pp).",
			pct(pool["bm25/flat"]), pct(pool["bm25/routed"]), pct(pool["bm25f/fused"]), pp(poolDiff.Mean)),
		fmt.Sprintf("scores mean recall@5 %s flat (`bm25f`) and %s fused", mean("bm25f/flat"), mean("bm25f/fused")),
	} {
		if !strings.Contains(page, want) {
			t.Errorf("docs/retrieval.md does not say %q", want)
		}
	}
}

package retrieval

import (
	"bytes"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/atomicfile"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/search"
	"github.com/defersim/defersim/srd"
	"github.com/defersim/defersim/srd/routed"
	"github.com/defersim/defersim/tokens"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := atomicfile.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s changed (-want +got); rerun with -update if intended:\n%s", name, diff)
	}
}

// tinyEval evaluates the tiny set of testdata/eval with BM25 and substring,
// flat and routed.
func tinyEval(t *testing.T) *Result {
	t.Helper()
	s, cat := tinySet(t)
	srds, err := LoadSRDs(filepath.Join("testdata", "eval", "srd"), s, cat)
	if err != nil {
		t.Fatal(err)
	}
	arms, err := Arms([]string{"bm25", "substring"}, search.Factories(), srds, routed.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	opt := DefaultEvalOptions()
	opt.Resamples, opt.Counter, opt.Domains, opt.CurveK = 200, tokens.NewEstimator(4), srds, 4
	res, err := Evaluate(s, arms, opt)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestEvalGolden(t *testing.T) {
	res := tinyEval(t)
	var md bytes.Buffer
	if err := FormatMarkdown(&md, res); err != nil {
		t.Fatal(err)
	}
	golden(t, "eval.golden.md", md.Bytes())
	js, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "eval.golden.json", append(js, '\n'))

	// The same inputs and seed give the same result, whatever the workers.
	again := tinyEval(t)
	if diff := cmp.Diff(res, again); diff != "" {
		t.Errorf("second run differs:\n%s", diff)
	}
	if res.Queries != 8 || res.Tools != 9 || res.Domains != 3 || len(res.Arms) != 6 || len(res.Diffs) != 4*len(Metrics()) {
		t.Errorf("shape: %d queries %d tools %d domains %d arms %d diffs", res.Queries, res.Tools, res.Domains, len(res.Arms), len(res.Diffs))
	}
}

func TestPlotsDeterministic(t *testing.T) {
	res := tinyEval(t)
	a, err := Plots(res)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Plots(res)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != 2 {
		t.Fatalf("%d plots, want 2", len(a))
	}
	for i := range a {
		if !bytes.Equal(a[i].PNG, b[i].PNG) || !bytes.Equal(a[i].SVG, b[i].SVG) {
			t.Errorf("%s: bytes differ between two renderings", a[i].Name)
		}
		if !bytes.HasPrefix(a[i].PNG, []byte("\x89PNG")) || !bytes.Contains(a[i].SVG, []byte("<svg")) {
			t.Errorf("%s: not a PNG and an SVG", a[i].Name)
		}
	}
}

// listRanker returns a fixed ranking for every query and, as its retry,
// the ranking for the tool-name query.
type listRanker struct {
	first, retry []int
}

func (l listRanker) Rank(q string, k int) []int {
	r := l.first
	if !strings.Contains(q, "query") {
		r = l.retry
	}
	return r[:min(k, len(r))]
}

// TestScoreHandComputed checks one query's measures under a fixed ranking.
// Values are in Metrics order: domain, server, top-1, recall, task
// recall, MRR (sums over needs for per-need metrics), searches, tokens.
func TestScoreHandComputed(t *testing.T) {
	tools := []string{"t0", "t1", "t2", "t3", "t4", "t5", "t6"}
	sc := &scorer{opt: EvalOptions{K: 2, CurveK: 4, Retries: 1}, names: tools, refs: tools,
		tokens: []float64{1, 10, 100, 1000, 10000, 100000, 1e6},
		domain: []string{"a", "a", "b", "b", "c", "c", "d"},
		server: []string{"x", "x", "y", "y", "z", "z", "w"}}
	glob := []int{0, 1, 2, 3, 4, 5, 6}
	tests := []struct {
		name  string
		rk    listRanker
		needs [][]int
		want  Outcome
	}{
		// Needed t3 at rank 3: not top-1, not in top 2 (K), RR 1/3; curve
		// from k 3. Domains in ranking order b, c, a: t3's b is 1st, and
		// so is its server y. Searches: the query loads t2, t5 (miss); the
		// retry on "t3" ranks t3 first (found) and loads t3 and t1.
		{"found on retry", listRanker{[]int{2, 5, 3, 0}, []int{3, 1}}, [][]int{{3}},
			Outcome{Values: [numMetrics]float64{1, 1, 0, 0, 0, 1.0 / 3, 2, 100 + 100000 + 1000 + 10}, Needs: 1,
				Curve: []float64{0, 0, 1, 1}, DomainCurve: []float64{1, 1, 1, 1}}},
		// Domain c needed (t4, never ranked): the domains seen are a, b.
		{"domain missed", listRanker{[]int{0, 2}, []int{0, 2}}, [][]int{{4}},
			Outcome{Values: [numMetrics]float64{0, 0, 0, 0, 0, 0, 3, 1 + 100 + 10000}, Needs: 1, Curve: make([]float64, 4), DomainCurve: make([]float64, 4)}},
		// Either of t0, t6 will do: t0 is first.
		{"interchangeable", listRanker{[]int{0, 1}, nil}, [][]int{{6, 0}},
			Outcome{Values: [numMetrics]float64{1, 1, 1, 1, 1, 1, 1, 11}, Needs: 1, Curve: []float64{1, 1, 1, 1}, DomainCurve: []float64{1, 1, 1, 1}}},
		// Never ranked: the query and the retry miss, select: loads t4.
		{"select fallback", listRanker{[]int{0, 1, 2}, []int{5}}, [][]int{{4}},
			Outcome{Values: [numMetrics]float64{0, 0, 0, 0, 0, 0, 3, 1 + 10 + 100000 + 10000}, Needs: 1, Curve: make([]float64, 4), DomainCurve: make([]float64, 4)}},
		// Two needs: t1 (rank 2) and t0 (rank 1), both within k: the task
		// is found. The first search loads both, so the second need needs
		// no search of its own.
		{"two needs", listRanker{[]int{0, 1}, nil}, [][]int{{1}, {0}},
			Outcome{Values: [numMetrics]float64{2, 2, 1, 2, 1, 1.5, 1, 11}, Needs: 2, Curve: []float64{1, 2, 2, 2}, DomainCurve: []float64{2, 2, 2, 2}}},
		// Two needs, one beyond k: recall 1 of 2, the task is not found.
		{"task missed", listRanker{[]int{0, 1, 3}, []int{3}}, [][]int{{0}, {3}},
			Outcome{Values: [numMetrics]float64{2, 2, 1, 1, 0, 1 + 1.0/3, 2, 1 + 10 + 1000}, Needs: 2, Curve: []float64{1, 1, 2, 2}, DomainCurve: []float64{1, 2, 2, 2}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := sc.score(tc.rk, glob, Query{Text: "query", Needs: tc.needs})
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("score mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestEvaluateRefuses(t *testing.T) {
	s := &Set{Name: "s", Tools: []Tool{{ToolDoc: sim.ToolDoc{Name: "a"}}}, Queries: []Query{{ID: "q", Text: "a", Needs: [][]int{{0}}}}}
	arms, _ := Arms([]string{"bm25"}, search.Factories(), nil, routed.DefaultOptions())
	bad := []func(*EvalOptions){
		func(o *EvalOptions) { o.K = 0 },
		func(o *EvalOptions) { o.CurveK = 0 },
		func(o *EvalOptions) { o.Retries = -1 },
		func(o *EvalOptions) { o.Level = 1 },
		func(o *EvalOptions) { o.Counter = nil },
	}
	for i, f := range bad {
		o := DefaultEvalOptions()
		o.Counter = tokens.NewEstimator(4)
		f(&o)
		if _, err := Evaluate(s, arms, o); err == nil {
			t.Errorf("bad options %d accepted", i)
		}
	}
	o := DefaultEvalOptions()
	o.Counter = tokens.NewEstimator(4)
	if _, err := Evaluate(s, nil, o); err == nil {
		t.Error("no arms accepted")
	}
	if _, err := Arms([]string{"nope"}, search.Factories(), nil, routed.DefaultOptions()); err == nil {
		t.Error("unknown ranker accepted")
	}
	var srds *srd.Set
	if _, err := Arms([]string{"bm25"}, search.Factories(), srds, routed.DefaultOptions()); err != nil {
		t.Error(err)
	}
}

// TestPairedDiffIntervals pins that paired differences are taken draw by
// draw: stats.Interval sorts the replicates it is given, and taking the
// arms' intervals first once turned every difference into a difference of
// sorted replicates (intervals far too narrow). The difference of two arms
// must have the interval of an arm whose values are the per-task
// differences.
func TestPairedDiffIntervals(t *testing.T) {
	const n = 60
	arms := []Arm{{Name: "x/flat", Ranker: "x", Mode: ModeFlat}, {Name: "x/routed", Ranker: "x", Mode: ModeRouted}, {Name: "d/flat", Ranker: "d", Mode: ModeFlat}}
	outs := make([][]Outcome, 3)
	for a := range outs {
		outs[a] = make([]Outcome, n)
	}
	for q := range n {
		b := float64((q * 7 % 11) % 2) // flat
		r := float64((q*5%13)%3) / 2   // routed, not a function of b
		for a, v := range []float64{b, r, r - b} {
			outs[a][q] = Outcome{Needs: 1, Curve: []float64{0}, DomainCurve: []float64{0}}
			outs[a][q].Values[iTop1] = v
		}
	}
	res := &Result{Queries: n}
	opt := DefaultEvalOptions()
	opt.Resamples, opt.CurveK = 400, 1
	summarize(res, arms, outs, opt)
	d, ok := res.diff("x/routed", "x/flat", MTop1)
	if !ok {
		t.Fatal("no routed − flat difference")
	}
	want := res.Arms[2].Metric(MTop1)
	if math.Abs(d.Mean-want.Mean) > 1e-9 || math.Abs(d.Lo-want.Lo) > 1e-9 || math.Abs(d.Hi-want.Hi) > 1e-9 {
		t.Errorf("paired difference %+v, want the interval of the differences %+v", d.Figure, want)
	}
	if d.Hi-d.Lo < 0.1 {
		t.Errorf("interval [%v, %v] implausibly narrow for %d tasks", d.Lo, d.Hi, n)
	}
}

// tinySet loads the tiny hard set of testdata/eval over its catalogs.
func tinySet(t *testing.T) (*Set, *catalog.Catalog) {
	t.Helper()
	dir := filepath.Join("testdata", "eval")
	cat, err := catalog.LoadDir(filepath.Join(dir, "catalogs"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := LoadNamed(filepath.Join(dir, "set.yaml"), Sources{}, cat)
	if err != nil {
		t.Fatal(err)
	}
	return s, cat
}

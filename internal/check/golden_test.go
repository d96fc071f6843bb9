package check

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s (-want +got):\n%s", name, diff)
	}
}

// TestGoldenOutput pins the text, Markdown, JSON and CSV reports of a
// small, hand-made comparison, with a configuration change and a version
// warning; the current file is a growth point, which the header names.
func TestGoldenOutput(t *testing.T) {
	base := results("f", map[string]map[string]report.Distribution{
		"a": {"cost_usd": dist(0.1, 0.09, 0.11), "first_reply_ms": dist(2000, 1900, 2100), "cache_hit_ratio": dist(0.8, 0.79, 0.81)},
		"b": {"cost_usd": dist(0.2, 0.18, 0.22), "first_reply_ms": dist(3000, 2800, 3200), "cache_hit_ratio": dist(0.6, 0.58, 0.62)},
	})
	cur := results("f", map[string]map[string]report.Distribution{
		"a": {"cost_usd": dist(0.1, 0.09, 0.11), "first_reply_ms": dist(2010, 1910, 2110), "cache_hit_ratio": dist(0.8, 0.79, 0.81)},
		"b": {"cost_usd": dist(0.25, 0.23, 0.27), "first_reply_ms": dist(2500, 2300, 2700), "cache_hit_ratio": dist(0.5, 0.48, 0.52)},
	})
	rules := []Rule{{Metric: "cost_usd", Stat: StatMean, Rel: 0.02}, {Metric: "first_reply_ms", Stat: StatMean, Rel: 0.05, Abs: 50},
		{Metric: "first_reply_ms", Stat: StatP95, Rel: 0.1, Abs: 100}, {Metric: "cache_hit_ratio", Stat: StatMean, Rel: 0.02}}
	base.GeneratorVersion, cur.GeneratorVersion = "v1.0.0", "v1.1.0"
	cur.Run.Seed = 2
	base.Sessions, cur.Sessions = 200, 200
	cur.Run.GrowthPoint = &sim.GrowthPoint{Factor: 2, Tools: 267}
	cur.Strategies[1].Parameters.Trigger = sim.Trigger{Mode: "budget", Budget: 8000}
	rows := compare(base, cur, rules, Options{Noise: NoisePaired})
	rep := &Report{BaselinePath: "base.json", CurrentPath: "cur.json", Baseline: fileInfo(base), Current: fileInfo(cur), Rows: rows, Summary: summarize(rows),
		CatalogChanges: []string{"~ kb: 2.13.0 → 3.0.0"}, Notes: []string{"paired"},
		Changes: structuralDiff(base, cur), Warnings: versionWarnings(base, cur)}
	var text, all, md, js, csv bytes.Buffer
	if err := WriteText(&text, rep, false); err != nil {
		t.Fatal(err)
	}
	if err := WriteText(&all, rep, true); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(&md, rep); err != nil {
		t.Fatal(err)
	}
	golden(t, "report.txt", text.Bytes())
	golden(t, "report-all.txt", all.Bytes())
	golden(t, "report.md", md.Bytes())
	if err := WriteJSON(&js, rep); err != nil {
		t.Fatal(err)
	}
	golden(t, "report.json", js.Bytes())
	if err := WriteCSV(&csv, rep); err != nil {
		t.Fatal(err)
	}
	golden(t, "report.csv", csv.Bytes())
}

// TestStructuralDiffReadable pins that configuration differences are a
// list of "path: baseline → current" lines named as in results.json, not
// a dump of Go values (the Markdown once showed "&report.Results{").
func TestStructuralDiffReadable(t *testing.T) {
	d := dist(1, 0.9, 1.1)
	base := results("f", map[string]map[string]report.Distribution{"a": {"cost_usd": d}, "b": {"cost_usd": d}})
	cur := results("f", map[string]map[string]report.Distribution{"a": {"cost_usd": d}, "b": {"cost_usd": d}, "c": {"cost_usd": d}})
	cur.Run.Seed = 7
	cur.Strategies[1].Parameters.Trigger = sim.Trigger{Mode: "budget", Budget: 16000}
	cur.Strategies[0].Metrics["cost_usd"] = dist(5, 4, 6) // a metric value: not listed
	got := structuralDiff(base, cur)
	want := []string{
		"run.seed: 1 → 7",
		"strategies[b].parameters.trigger.budget: (absent) → 16000",
		"strategies[b].parameters.trigger.mode: never → budget",
		"strategies[c]: only in current",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("StructuralDiff (-want +got):\n%s", diff)
	}
	if got := structuralDiff(base, base); len(got) != 0 {
		t.Errorf("a file differs from itself: %q", got)
	}
}

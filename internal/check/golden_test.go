package check

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/report"
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

// TestGoldenOutput pins the table and the Markdown block for a small,
// hand-made comparison (the go-cmp diff is left out: its layout is not
// stable by design).
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
	rows := compare(base, cur, rules, Options{Noise: NoisePaired})
	rep := &Report{BaselinePath: "base.json", CurrentPath: "cur.json", Rows: rows, Summary: summarize(rows),
		CatalogChanges: []string{"~ kb: 2.13.0 → 3.0.0"}, Notes: []string{"paired"}}
	var text, all, md bytes.Buffer
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
}

package plan

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

func TestGoldenProjection(t *testing.T) {
	d := func(mean, lo, hi float64) report.Distribution {
		return report.Distribution{Count: 40, Mean: mean, StdDev: mean / 2, P50: mean, P95: 2 * mean,
			MeanCI: &report.Interval{Low: lo, High: hi}, P50CI: &report.Interval{Low: 0.9 * mean, High: 1.1 * mean}}
	}
	// Replayed cold (cache_warm_start 0) under a 300 s TTL: at 25,000
	// sessions a day the plan states it and warns.
	res := &report.Results{Sessions: 40, Run: sim.RunInfo{Scenario: "golden", Model: "m",
		Assumptions: []sim.Assumption{{Name: "cache.ttl_s", Value: "300"}, {Name: "cache_warm_start", Value: "0"}}},
		Prices: &report.Prices{Model: "m", Input: 3, CacheWrite: 3.75, CacheRead: 0.3, Output: 15}}
	for i, name := range []string{"eager", "deferred"} {
		k := float64(i + 1)
		res.Strategies = append(res.Strategies, report.StrategyResult{Name: name, Metrics: map[string]report.Distribution{
			"cost_usd": d(0.3/k, 0.25/k, 0.35/k), "input_tokens": d(500000/k, 450000/k, 550000/k),
			"uncached_input_tokens": {Count: 40, Mean: 1000}, "cache_write_tokens": {Count: 40, Mean: 40000 / k, StdDev: 10000},
			"cache_read_tokens": {Count: 40, Mean: 459000 / k, StdDev: 90000}, "output_tokens": {Count: 40, Mean: 3000, StdDev: 500},
			"first_reply_ms": d(8000*k, 7000*k, 9000*k), "session_ms": d(160000, 150000, 170000),
			"extra_round_trips": {Count: 40, Mean: 4 * float64(i)},
		}})
	}
	p, err := Project(res, Options{SessionsPerDay: 25000})
	if err != nil {
		t.Fatal(err)
	}
	var text, md, csv bytes.Buffer
	if err := WriteProjection(&text, p); err != nil {
		t.Fatal(err)
	}
	if err := WriteProjectionMarkdown(&md, p); err != nil {
		t.Fatal(err)
	}
	if err := WriteProjectionCSV(&csv, p); err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string][]byte{"projection.txt": text.Bytes(), "projection.md": md.Bytes(), "projection.csv": csv.Bytes()} {
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
}

package check

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// TestShardAgainstWholeRun pins that a shard's results (a share of the
// sessions read) checked against the whole run's, or against a run that
// skipped sessions, are incomparable without --allow traces and then
// compared as independent samples, not paired (same traces and seed once
// made them "paired" and the sample difference a regression, exit 1).
func TestShardAgainstWholeRun(t *testing.T) {
	run := func(replayed, read, skipped int64) *report.Results {
		d := dist(1, 0.9, 1.1)
		d.Count, d.Min, d.Max = int(replayed), 0, 3
		r := results("f", map[string]map[string]report.Distribution{"a": {"cost_usd": d}})
		r.Metrics = []sim.Metric{{Name: "cost_usd", LowerIsBetter: true}}
		r.Run.Inputs = []sim.Input{{Kind: "trace", Path: "t.jsonl", SHA256: "aa"}}
		r.Sessions = int(replayed)
		r.Run.Counts = sim.Counts{SessionsRead: read, SessionsReplayed: replayed, SessionsSkipped: skipped}
		return r
	}
	tests := []struct {
		name      string
		base, cur *report.Results
		want      string // substring of the reason; "" = comparable
		warn      string // substring of a warning of Run
		noise     string // noise model Run picks when comparable (or with --allow traces)
	}{
		{"whole runs", run(350, 350, 0), run(350, 350, 0), "", "", NoisePaired},
		{"shard vs whole", run(350, 350, 0), run(175, 350, 0), "current 175 of the 350 sessions it read (a shard's share)", "", NoiseCI},
		{"whole vs shard", run(175, 350, 0), run(350, 350, 0), "baseline 175 of the 350 sessions it read (a shard's share)", "", NoiseCI},
		{"shards of 2 and 3", run(175, 350, 0), run(114, 350, 0), "defersim merge", "", NoiseCI},
		{"skipped sessions", run(350, 350, 0), run(349, 350, 1), "349 of the 350 sessions it read (1 skipped)", "", NoiseCI},
		{"same shard share", run(175, 350, 0), run(175, 350, 0), "", "same shard of each run", NoisePaired},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			inc := checkComparable(tc.base, tc.cur, nil, Allow{})
			switch {
			case tc.want == "" && inc != nil:
				t.Fatalf("incomparable: %v", inc)
			case tc.want != "" && (inc == nil || !strings.Contains(inc.Error(), tc.want)):
				t.Fatalf("reasons %v, want one containing %q", inc, tc.want)
			}
			dir := t.TempDir()
			paths := [2]string{filepath.Join(dir, "base.json"), filepath.Join(dir, "cur.json")}
			for i, r := range []*report.Results{tc.base, tc.cur} {
				if err := report.WriteResults(paths[i], r); err != nil {
					t.Fatal(err)
				}
			}
			rep, err := Run(Config{BaselinePath: paths[0], CurrentPath: paths[1], Allow: Allow{Traces: tc.want != ""}})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Rows) == 0 || rep.Rows[0].Paired != (tc.noise == NoisePaired) {
				t.Errorf("rows %+v, want noise %s", rep.Rows, tc.noise)
			}
			if got := strings.Join(rep.Warnings, "\n"); !strings.Contains(got, tc.warn) || tc.warn == "" && got != "" {
				t.Errorf("warnings %q, want %q", got, tc.warn)
			}
		})
	}
}

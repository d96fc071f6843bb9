package check

import (
	"errors"
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

// TestShardsAreTold pins that the shards results.json records (run.shard)
// decide whether two files replayed the same sessions: shard 0/2 against
// shard 1/2 of the same traces (equal counts) was compared as paired data
// with a warning only; now different shards, or a shard against a whole
// run, are incomparable without --allow traces, and the same shard of two
// runs is paired without the warning. A share without a recorded shard
// (an earlier build's) keeps the counts' rule and its warning.
func TestShardsAreTold(t *testing.T) {
	run := func(replayed int64, shard *sim.ShardInfo) *report.Results {
		d := dist(1, 0.9, 1.1)
		d.Count, d.Min, d.Max = int(replayed), 0, 3
		r := results("f", map[string]map[string]report.Distribution{"a": {"cost_usd": d}})
		r.Metrics = []sim.Metric{{Name: "cost_usd", LowerIsBetter: true}}
		r.Run.Inputs = []sim.Input{{Kind: "trace", Path: "t.jsonl", SHA256: "aa"}}
		r.Sessions = int(replayed)
		r.Run.Counts = sim.Counts{SessionsRead: 350, SessionsReplayed: replayed}
		r.Run.Shard = shard
		return r
	}
	sh := func(i, n int) *sim.ShardInfo { return &sim.ShardInfo{Index: i, Count: n} }
	tests := []struct {
		name      string
		base, cur *report.Results
		want      string // substring of the reason; "" = comparable
		warn      string // substring of a warning of Run
		note      string // substring of a note of Run
		noise     string // noise model Run picks when comparable (or with --allow traces)
	}{
		{"shard 0/2 vs 1/2", run(175, sh(0, 2)), run(175, sh(1, 2)),
			"baseline shard 0/2 (175 of the 350 sessions it read), current shard 1/2 (175 of the 350 sessions it read)\nwhat to do:\n  check the same shard of each run",
			"", "different session sets allowed", NoiseCI},
		{"shard vs whole", run(175, sh(1, 2)), run(350, nil),
			"baseline shard 1/2 (175 of the 350 sessions it read), current the whole run (350 of the 350 sessions it read)", "", "", NoiseCI},
		{"whole vs shard", run(350, nil), run(175, sh(0, 2)), "baseline the whole run", "", "", NoiseCI},
		{"shard 0/2 vs 0/3", run(175, sh(0, 2)), run(175, sh(0, 3)), "current shard 0/3", "", "", NoiseCI},
		{"same shard", run(175, sh(1, 2)), run(175, sh(1, 2)), "", "", "both files are of shard 1/2 of their runs", NoisePaired},
		{"shard vs unrecorded share", run(175, sh(1, 2)), run(175, nil), "", "same shard of each run", "", NoisePaired},
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
			if tc.want != "" {
				_, err := Run(Config{BaselinePath: paths[0], CurrentPath: paths[1]})
				var inc *Incomparable
				if !errors.As(err, &inc) {
					t.Fatalf("Run without --allow traces: %v, want incomparable", err)
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
			if got := strings.Join(rep.Notes, "\n"); !strings.Contains(got, tc.note) {
				t.Errorf("notes %q, want %q", got, tc.note)
			}
		})
	}
}

package check

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// TestCheckWarnsOnUnresolvedPastLimit pins that check warns, in its text,
// Markdown and JSON outputs, when either run replayed with more unresolved
// calls than its limit (--allow-unresolved), naming the side, in plan's
// words: check compared two such runs with no word of the tools neither
// file counts, and listed only the resolution fields that changed.
func TestCheckWarnsOnUnresolvedPastLimit(t *testing.T) {
	unres := func(share, limit float64) *sim.ResolutionInfo {
		return &sim.ResolutionInfo{Resolution: sim.Resolution{Calls: 1000}, Unresolved: int64(share * 1000),
			UnresolvedShare: share, MaxUnresolvedShare: limit, AllowUnresolved: share > limit}
	}
	const heavy = "88.7% of the traces' tool calls (887 of 1000) did not resolve against the run's catalogs, more than its limit of 1.0% (replayed with --allow-unresolved)"
	tests := []struct {
		name      string
		base, cur *sim.ResolutionInfo
		want      []string // the warnings' starts, in order; nil = none
	}{
		{"clean runs", unres(0, 0.01), unres(0, 0.01), nil},
		{"within the limit", unres(0.005, 0.01), unres(0.009, 0.01), nil},
		{"earlier builds", nil, nil, nil},
		{"current past the limit", unres(0, 0.01), unres(0.887, 0.01), []string{"current: " + heavy}},
		{"baseline past the limit", unres(0.887, 0.01), nil, []string{"baseline: " + heavy}},
		{"both alike", unres(0.887, 0.01), unres(0.887, 0.01), []string{"both runs: " + heavy}},
		{"both, differently", unres(0.887, 0.01), unres(0.5, 0.01), []string{"baseline: " + heavy, "current: 50.0% of the traces' tool calls (500 of 1000)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			paths := [2]string{filepath.Join(dir, "base.json"), filepath.Join(dir, "cur.json")}
			for i, res := range []*sim.ResolutionInfo{tc.base, tc.cur} {
				d := report.Distribution{Count: 100, Mean: 1, P50: 1, P95: 1, Min: 0, Max: 2}
				r := results("f", map[string]map[string]report.Distribution{"a": {"cost_usd": d}})
				r.Metrics = []sim.Metric{{Name: "cost_usd", LowerIsBetter: true}}
				r.Sessions = 100
				r.Run.Counts = sim.Counts{SessionsRead: 100, SessionsReplayed: 100}
				r.Run.Resolution = res
				if err := report.WriteResults(paths[i], r); err != nil {
					t.Fatal(err)
				}
			}
			rep, err := Run(Config{BaselinePath: paths[0], CurrentPath: paths[1]})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Warnings) != len(tc.want) {
				t.Fatalf("warnings %q, want %d", rep.Warnings, len(tc.want))
			}
			var text, mdown, js bytes.Buffer
			if err := WriteText(&text, rep, false); err != nil {
				t.Fatal(err)
			}
			if err := WriteMarkdown(&mdown, rep); err != nil {
				t.Fatal(err)
			}
			if err := WriteJSON(&js, rep); err != nil {
				t.Fatal(err)
			}
			var data struct {
				Warnings []string `json:"warnings"`
			}
			if err := json.Unmarshal(js.Bytes(), &data); err != nil {
				t.Fatal(err)
			}
			for i, w := range tc.want {
				got := rep.Warnings[i]
				if !strings.HasPrefix(got, w) || !strings.HasSuffix(got, "so no check sees what they cost or how the change moves them") {
					t.Errorf("warning %q, want it to start %q", got, w)
				}
				if !strings.Contains(text.String(), "warning: "+got) || !strings.Contains(mdown.String(), "> **Warning:** "+md(got)) ||
					i >= len(data.Warnings) || data.Warnings[i] != got {
					t.Errorf("warning %q not in every output:\n%s\n%s\n%s", got, text.String(), mdown.String(), js.String())
				}
			}
		})
	}
}

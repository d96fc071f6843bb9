package check

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// TestHeaderSaysWhatEachFileIs pins that check's text header names, after
// each file's path, its scenario, its sweep or growth point when it is
// one, and the sessions it replayed, and that the JSON report carries the
// same facts (baseline_run, current_run). The header used to be
// "baseline: PATH" and "current:  PATH" alone, so a CI log did not say
// that the current file was, say, a growth point's replay on a catalog
// twice the size.
func TestHeaderSaysWhatEachFileIs(t *testing.T) {
	d := map[string]report.Distribution{"cost_usd": dist(1, 1, 1)}
	tests := []struct {
		name   string
		edit   func(r *report.Results)
		header string // after "current:  cur.json — "
	}{
		{"plain run", func(r *report.Results) {}, `scenario "t", 350 sessions replayed`},
		{"sweep point", func(r *report.Results) {
			r.Run.SweepPoint = &sim.SweepPoint{Param: "params.cache_warm_start", Value: 1}
		}, `scenario "t" at sweep point params.cache_warm_start=1, 350 sessions replayed`},
		{"growth point", func(r *report.Results) {
			r.Run.GrowthPoint = &sim.GrowthPoint{Factor: 2, Tools: 267, From: "catalogs"}
		}, `scenario "t" at growth point ×2 (267 tools, servers from catalogs), 350 sessions replayed`},
		{"no scenario name, one session", func(r *report.Results) { r.Run.Scenario, r.Sessions = "", 1 }, `no scenario name, 1 session replayed`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base, cur := results("f", map[string]map[string]report.Distribution{"a": d}), results("f", map[string]map[string]report.Distribution{"a": d})
			base.Sessions, cur.Sessions = 350, 350
			tc.edit(cur)
			rep := &Report{BaselinePath: "base.json", CurrentPath: "cur.json", Baseline: fileInfo(base), Current: fileInfo(cur)}
			var text, js bytes.Buffer
			if err := WriteText(&text, rep, false); err != nil {
				t.Fatal(err)
			}
			want := "baseline: base.json — scenario \"t\", 350 sessions replayed\ncurrent:  cur.json — " + tc.header + "\n"
			if !strings.HasPrefix(text.String(), want) {
				t.Errorf("header:\n%s\nwant:\n%s", text.String(), want)
			}
			if err := WriteJSON(&js, rep); err != nil {
				t.Fatal(err)
			}
			var got struct {
				BaselineRun FileInfo `json:"baseline_run"`
				CurrentRun  FileInfo `json:"current_run"`
			}
			if err := json.Unmarshal(js.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			if got.BaselineRun.String() != `scenario "t", 350 sessions replayed` || got.CurrentRun.String() != tc.header {
				t.Errorf("JSON baseline_run %+v, current_run %+v; want the header's %q", got.BaselineRun, got.CurrentRun, tc.header)
			}
		})
	}
}

package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestReportsSayWhichSweepPoint pins that the reports of a sweep point's
// results (run.sweep_point) or a plan --growth point's (run.growth_point)
// name the point after the scenario — the terminal summary's run line,
// report.md's title and run line, and report.html's title — and that a
// plain run's say nothing of a sweep or growth. `defersim report` on a
// point's results.json read as a run of the scenario as written (a
// growth point's until its point was recorded).
func TestReportsSayWhichSweepPoint(t *testing.T) {
	tests := []struct {
		name   string
		point  *sim.SweepPoint
		growth *sim.GrowthPoint
		at     string // after the scenario's name; "" for a plain run
	}{
		{"sweep point", &sim.SweepPoint{Param: "params.cache_warm_start", Value: 0.5}, nil, " at sweep point params.cache_warm_start=0.5"},
		{"growth point", nil, &sim.GrowthPoint{Factor: 4, Tools: 533, From: "catalogs"}, " at growth point ×4 (533 tools, servers from catalogs)"},
		{"plain run", nil, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := goldenResults(t)
			res.Run.SweepPoint, res.Run.GrowthPoint = tt.point, tt.growth
			scenario := res.Run.Scenario
			if scenario == "" {
				t.Fatal("the golden results name no scenario")
			}
			var sum bytes.Buffer
			if err := Summary(&sum, res); err != nil {
				t.Fatal(err)
			}
			md := string(markdownReport(res, nil))
			page, err := htmlReport(res, nil)
			if err != nil {
				t.Fatal(err)
			}
			html := string(page)
			runLine := ", scenario " + scenario + tt.at + ", seed "
			for name, want := range map[string]string{
				"summary":           runLine,
				"report.md run":     mdEscape(runLine),
				"report.md title":   "# " + mdEscape("defersim report: "+scenario+tt.at) + "\n",
				"report.html title": "<title>defersim report: " + scenario + tt.at + "</title>",
			} {
				out := sum.String()
				switch {
				case strings.HasPrefix(name, "report.md"):
					out = md
				case strings.HasPrefix(name, "report.html"):
					out = html
				}
				if !strings.Contains(out, want) {
					t.Errorf("%s lacks %q", name, want)
				}
				if tt.at == "" && (strings.Contains(out, "sweep point") || strings.Contains(out, "growth point")) {
					t.Errorf("%s of a plain run mentions a sweep or growth point", name)
				}
			}
		})
	}
}

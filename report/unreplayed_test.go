package report

import (
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestReportSaysUnreplayedVersions pins that report.md and report.html
// show the catalog versions no session replayed
// (run.resolution.unreplayed_versions) in their input resolution section,
// in the words of run's warning: results.json recorded them and run and
// check warned, while the report of the same run read as a clean run.
func TestReportSaysUnreplayedVersions(t *testing.T) {
	unreplayed := []sim.UnreplayedVersions{
		{Server: "chrome-devtools-mcp", Versions: []string{"1.11.0"}, Replayed: []string{"0.17.0"}},
		{Server: "kb", Versions: []string{"0.9.0", "0.10.0"}, Replayed: []string{"0.2.0"}},
	}
	want := "Catalog versions no session replayed, newer than those replayed, so no figure of this run measures them (results.json run.resolution.unreplayed_versions): " +
		"chrome-devtools-mcp 1.11.0 (the sessions replayed 0.17.0; to replay it, add servers.chrome-devtools-mcp.upgrades to the scenario, or record traces that name it: docs/scenarios.md#servers); " +
		"kb 0.9.0 and 0.10.0 (the sessions replayed 0.2.0; to replay them, add servers.kb.upgrades to the scenario, or record traces that name them: docs/scenarios.md#servers)."
	for _, tc := range []struct {
		name       string
		unreplayed []sim.UnreplayedVersions
	}{{"none", nil}, {"two servers", unreplayed}} {
		t.Run(tc.name, func(t *testing.T) {
			res := sampleResults(t, 2, 10)
			res.Run.Resolution = &sim.ResolutionInfo{Resolution: sim.Resolution{Calls: 10, Resolved: 10}, MaxUnresolvedShare: 0.01,
				UnreplayedVersions: tc.unreplayed}
			md := string(markdownReport(res, nil))
			page, err := htmlReport(res, nil)
			if err != nil {
				t.Fatal(err)
			}
			text := html.UnescapeString(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(string(page), ""))
			for name, out := range map[string]string{"report.md": strings.ReplaceAll(md, `\_`, "_"), "report.html": text} {
				if got := strings.Contains(out, want); got != (tc.unreplayed != nil) {
					t.Errorf("%s says the unreplayed versions: %v, want %v\n%s", name, got, tc.unreplayed != nil, out)
				}
				if tc.unreplayed == nil && strings.Contains(out, "no session replayed") {
					t.Errorf("%s names unreplayed versions of a run without any", name)
				}
				// In the input resolution section, after its heading.
				if i := strings.Index(out, "Input resolution"); tc.unreplayed != nil && (i < 0 || strings.Index(out, want) < i) {
					t.Errorf("%s: not in the input resolution section", name)
				}
			}
		})
	}
}

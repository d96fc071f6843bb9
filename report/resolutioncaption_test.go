package report

import (
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestResolutionCaptionClaimsNoResolution pins that report.html's input
// resolution caption says what the table counts, not that every call
// resolved: it read "Every replayed tool call resolved against the
// catalogs" above a table counting unresolved calls (a run with
// --allow-unresolved).
func TestResolutionCaptionClaimsNoResolution(t *testing.T) {
	for _, tc := range []struct {
		name string
		res  sim.Resolution
	}{
		{"all resolved", sim.Resolution{Calls: 10, Resolved: 10}},
		{"some unresolved", sim.Resolution{Calls: 10, Resolved: 7, UnknownTool: 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := sampleResults(t, 2, 10)
			res.Run.Resolution = &sim.ResolutionInfo{Resolution: tc.res, MaxUnresolvedShare: 0.5}
			page, err := htmlReport(res, nil)
			if err != nil {
				t.Fatal(err)
			}
			text := html.UnescapeString(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(string(page), ""))
			md := strings.ReplaceAll(string(markdownReport(res, nil)), `\_`, "_")
			for name, out := range map[string]string{"report.html": text, "report.md": md} {
				if strings.Contains(out, "Every replayed tool call resolved") {
					t.Errorf("%s claims every call resolved", name)
				}
				if want := "10 tool calls checked against the catalogs, as the replay resolves them"; !strings.Contains(out, want) {
					t.Errorf("%s lacks %q", name, want)
				}
			}
		})
	}
}

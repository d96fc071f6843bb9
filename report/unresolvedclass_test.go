package report

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestUnresolvedFindingPerClass pins that the report's unresolved-calls
// finding, and the note plan, check, sweep and recommend print past the
// limit, say what the replay did per class: it said "the replay leaves
// those tools out of every prompt" of version-missing calls too, which the
// replay resolves against another version of their server (its latest).
func TestUnresolvedFindingPerClass(t *testing.T) {
	const leftOut, otherVersion = "out of every prompt, search and load", "against another version of that server (its latest)"
	tests := []struct {
		name                  string
		tool, server, version int64
		want, not             []string
	}{
		{"unknown tool", 30, 0, 0, []string{"the 30 calls of an unknown tool or server " + leftOut}, []string{otherVersion}},
		{"unknown server", 0, 30, 0, []string{leftOut}, []string{otherVersion}},
		{"version missing", 0, 0, 30, []string{"the 30 calls on a server at a version no catalog holds were replayed " + otherVersion}, []string{leftOut}},
		{"both", 10, 0, 20, []string{"the 10 calls of an unknown tool or server " + leftOut, "; and the 20 calls on a server at a version no catalog holds were replayed " + otherVersion}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := tc.tool + tc.server + tc.version
			r := &sim.ResolutionInfo{Resolution: sim.Resolution{Calls: 100, Resolved: 100 - n, UnknownTool: tc.tool, UnknownServer: tc.server, VersionMissing: tc.version},
				Unresolved: n, UnresolvedShare: float64(n) / 100, MaxUnresolvedShare: 0.01, AllowUnresolved: true}
			var finding string
			for _, f := range resolutionFindings(r) {
				if strings.Contains(f, "did not resolve") {
					finding = f
				}
			}
			note := ResolutionPastLimit(r)
			for _, out := range []string{finding, note} {
				for _, w := range tc.want {
					if !strings.Contains(strings.ToLower(out), strings.ToLower(w)) {
						t.Errorf("lacks %q:\n%s", w, out)
					}
				}
				for _, w := range tc.not {
					if strings.Contains(out, w) {
						t.Errorf("has %q:\n%s", w, out)
					}
				}
			}
		})
	}
}

// TestResolutionSectionHeadline pins that report.md's input resolution
// section counts the calls it checked without calling them resolved: it
// read "847 tool calls resolved against the catalogs" above a table where
// 141 of them did not resolve.
func TestResolutionSectionHeadline(t *testing.T) {
	for _, unresolved := range []int64{0, 141} {
		r := &sim.ResolutionInfo{Resolution: sim.Resolution{Calls: 847, Resolved: 847 - unresolved, UnknownTool: unresolved},
			Unresolved: unresolved, UnresolvedShare: float64(unresolved) / 847, MaxUnresolvedShare: 0.01, AllowUnresolved: true}
		var b strings.Builder
		resolutionMarkdown(&b, r)
		if !strings.Contains(b.String(), "847 tool calls checked against the catalogs") || strings.Contains(b.String(), "847 tool calls resolved") {
			t.Errorf("%d unresolved: headline of\n%s", unresolved, b.String())
		}
	}
}

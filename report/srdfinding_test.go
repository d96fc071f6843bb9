package report

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestSRDFindingFlagsUnreadDescriptions pins that routing descriptions a
// user gave (--srd, scenario srd:) that no strategy of the run reads are
// flagged in the findings (they used to leave no trace but run.srd in
// results.json), while the embedded set read by nobody says nothing; and
// that the count of what they describe says it counts catalog series, a
// launch variant apart from its server ("describing 7 of the run's 42
// servers" with 5 SRDs read as if 7 servers had one).
func TestSRDFindingFlagsUnreadDescriptions(t *testing.T) {
	for _, tc := range []struct {
		name string
		info *sim.SRDInfo
		want string // "" = no finding
	}{
		{"none", nil, ""},
		{"embedded, unread", &sim.SRDInfo{Source: "embedded", Embedded: true, Count: 40}, ""},
		{"own, unread", &sim.SRDInfo{Source: "srd/mine", Count: 2, SHA256: "c6a21668b2ff4a56"},
			"The routing descriptions given (srd/mine: 2 SRDs, sha256 c6a21668b2ff) were read by no strategy"},
		{"own, read", &sim.SRDInfo{Source: "srd/mine", Count: 2, SHA256: "c6a21668b2ff4a56", UsedBy: []string{"routed"}, ServersDescribed: 2, Servers: 10},
			"Routed search and by-domain directories (routed) used the routing descriptions of srd/mine"},
		// A launch variant is counted apart from its server (5 SRDs
		// describing 7 series read as 7 servers); the note says so.
		{"own, read, variants", &sim.SRDInfo{Source: "srd/mine", Count: 5, SHA256: "c6a21668b2ff4a56", UsedBy: []string{"routed"}, ServersDescribed: 7, Servers: 42},
			"5 SRDs, sha256 c6a21668b2ff, describing 7 of the run's 42 catalog series (a launch variant is a series of its own, described by its server's SRD unless an SRD names it)"},
	} {
		got := srdFinding(tc.info)
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("%s: finding %q, want %q", tc.name, got, tc.want)
		}
	}
}

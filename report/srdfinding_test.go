package report

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestSRDFindingFlagsUnreadDescriptions pins that routing descriptions a
// user gave (--srd, scenario srd:) that no strategy of the run reads are
// flagged in the findings (they used to leave no trace but run.srd in
// results.json), while the embedded set read by nobody says nothing.
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
	} {
		got := srdFinding(tc.info)
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("%s: finding %q, want %q", tc.name, got, tc.want)
		}
	}
}

package runner

import (
	"testing"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/srd"
)

// TestDescribedServersLaunchVariants pins the rule run's SRD note counts
// by, the one routing applies (srd.Set.ForServer): an SRD for a server
// describes its launch variants too, and an SRD naming a variant
// (server+variant) describes that variant alone; the count is of catalog
// series, a variant counted apart from its server.
func TestDescribedServersLaunchVariants(t *testing.T) {
	var servers []*catalog.Server
	for _, s := range []struct{ name, variant string }{
		{"play", ""}, {"play", "caps-vision-pdf"}, {"play", "caps-devtools"}, {"mail", ""}, {"base", "no-docs"},
	} {
		srv, err := catalog.NewServer(s.name, "1.0", s.variant, nil)
		if err != nil {
			t.Fatal(err)
		}
		servers = append(servers, srv)
	}
	cat := catalog.New(servers...)
	for _, tc := range []struct {
		name      string
		ids       []string
		described int
		routedBy  map[string]string // series -> server_id of the SRD routing finds
	}{
		{"the server's SRD covers its variants", []string{"play"}, 3,
			map[string]string{"play": "play", "play+caps-vision-pdf": "play", "play+caps-devtools": "play", "mail": ""}},
		{"a variant's own SRD describes it alone", []string{"play+caps-vision-pdf"}, 1,
			map[string]string{"play": "", "play+caps-vision-pdf": "play+caps-vision-pdf", "play+caps-devtools": ""}},
		{"a variant's own SRD wins over its server's", []string{"play", "play+caps-vision-pdf"}, 3,
			map[string]string{"play": "play", "play+caps-vision-pdf": "play+caps-vision-pdf", "play+caps-devtools": "play"}},
		{"only a variant in the catalog, SRD for its server", []string{"base", "mail"}, 2,
			map[string]string{"base+no-docs": "base", "mail": "mail"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var srds []*srd.SRD
			for _, id := range tc.ids {
				srds = append(srds, &srd.SRD{ServerID: id, Domain: "d"})
			}
			described, n, err := describedServers(srds, cat)
			if err != nil {
				t.Fatal(err)
			}
			if described != tc.described || n != 5 {
				t.Errorf("described %d of %d, want %d of 5", described, n, tc.described)
			}
			set, err := srd.NewSet(srds)
			if err != nil {
				t.Fatal(err)
			}
			for series, want := range tc.routedBy {
				got := ""
				if d := set.ForServer(series); d != nil {
					got = d.ServerID
				}
				if got != want {
					t.Errorf("%s routed by the SRD of %q, want %q", series, got, want)
				}
			}
		})
	}
}

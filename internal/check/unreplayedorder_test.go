package check

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/sim"
)

// TestCatalogVersionsInReleaseOrder pins that check lists a server's
// catalog versions in release order, as run records them: they were
// sorted as text, so an upgrade 0.9.0 → 0.10.0 read
// "0.9.0 → 0.10.0,0.9.0" in the unreplayed change and the catalog changes.
func TestCatalogVersionsInReleaseOrder(t *testing.T) {
	cat := func(versions ...string) []sim.Input {
		var out []sim.Input
		for _, v := range versions {
			out = append(out, sim.Input{Kind: "catalog", Path: "srv@" + v + ".json", SHA256: "h" + v, Server: "srv", Version: v})
		}
		return out
	}
	base, cur := results("f", nil), results("f", nil)
	base.Run.Inputs = cat("0.9.0", "0.2.0")
	cur.Run.Inputs = cat("0.10.0", "0.9.0", "0.2.0", "1.0.0-rc.1")
	cur.Run.Resolution = &sim.ResolutionInfo{UnreplayedVersions: []sim.UnreplayedVersions{
		{Server: "srv", Versions: []string{"0.10.0", "1.0.0-rc.1"}, Replayed: []string{"0.2.0", "0.9.0"}}}}
	want := []Unreplayed{{Server: "srv", Versions: []string{"0.10.0", "1.0.0-rc.1"}, Replayed: []string{"0.2.0", "0.9.0"},
		Change: "0.2.0,0.9.0 → 0.2.0,0.9.0,0.10.0,1.0.0-rc.1"}}
	if diff := cmp.Diff(want, unreplayedChanges(base, cur)); diff != "" {
		t.Errorf("unreplayed changes (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"~ srv: 0.2.0,0.9.0 → 0.2.0,0.9.0,0.10.0,1.0.0-rc.1"}, catalogChanges(base, cur)); diff != "" {
		t.Errorf("catalog changes (-want +got):\n%s", diff)
	}
}

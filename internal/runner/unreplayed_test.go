package runner

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/sim"
)

// TestUnreplayedVersionsAreTheNewerOnes pins which catalog versions a run
// names as replayed by no session (run.resolution.unreplayed_versions):
// those of a server some session replayed that are newer than the newest
// replayed one — an upgrade in the catalogs the figures do not measure —
// and not a version between two replayed ones, nor any of a server no
// session replayed, nor anything when the catalogs are not known.
func TestUnreplayedVersionsAreTheNewerOnes(t *testing.T) {
	held := HeldServers{"a": {"1.0.0", "1.1.0", "2.0.0", "3.0.0"}, "b": {"1.0.0", "2.0.0"}, "c": {"1.0.0"}}
	for _, tc := range []struct {
		name     string
		replayed map[string][]string
		held     HeldServers
		want     []sim.UnreplayedVersions
	}{
		{"newer versions of a", map[string][]string{"a": {"1.0.0"}, "c": {"1.0.0"}}, held,
			[]sim.UnreplayedVersions{{Server: "a", Versions: []string{"1.1.0", "2.0.0", "3.0.0"}, Replayed: []string{"1.0.0"}}}},
		{"one between replayed ones is not named", map[string][]string{"a": {"1.0.0", "2.0.0"}}, held,
			[]sim.UnreplayedVersions{{Server: "a", Versions: []string{"3.0.0"}, Replayed: []string{"1.0.0", "2.0.0"}}}},
		{"the newest replayed", map[string][]string{"a": {"3.0.0"}, "b": {"2.0.0"}}, held, nil},
		{"a server no session replayed", map[string][]string{"c": {"1.0.0"}}, held, nil},
		{"catalogs not known", map[string][]string{"a": {"1.0.0"}}, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if d := cmp.Diff(tc.want, unreplayedVersions(tc.replayed, tc.held)); d != "" {
				t.Errorf("(-want +got)\n%s", d)
			}
		})
	}
}

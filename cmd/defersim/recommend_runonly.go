package main

import (
	"fmt"
	"sort"

	"github.com/defersim/defersim/internal/recommend"
	"github.com/defersim/defersim/scenarios"
)

// runOnly lists what sc, read from the --scenario file path, sets that a
// run of it applies and recommend does not (recommend.RunOnly): upgrades,
// permissions and routing descriptions; and its local servers, which
// recommend applies (recommend.Config.LocalServers). Without --scenario
// (path "") it applies none of them: the embedded default lends recommend
// its model and params, and the snippet goes into the user's own
// scenario, not into it; its local servers, which a run without a
// scenario applies, are passed as not applied
// (recommend.RunOnly.DefaultLocal), for a note.
func runOnly(path string, sc *scenarios.Scenario) (r recommend.RunOnly, local []string) {
	r = recommend.RunOnly{Scenario: sc.Name}
	names := make([]string, 0, len(sc.Servers))
	for name := range sc.Servers {
		names = append(names, name)
	}
	sort.Strings(names)
	if path == "" {
		for _, name := range names {
			if sc.Servers[name].Local {
				r.DefaultLocal = append(r.DefaultLocal, name)
			}
		}
		return r, nil
	}
	for _, name := range names {
		s := sc.Servers[name]
		if s.Local {
			local = append(local, name)
		}
		if len(s.Upgrades) > 0 {
			r.Keys = append(r.Keys, fmt.Sprintf("servers.%s.upgrades", name))
		}
	}
	if len(sc.Permissions.Allow) > 0 || len(sc.Permissions.Deny) > 0 {
		r.Keys = append(r.Keys, "permissions")
	}
	if len(sc.SRD) > 0 {
		r.Keys = append(r.Keys, "srd")
	}
	return r, local
}

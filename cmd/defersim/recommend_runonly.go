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
// (path "") it lists nothing: the embedded default lends recommend its
// model and params, and the snippet goes into the user's own scenario,
// not into it.
func runOnly(path string, sc *scenarios.Scenario) (r recommend.RunOnly, local []string) {
	r = recommend.RunOnly{Scenario: sc.Name}
	if path == "" {
		return r, nil
	}
	names := make([]string, 0, len(sc.Servers))
	for name := range sc.Servers {
		names = append(names, name)
	}
	sort.Strings(names)
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

package recommend

import (
	"fmt"
	"slices"
	"strings"

	"github.com/defersim/defersim/catalog"
)

// RunOnly is what a scenario sets that a run of it applies and recommend
// does not: its rules take every server's tools as MCP tools, replayed on
// the versions the traces name, with no permissions or routing
// descriptions, and its validation replays them so.
type RunOnly struct {
	// Scenario names the scenario ("default" when recommend read the
	// embedded one).
	Scenario string
	// LocalServers are the scenario's servers marked local (servers.X.local):
	// only those the catalogs hold are warned about.
	LocalServers []string
	// Keys are the other settings, as the scenario writes them
	// ("servers.github.upgrades", "permissions", "srd").
	Keys []string
}

// warning names the settings of r that apply to the catalogs cat, and what
// they mean for the validation's figures; "" when none do.
func (r RunOnly) warning(cat *catalog.Catalog) string {
	var keys []string
	for _, name := range r.LocalServers {
		if len(cat.Versions[name]) > 0 {
			keys = append(keys, fmt.Sprintf("servers.%s.local", name))
		}
	}
	keys = append(keys, r.Keys...)
	if len(keys) == 0 {
		return ""
	}
	slices.Sort(keys)
	if len(keys) > 5 {
		keys = append(keys[:5], fmt.Sprintf("… (%d more)", len(keys)-5))
	}
	return fmt.Sprintf("scenario %s sets %s, which a run of it applies and recommend does not: its rules take every server's tools as MCP tools, "+
		"replayed on the versions the traces name, with no permissions or routing descriptions, and its validation replays them so; "+
		"a run of that scenario with the snippet gives other figures than the validation's: compare the proposal there by run, "+
		"or recommend with a scenario without them", r.Scenario, strings.Join(keys, ", "))
}

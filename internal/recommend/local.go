package recommend

import (
	"fmt"
	"slices"
	"strings"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/nouns"
)

// heldLocal is the local servers (Config.LocalServers) the catalogs hold,
// sorted, each once.
func heldLocal(cat *catalog.Catalog, names []string) []string {
	var local []string
	for _, name := range names {
		if len(cat.Versions[name]) > 0 && !slices.Contains(local, name) {
			local = append(local, name)
		}
	}
	slices.Sort(local)
	return local
}

// localNote says that the local servers' tools were priced as a run
// replays them: direct whatever the budget, unless always-deferred.
func localNote(local []string, scenario string) string {
	keys := make([]string, len(local))
	for i, name := range local {
		keys[i] = "servers." + name + ".local"
	}
	return fmt.Sprintf("scenario %s sets %s: as a run of it does, the rules, the budget and the validation send %s tools whatever the budget "+
		"(decision %q) unless always_defer lists them; pasted into a scenario without %s, the snippet defers them by the budget",
		scenario, strings.Join(keys, ", "), nouns.Form(len(local), "that server's", "those servers'"), localDirect, nouns.Form(len(local), "it", "them"))
}

// defaultLocalNote says which local servers of the embedded default
// scenario, read for want of --scenario, recommend did not apply though a
// run without a scenario does (held: those the catalogs hold), and how to
// apply them; "" when the catalogs hold none.
func defaultLocalNote(held []string, scenario string) string {
	if len(held) == 0 {
		return ""
	}
	keys := make([]string, len(held))
	for i, name := range held {
		keys[i] = "servers." + name + ".local"
	}
	return fmt.Sprintf("without --scenario, recommend does not apply the %s scenario's %s, which a run without a scenario applies: "+
		"the rules, the budget and the validation take %s tools as MCP tools, deferred by the budget, as a scenario without "+
		"that key replays them; to price them as local (sent whatever the budget unless always-deferred), give --scenario a "+
		"scenario file that marks %s local",
		scenario, strings.Join(keys, ", "), nouns.Form(len(held), "that server's", "those servers'"), nouns.Form(len(held), "it", "them"))
}

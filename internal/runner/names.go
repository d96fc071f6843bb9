package runner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/sim"
)

// checkNames refuses the names a run's scenario gives that match nothing
// in its catalogs: an always_defer, never_defer, search.family or
// search.family_core entry of a strategy, a permissions entry, or a local
// or upgraded server. Such an entry would change nothing, silently — most often a
// typo or a server missing from the catalogs. Only the lists the scenario
// file writes are checked (cfg.Wrote), not those a strategy preset or base
// brings: a preset is written for many catalogs (an opener list naming
// web_search is moot where no server serves it); nor are any refused when
// the catalogs are not the scenario's own (--catalogs, or the traces' own
// catalogs): the scenario may then have been written for other catalogs,
// and flagNames lists them for a warning instead.
func checkNames(cfg Config, cat *catalog.Catalog) error {
	if cfg.CatalogsFrom != "" && cfg.CatalogsFrom != CatalogsFromScenario {
		return nil
	}
	probs := unmatchedNames(cfg, cat, "the scenario's catalogs")
	if len(probs) == 0 {
		return nil
	}
	return fmt.Errorf("the scenario names tools or servers its catalogs do not have (a typo, or a catalog missing?):\n  %s", strings.Join(probs, "\n  "))
}

// flagNames lists the entries checkNames would refuse, for a run whose
// catalogs are not the scenario's (--catalogs, or the traces' own), when
// cfg.FlagUnmatched: checkNames passes them, and without this list a
// misspelt never_defer entry would change nothing without a word.
func flagNames(cfg Config, cat *catalog.Catalog) []string {
	if !cfg.FlagUnmatched || cfg.CatalogsFrom == "" || cfg.CatalogsFrom == CatalogsFromScenario {
		return nil
	}
	return unmatchedNames(cfg, cat, "the catalogs ("+cfg.CatalogsFrom+")")
}

// unmatchedNames lists, one line each, the entries of the lists the
// scenario file writes that match nothing in cat (where names cat in the
// lines), each with the name it most likely means.
func unmatchedNames(cfg Config, cat *catalog.Catalog, where string) []string {
	var probs []string
	check := func(owner, field string, list []string) {
		for i, p := range list {
			if matchesAny(cat, p) {
				continue
			}
			why := "matches no tool of any server version"
			if srv, _, scoped := strings.Cut(p, ":"); scoped && cat.Versions[srv] == nil {
				why = fmt.Sprintf("no server %q", srv)
			}
			probs = append(probs, nearPattern(cat, p).WithHint(fmt.Sprintf("%s%s[%d]: %q: %s in %s", owner, field, i, p, why, where)))
		}
	}
	for _, s := range cfg.Strategies {
		owner := "strategy " + s.Name + ": "
		for _, l := range []struct {
			key  string
			list []string
		}{{"always_defer", s.AlwaysDefer}, {"never_defer", s.NeverDefer},
			{"search.family", s.Search.Family}, {"search.family_core", s.Search.FamilyCore}} {
			if cfg.Wrote != nil && cfg.Wrote(s.Name, l.key) {
				check(owner, l.key, l.list)
			}
		}
	}
	check("", "permissions.allow", cfg.Allow)
	check("", "permissions.deny", cfg.Deny)
	for _, srv := range cfg.LocalServers {
		if cat.Versions[srv] == nil {
			probs = append(probs, cat.NearServer(srv).WithHint(fmt.Sprintf("servers.%s: no server %q in %s (have %s)", srv, srv, where, strings.Join(serverNames(cat), ", "))))
		}
	}
	seen := map[string]bool{}
	for _, u := range cfg.Upgrades {
		if cat.Versions[u.Server] == nil && !seen[u.Server] {
			seen[u.Server] = true
			at := u.Where
			if at == "" {
				at = "servers." + u.Server + ".upgrades"
			}
			probs = append(probs, cat.NearServer(u.Server).WithHint(fmt.Sprintf("%s: no server %q in %s (have %s)", at, u.Server, where, strings.Join(serverNames(cat), ", "))))
		}
	}
	return probs
}

// nearPattern is the entry a list entry p that matches nothing most likely
// means (catalog.NearName): for "server:name", the server's name when no
// catalog holds the server, else the server's tool, written scoped again;
// for a bare name, any server's tool. A prefix pattern ("name*") is
// offered nothing: which names it was meant to match is not knowable.
func nearPattern(cat *catalog.Catalog, p string) catalog.Near {
	if strings.HasSuffix(p, "*") {
		return catalog.Near{}
	}
	srv, name, scoped := strings.Cut(p, ":")
	if !scoped {
		return cat.NearTool("", p)
	}
	if cat.Versions[srv] == nil {
		near := cat.NearServer(srv)
		for i, n := range near.Names {
			near.Names[i] = n + ":" + name
		}
		return near
	}
	near := cat.NearTool(srv, name)
	for i, n := range near.Names {
		near.Names[i] = srv + ":" + n
	}
	if near.Kind == catalog.NearPrefix {
		near.Prefix = srv + ":" + near.Prefix
	}
	return near
}

// matchesAny reports whether pattern p matches a tool of some version of
// some server of cat.
func matchesAny(cat *catalog.Catalog, p string) bool {
	for name, versions := range cat.Versions {
		for _, srv := range versions {
			for _, t := range srv.Tools {
				if sim.PatternMatches(p, name, t.Name) {
					return true
				}
			}
		}
	}
	return false
}

func serverNames(cat *catalog.Catalog) []string {
	out := make([]string, 0, len(cat.Versions))
	for name := range cat.Versions {
		out = append(out, name)
	}
	slices.Sort(out)
	if len(out) > 20 {
		out = append(out[:20], fmt.Sprintf("… %d more", len(out)-20))
	}
	return out
}

package runner

import (
	"slices"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/sim"
)

// entryVersions records, for each never_defer and always_defer entry the
// scenario file writes (cfg.Wrote), the catalog versions serving a tool it
// matches (sim.RunInfo.EntryVersions). An entry no version serves is left
// to checkNames and flagNames.
func entryVersions(cfg Config, cat *catalog.Catalog) []sim.EntryVersions {
	var out []sim.EntryVersions
	for _, s := range cfg.Strategies {
		for _, l := range []struct {
			key  string
			list []string
		}{{"never_defer", s.NeverDefer}, {"always_defer", s.AlwaysDefer}} {
			if cfg.Wrote == nil || !cfg.Wrote(s.Name, l.key) {
				continue
			}
			out = append(out, ServingVersions(s.Name, l.key, l.list, cat)...)
		}
	}
	return out
}

// ServingVersions returns, for each entry of list (strategy's key) that a
// tool of some version of cat matches (sim.PatternMatches, as the engine
// matches the lists), the versions serving such a tool.
func ServingVersions(strategy, key string, list []string, cat *catalog.Catalog) []sim.EntryVersions {
	var out []sim.EntryVersions
	for i, p := range list {
		var serving []sim.ServerVersion
		for _, srv := range cat.All() {
			if slices.ContainsFunc(srv.Tools, func(t *catalog.Tool) bool { return sim.PatternMatches(p, srv.Key(), t.Name) }) {
				serving = append(serving, sim.ServerVersion{Server: srv.Key(), Version: srv.Version})
			}
		}
		if len(serving) > 0 {
			out = append(out, sim.EntryVersions{Strategy: strategy, Key: key, Index: i, Entry: p, Serving: serving})
		}
	}
	return out
}

// UnreplayedEntries returns the entries of entries that no version of
// replayed (each server's versions some session replayed, by series key:
// sim.Resolution.ReplayedVersions) serves, with the versions that do and
// the versions of their servers that were replayed. Nil when replayed is
// empty (no session was replayed: nothing to compare with).
func UnreplayedEntries(entries []sim.EntryVersions, replayed map[string][]string) []sim.UnreplayedEntry {
	if len(replayed) == 0 {
		return nil
	}
	var out []sim.UnreplayedEntry
	for _, e := range entries {
		if slices.ContainsFunc(e.Serving, func(v sim.ServerVersion) bool { return slices.Contains(replayed[v.Server], v.Version) }) {
			continue
		}
		u := sim.UnreplayedEntry{Strategy: e.Strategy, Key: e.Key, Index: e.Index, Entry: e.Entry}
		var servers []string
		for _, v := range e.Serving {
			u.Serving = append(u.Serving, v.Server+"@"+v.Version)
			if !slices.Contains(servers, v.Server) {
				servers = append(servers, v.Server)
			}
		}
		for _, s := range servers {
			for _, v := range replayed[s] {
				u.Replayed = append(u.Replayed, s+"@"+v)
			}
		}
		slices.Sort(u.Serving)
		slices.Sort(u.Replayed)
		out = append(out, u)
	}
	return out
}

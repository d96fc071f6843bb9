package sim

import (
	"slices"
	"time"

	"github.com/defersim/defersim/traces"
)

// Upgrade moves a server to catalog version To, for every session from the
// AfterSession-th on (0-based, in trace order; -1 = unset), or at time At
// (sessions that start after At use To; a session that spans At gets a
// catalog change at its first step at or after At).
type Upgrade struct {
	Server       string
	To           string
	AfterSession int64
	At           time.Time
}

// applyUpgrades rewrites a need for the scenario's upgrades. Before an
// upgrade a server is at the version the trace names or, when the trace
// names none, at the catalog version just before To. An upgrade moves a
// server of the session's registry and never adds one: a session that
// does not name the server is left alone, and an `at` change inside a
// session is inserted at its first step at or after At only when the
// server is in the registry there (named at the start or added by a
// recorded catalog_change before that step).
// Recorded catalog changes are replayed as recorded.
func (e *Engine) applyUpgrades(n *Need, idx int64) {
	if len(e.upgrades) == 0 {
		return
	}
	if len(n.Servers) == 0 {
		for _, name := range e.tables.names {
			n.Servers = append(n.Servers, traces.ServerRef{Name: name})
		}
	}
	for _, u := range e.upgrades {
		named := slices.ContainsFunc(n.Servers, func(r traces.ServerRef) bool { return r.Name == u.Server })
		from := e.versionBefore(u.Server, u.To)
		switch {
		case u.AfterSession >= 0:
			if !named {
				continue
			}
			if idx >= u.AfterSession {
				n.Servers = setServer(n.Servers, u.Server, u.To)
			} else {
				n.Servers = setServerDefault(n.Servers, u.Server, from)
			}
		case !u.At.IsZero():
			if named && !n.Start.IsZero() && !n.Start.Before(u.At) {
				n.Servers = setServer(n.Servers, u.Server, u.To)
				continue
			}
			if named {
				n.Servers = setServerDefault(n.Servers, u.Server, from)
			}
			has := named
			for i := range n.Steps {
				st := &n.Steps[i]
				if t := st.T; !t.IsZero() && !t.Before(u.At) {
					if has {
						n.Steps = slices.Insert(n.Steps, i, Step{Kind: StepCatalogChange, Server: u.Server, Version: u.To, T: u.At})
					}
					break
				}
				if st.Kind == StepCatalogChange && st.Server == u.Server {
					has = true
				}
			}
		}
	}
}

// versionBefore returns the catalog version preceding to for server ("" if none).
func (e *Engine) versionBefore(server, to string) string {
	vs := e.tables.versions[server]
	for i, v := range vs {
		if v == to && i > 0 {
			return vs[i-1]
		}
	}
	return ""
}

// setServer pins server to version in refs (adding it when absent).
func setServer(refs []traces.ServerRef, server, version string) []traces.ServerRef {
	out := append([]traces.ServerRef(nil), refs...)
	for i := range out {
		if out[i].Name == server {
			out[i].Version = version
			return out
		}
	}
	return append(out, traces.ServerRef{Name: server, Version: version})
}

// setServerDefault pins server to version only when the trace did not name a version.
func setServerDefault(refs []traces.ServerRef, server, version string) []traces.ServerRef {
	if version == "" {
		return refs
	}
	for _, r := range refs {
		if r.Name == server && r.Version != "" {
			return refs
		}
	}
	return setServer(refs, server, version)
}

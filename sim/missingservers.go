package sim

import "slices"

// addMissingServer files n sessions under k, keeping the
// MaxResolutionTools smallest keys (boundedAdd).
func (r *Resolution) addMissingServer(k ServerVersion, n int64) {
	if r.MissingServers == nil {
		r.MissingServers = map[ServerVersion]int64{}
	}
	if _, n, out := boundedAdd(r.MissingServers, &r.MissingServersMax, k, n, CompareServerVersion); out {
		r.MissingServersBeyond += n
	}
}

// namedMissing files, once per session, that its session_start or a
// catalog_change names server at version, which no catalog holds (a
// server no catalog holds, or a version of it no catalog holds): the
// session counts once in SessionsMissingServers, and once under each
// server version it names.
func (r *Resolution) namedMissing(rs *sessionResolver, server, version string) {
	k := ServerVersion{Server: server, Version: version}
	if slices.Contains(rs.named, k) {
		return
	}
	if len(rs.named) == 0 {
		r.SessionsMissingServers++
	}
	rs.named = append(rs.named, k)
	r.addMissingServer(k, 1)
}

// ServerSessions is the sessions that name a server version no catalog
// holds (Resolution.MissingServers): Version is "" when the session names
// the server without one (then no catalog holds the server). Held lists
// the versions the catalogs hold of the server, in release order (none:
// no catalog holds it; filled by the summary).
type ServerSessions struct {
	Server   string   `json:"server"`
	Version  string   `json:"version,omitempty"`
	Sessions int64    `json:"sessions"`
	Held     []string `json:"held,omitempty"`
}

// TopMissingServers returns up to n of the server versions sessions named
// that no catalog holds, most sessions first (then by server and version).
func (r *Resolution) TopMissingServers(n int) []ServerSessions {
	top := topServerVersions(r.MissingServers, n)
	if len(top) == 0 {
		return nil
	}
	out := make([]ServerSessions, len(top))
	for i, t := range top {
		out[i] = ServerSessions{Server: t.Server, Version: t.Version, Sessions: t.n}
	}
	return out
}

// SessionsMissingShare is SessionsMissingServers / Sessions (0 without
// sessions).
func (r *Resolution) SessionsMissingShare() float64 {
	if r.Sessions == 0 {
		return 0
	}
	return float64(r.SessionsMissingServers) / float64(r.Sessions)
}

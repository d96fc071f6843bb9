package sim

import (
	"maps"
	"slices"
)

// sessionVersions returns, appended to out, the server versions session n
// replays: those of its initial registry (newSession: every catalog server
// at its latest version when the trace names none) and those its catalog
// changes move a server to (changeVersion), recorded or inserted by a
// scenario upgrade. A version no catalog holds is not among them: the
// replay uses another one, which is.
func (e *Engine) sessionVersions(n *pneed, out []*serverTable) []*serverTable {
	tt := e.tables
	add := func(st *serverTable) {
		if st != nil && !slices.Contains(out, st) {
			out = append(out, st)
		}
	}
	if len(n.servers) == 0 {
		for _, name := range tt.names {
			add(tt.latest[name])
		}
	}
	for _, s := range n.servers {
		add(tt.lookup(s.Name, s.Version))
	}
	for _, c := range n.changes {
		add(tt.lookup(c.server, c.version))
	}
	return out
}

// addVersionsReplayed counts one session under each of its replayed
// server versions (Resolution.VersionsReplayed).
func (r *Resolution) addVersionsReplayed(tables []*serverTable) {
	for _, st := range tables {
		r.addVersionReplayed(ServerVersion{Server: st.name, Version: st.version}, 1)
	}
}

func (r *Resolution) addVersionReplayed(k ServerVersion, n int64) {
	if r.VersionsReplayed == nil {
		r.VersionsReplayed = map[ServerVersion]int64{}
	}
	r.VersionsReplayed[k] += n
}

// ReplayedVersions returns each server's versions that some session
// replayed, by server (series key), in no particular order.
func (r *Resolution) ReplayedVersions() map[string][]string {
	out := map[string][]string{}
	for _, k := range slices.SortedFunc(maps.Keys(r.VersionsReplayed), CompareServerVersion) {
		out[k.Server] = append(out[k.Server], k.Version)
	}
	return out
}

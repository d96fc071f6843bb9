package sim

import (
	"maps"
	"slices"

	"github.com/defersim/defersim/traces"
)

// sessionVersions returns, appended to out, the server versions session n
// replays: those of its initial registry (startVersions) and those its
// catalog changes move a server to (changeVersion), recorded or inserted
// by a scenario upgrade. A version no catalog holds is not among them: the
// replay uses another one, which is.
func (e *Engine) sessionVersions(n *pneed, out []*serverTable) []*serverTable {
	tt := e.tables
	out = tt.startVersions(n.servers, out)
	for _, c := range n.changes {
		out = addTable(out, tt.lookup(c.server, c.version))
	}
	return out
}

// startVersions returns, appended to out, the server versions a
// session_start naming servers offers (newSession): every catalog server
// at its latest version when it names none. sim.CallResolver counts them
// as a run does, so that trace validate names the versions no session
// would replay.
func (tt *toolTables) startVersions(servers []traces.ServerRef, out []*serverTable) []*serverTable {
	if len(servers) == 0 {
		for _, name := range tt.names {
			out = addTable(out, tt.latest[name])
		}
	}
	for _, s := range servers {
		out = addTable(out, tt.lookup(s.Name, s.Version))
	}
	return out
}

// addTable appends st to out unless it is nil or there.
func addTable(out []*serverTable, st *serverTable) []*serverTable {
	if st != nil && !slices.Contains(out, st) {
		out = append(out, st)
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

// NeedVersions returns the server versions the replay of n offers, as a
// run counts them (sessionVersions, without a scenario's upgrades): those
// its session_start names (each at the version named, or the server's
// latest when no catalog holds that version; a server no catalog holds is
// left out), or every catalog server at its latest when it names none, and
// those its catalog changes move a server to. A server the session_start
// leaves out is not offered: the replay's registry holds the servers
// named. recommend counts a tool's sessions by them.
func (e *Engine) NeedVersions(n *Need) []ServerVersion {
	tables := e.tables.startVersions(n.Servers, nil)
	for i := range n.Steps {
		if st := &n.Steps[i]; st.Kind == StepCatalogChange {
			tables = addTable(tables, e.tables.lookup(st.Server, st.Version))
		}
	}
	out := make([]ServerVersion, len(tables))
	for i, st := range tables {
		out[i] = ServerVersion{Server: st.name, Version: st.version}
	}
	return out
}

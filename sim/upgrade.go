package sim

import (
	"fmt"
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
	// Where locates the upgrade in the file that wrote it, as errors about
	// it begin ("scenario.yaml:12: servers.github.upgrades[0]"); "" names
	// it by server and version instead.
	Where string
}

// where is how errors about u begin.
func (u Upgrade) where() string {
	if u.Where != "" {
		return u.Where
	}
	return fmt.Sprintf("upgrade of %s to %s", u.Server, u.To)
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
//
// A session an `at` upgrade concerns (one that has the server) must have
// recorded times: one whose times are placeholders (SyntheticTimes) is a
// *DatedUpgradeError, which stops the run. epoch reports a session an `at`
// upgrade concerns that starts before it and in 1970 or earlier: times that
// look like placeholders (the Unix epoch) put it on the old version.
func (e *Engine) applyUpgrades(n *Need, idx int64) (epoch bool, err error) {
	return e.applyUpgradesReach(n, idx, nil)
}

// applyUpgradesReach is applyUpgrades that also sets applied[i] (when
// applied is not nil; len(e.upgrades) long) for each upgrade i that moves
// a server of the session to its version: at its start, or by a catalog
// change it inserts (UpgradeReach).
func (e *Engine) applyUpgradesReach(n *Need, idx int64, applied []bool) (epoch bool, err error) {
	clear(applied)
	if len(e.upgrades) == 0 {
		return false, nil
	}
	for _, u := range e.upgrades {
		if u.At.IsZero() || !hasServer(n, u.Server) {
			continue
		}
		if n.SyntheticTimes {
			return false, &DatedUpgradeError{Server: u.Server, To: u.To, At: u.At, Session: n.SessionID, Where: u.Where}
		}
		if n.Start.Before(epochEnd) && n.Start.Before(u.At) {
			epoch = true
		}
	}
	if len(n.Servers) == 0 {
		for _, name := range e.tables.names {
			n.Servers = append(n.Servers, traces.ServerRef{Name: name})
		}
	}
	mark := func(i int) {
		if applied != nil {
			applied[i] = true
		}
	}
	for ui, u := range e.upgrades {
		named := slices.ContainsFunc(n.Servers, func(r traces.ServerRef) bool { return r.Name == u.Server })
		from := e.versionBefore(u.Server, u.To)
		switch {
		case u.AfterSession >= 0:
			if !named {
				continue
			}
			if idx >= u.AfterSession {
				n.Servers = setServer(n.Servers, u.Server, u.To)
				mark(ui)
			} else {
				n.Servers = setServerDefault(n.Servers, u.Server, from)
			}
		case !u.At.IsZero():
			if named && !n.Start.IsZero() && !n.Start.Before(u.At) {
				n.Servers = setServer(n.Servers, u.Server, u.To)
				mark(ui)
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
						mark(ui)
					}
					break
				}
				if st.Kind == StepCatalogChange && st.Server == u.Server {
					has = true
				}
			}
		}
	}
	return epoch, nil
}

// epochEnd ends the year of the Unix epoch: a session that starts before it
// has times that look like placeholders (see applyUpgrades).
var epochEnd = time.Date(1971, 1, 1, 0, 0, 0, 0, time.UTC)

// hasServer says whether n names server in session_start (a session that
// names none has every server) or a recorded catalog change adds it: the
// sessions an upgrade of server concerns.
func hasServer(n *Need, server string) bool {
	if len(n.Servers) == 0 || slices.ContainsFunc(n.Servers, func(r traces.ServerRef) bool { return r.Name == server }) {
		return true
	}
	return slices.ContainsFunc(n.Steps, func(st Step) bool { return st.Kind == StepCatalogChange && st.Server == server })
}

// DatedUpgradeError stops a run whose scenario upgrades Server at a time
// (servers.NAME.upgrades[].at) over a session without recorded times: the
// replay cannot tell whether the session ran before or after the upgrade.
// Where is the upgrade's Upgrade.Where ("": the message begins with the
// server's upgrades key instead).
type DatedUpgradeError struct {
	Server, To, Session string
	At                  time.Time
	Where               string
}

func (e *DatedUpgradeError) Error() string {
	where := e.Where
	if where == "" {
		where = "servers." + e.Server + ".upgrades"
	}
	return fmt.Sprintf("%s: at %s: the upgrade to %q needs recorded session times, and session %q has none "+
		"(session_start meta timing=synthetic: its source recorded no times, so the replay cannot tell whether it ran before or after the upgrade); "+
		"use after_session instead, or leave the sessions without times out of the traces",
		where, e.At.Format(time.RFC3339), e.To, e.Session)
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

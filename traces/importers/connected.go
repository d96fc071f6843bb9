package importers

import (
	"fmt"
	"strings"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers/ingest"
	"github.com/defersim/defersim/traces/importers/toolschema"
)

// The rules for the servers of user-given schema sources that name a
// server (a --tools catalog directory, a <server>@<version>.json file):
// no source records whether such a server was connected in a session.
// The replay offers a session exactly the servers its session_start
// lists, so the rule changes what a run replays.
const (
	// ConnectedCalled lists such a server in the sessions whose calls,
	// search results or deferrals use it.
	ConnectedCalled = "called"
	// ConnectedAll lists every such server in every session (the default:
	// a runtime connects every configured server at a session's start, and
	// a catalog directory given for a fleet holds its configured servers).
	ConnectedAll = "all"
	// MetaConnected is the session_start meta key naming the rule that
	// decided a session's servers, when some such server applied to it.
	MetaConnected = "connected_servers"
	// ConnectedRecorded is MetaConnected's value in a session whose
	// source records its connected servers (ingest.Session.ServersRecorded):
	// the recorded list wins over --connected, and only the servers of
	// user-given sets the session uses are added to it.
	ConnectedRecorded = "recorded"
)

// connectedRule checks the --connected value ("" is ConnectedAll).
func connectedRule(v string) (string, error) {
	switch v {
	case ConnectedCalled:
		return ConnectedCalled, nil
	case "", ConnectedAll:
		return ConnectedAll, nil
	}
	return "", fmt.Errorf("--connected %q: want %s (list a given catalog's server in the sessions that use it) or %s (in every session)",
		v, ConnectedCalled, ConnectedAll)
}

// connectedStats counts, over an import, the (session, server) pairs of
// servers the connected rule decided, and those no call, search result or
// deferral of the session uses.
type connectedStats struct {
	pairs, unused, sessions, empty int
	// recorded counts the sessions whose source records their servers
	// and to which --connected all would have added servers they do not
	// use (recordedPairs (session, server) pairs); recordedUsed counts the
	// pairs of such sessions that use a server their list lacks (added).
	recorded, recordedPairs, recordedUsed int
}

// assumed returns the servers of resolved that only user-given sets naming
// a server contribute to the session (sets is every set that applies, the
// source's own first): whether they were connected is not recorded.
func assumed(sets []*toolschema.Set, user func(*toolschema.Set) bool, defServer string, resolved map[string]*serverTools) map[string]bool {
	out := map[string]bool{}
	declared := map[string]bool{}
	for _, set := range sets {
		if user(set) && set.Server != "" {
			out[SanitizeServer(set.Server)] = true
		}
	}
	for _, set := range splitMCPSets(sets) {
		if user(set) && set.Server != "" {
			continue
		}
		name := SanitizeServer(set.Server)
		if set.Server == "" {
			name = SanitizeServer(defServer)
		}
		declared[name] = true
	}
	for name := range out {
		if declared[name] || resolved[name] == nil {
			delete(out, name)
		}
	}
	return out
}

// usedServers returns the servers a session's events show in use: those
// of its calls (resolved by now), of the tools its recorded searches
// returned and of its deferral changes (a name with an mcp__<server>__
// prefix, or one only one server of resolved serves).
func usedServers(s *ingest.Session, resolved map[string]*serverTools) map[string]bool {
	used := map[string]bool{}
	byName := func(name string) {
		if tool, srv := ingest.SplitMCPName(name); srv != "" {
			if st := resolved[SanitizeServer(srv)]; st != nil && st.index[tool] {
				used[SanitizeServer(srv)] = true
			}
			return
		}
		only := ""
		for server, st := range resolved {
			if st.index[name] {
				if only != "" {
					return // several servers serve it: nothing is guessed
				}
				only = server
			}
		}
		if only != "" {
			used[only] = true
		}
	}
	for i := range s.Events {
		ev := &s.Events[i]
		switch ev.Type {
		case traces.ToolCall:
			used[ev.Server] = true
		case traces.ToolSearch:
			for _, n := range ev.Returned() {
				byName(n)
			}
		case traces.DeferralChange:
			for _, n := range ev.Added() {
				byName(n)
			}
			for _, n := range ev.Removed() {
				byName(n)
			}
		}
	}
	return used
}

// note is the report's note on the connected rule ("" when no session
// had a server it decides).
func (c connectedStats) note(rule string) string {
	if c.sessions == 0 {
		return ""
	}
	var n string
	if rule == ConnectedAll {
		n = fmt.Sprintf("every server named by the given schema sources (catalog directories, <server>@<version>.json files) "+
			"is listed in every session (--connected all, the default; meta %s=all), since no source records which were connected: %d of the %d (session, server) pairs "+
			"are servers the session never uses; --connected called lists a server only in the sessions that use it", MetaConnected, c.unused, c.pairs)
	} else {
		n = fmt.Sprintf("servers named by the given schema sources (catalog directories, <server>@<version>.json files) are listed only in "+
			"the sessions whose calls, search results or deferrals use them, since no source records which were connected (meta %s=called): "+
			"%d of %d (session, server) pairs left out (--connected called)", MetaConnected, c.unused, c.pairs)
	}
	if c.empty > 0 {
		n += fmt.Sprintf("; %s no server at all, and a replay offers them every catalog server", nouns.CountAs(c.empty, "session lists", "sessions list"))
	}
	return n
}

// recordedNote is the report's note on the sessions whose source records
// their connected servers ("" when the given schema sources would have
// added none).
func (c connectedStats) recordedNote() string {
	if c.recorded == 0 && c.recordedUsed == 0 {
		return ""
	}
	var parts []string
	if c.recorded > 0 {
		parts = append(parts, fmt.Sprintf("%s connected servers (an Anthropic request's mcp_servers, a benchmark's environment): "+
			"the recorded list wins over --connected (meta %s=%s), so the %d (session, server) pairs of servers the given schema sources name "+
			"and these sessions neither list nor use were not added (--connected all would have added them)",
			nouns.CountAs(c.recorded, "session records its", "sessions record their"), MetaConnected, ConnectedRecorded, c.recordedPairs))
	}
	if c.recordedUsed > 0 {
		parts = append(parts, fmt.Sprintf("%s a session that records its connected servers uses but its recorded list lacks: "+
			"listed, since the session used them", nouns.CountAs(c.recordedUsed, "(session, server) pair is a server", "(session, server) pairs are servers")))
	}
	return strings.Join(parts, "; ")
}

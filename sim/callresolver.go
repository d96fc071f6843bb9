package sim

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/tokens"
	"github.com/defersim/defersim/traces"
)

// CallResolver resolves the tool calls of trace sessions against a catalog
// with the code a run resolves them with (resolveEvent): each call against
// the server versions its session holds at that point (session_start, then
// each catalog_change). trace validate uses it (traces.ValidateOptions
// Resolver), so that it flags what a run counts as unresolved. It is safe
// for concurrent use.
//
// It also counts what it resolves as a run counts it (Resolution): the
// counts a run's stop rule reads (runner.SummarizeResolution).
type CallResolver struct {
	e     *Engine
	near  *nearMemo
	tally *tally
}

// tally is the Resolution of the sessions a CallResolver resolved so far.
type tally struct {
	mu  sync.Mutex
	res Resolution
}

// Resolution returns how the sessions resolved so far resolve, counted as
// a run over them and the same catalogs counts them (run.resolution): the
// sessions begun with a session_start, and every event of theirs given to
// Event.
func (r *CallResolver) Resolution() Resolution {
	r.tally.mu.Lock()
	defer r.tally.mu.Unlock()
	var out Resolution
	out.Merge(&r.tally.res)
	return out
}

// NewCallResolver returns a resolver over cat. It counts no tokens that
// matter (an estimator stands in for the tokenizer): only names and
// versions are read.
func NewCallResolver(cat *catalog.Catalog) *CallResolver {
	return &CallResolver{e: &Engine{tables: buildToolTables(cat, tokens.NewEstimator(0), nil, 0, nil)}, near: &nearMemo{}, tally: &tally{}}
}

// Session starts resolving one session, whose events follow in order from
// its session_start. It counts one session, as a run's need builder does.
func (r *CallResolver) Session() traces.SessionResolver {
	r.tally.mu.Lock()
	r.tally.res.Sessions++
	r.tally.mu.Unlock()
	return &sessionCalls{e: r.e, near: r.near, tally: r.tally, at: map[string]namedVersion{}}
}

// sessionCalls resolves one session's events.
type sessionCalls struct {
	e    *Engine
	near *nearMemo // the resolver's, shared by its sessions
	rs   sessionResolver
	res  Resolution // scratch: resolveEvent files into it
	// tally is the resolver's: each event's scratch is added to it.
	tally *tally
	// at is, per server the session names, the version it names and the
	// line that names it.
	at map[string]namedVersion
	// versions are the server versions the session replays so far, each
	// counted once in the tally's VersionsReplayed (sessionVersions).
	versions []*serverTable
}

// namedVersion is a server version a session names, at a line of its
// trace, by its session_start or a catalog_change.
type namedVersion struct {
	version string
	line    int
	change  bool
}

// maxServingVersions bounds the versions (or servers) a problem lists.
const maxServingVersions = 5

// Event takes the session's next event, read from line, and appends to
// out what of it a run would not resolve: a tool call the run replays, as
// the run counts it; a tool call it does not replay (rejected, or of a
// search tool) naming a server, whose tool the server's version in force
// does not serve; each name a tool_search returns that no server of the
// session serves there (the run's search_results_unknown); each server
// version a session_start or catalog_change names that no catalog holds.
func (s *sessionCalls) Event(ev *traces.Event, line int, out []traces.Unresolved) []traces.Unresolved {
	written := ev
	ev = s.rs.names.read(ev)
	switch ev.Type {
	case traces.SessionStart:
		clear(s.at)
		for _, ref := range ev.Servers() {
			s.at[ref.Name] = namedVersion{version: ref.Version, line: line}
		}
	case traces.CatalogChange:
		s.at[ev.Server] = namedVersion{version: ev.Version(), line: line, change: true}
	}
	s.res = Resolution{}
	class := s.e.resolveRead(&s.rs, ev, &s.res)
	had := len(s.versions)
	switch ev.Type {
	case traces.SessionStart:
		s.versions = s.e.tables.startVersions(ev.Servers(), s.versions)
	case traces.CatalogChange:
		s.versions = addTable(s.versions, s.e.tables.lookup(ev.Server, ev.Version()))
	}
	s.res.addVersionsReplayed(s.versions[had:])
	s.tally.mu.Lock()
	s.tally.res.Merge(&s.res)
	s.tally.mu.Unlock()
	switch ev.Type {
	case traces.SessionStart:
		for i, ref := range ev.Servers() {
			if u, ok := s.named(ref.Name, ref.Version, false); !ok {
				out = append(out, readAs(u, written.Servers()[i], ref))
			}
		}
	case traces.CatalogChange:
		if u, ok := s.named(ev.Server, ev.Version(), true); !ok {
			out = append(out, readAs(u, traces.ServerRef{Name: written.Server, Version: written.Version()},
				traces.ServerRef{Name: ev.Server, Version: ev.Version()}))
		}
	case traces.ToolSearch:
		for _, name := range ev.Returned() {
			if name != "" && (s.rs.set == nil || s.rs.set.byName[name] == nil) {
				out = append(out, traces.Unresolved{Kind: traces.KindUnknownTool, Reason: s.searchResult(name)})
			}
		}
	case traces.ToolCall:
		replayed := class != ""
		if !replayed {
			if ev.Server == "" || ev.Tool == "" {
				break // a run does not resolve it, and it names no tool to check
			}
			class = s.notReplayed(ev)
		}
		if u, ok := s.call(ev, class, replayed); !ok {
			out = append(out, u)
		}
	}
	return out
}

// readAs adds to u's reason how the server reference the trace wrote was
// read, when it names a launch variant by its version (variantNames).
func readAs(u traces.Unresolved, written, read traces.ServerRef) traces.Unresolved {
	if written != read {
		u.Reason += fmt.Sprintf(" (the trace writes server %q at version %q: a version's \"+%s\" names the launch variant's series %q, at version %q)",
			written.Name, written.Version, strings.TrimPrefix(read.Name, written.Name+"+"), read.Name, read.Version)
	}
	return u
}

// notReplayed classifies a call a run does not replay, naming a server,
// as the run would resolve it there: ClassUnknownServer or ClassUnknownTool
// when the session holds no such tool at the server's version in force, ""
// otherwise (a server at a version no catalog holds is the problem of the
// line that names the version).
func (s *sessionCalls) notReplayed(ev *traces.Event) string {
	var ti *Tool
	if s.rs.set != nil {
		ti = s.rs.set.bySrv[toolKey{ev.Server, ev.Tool}]
	}
	switch class := s.e.callClass(ev.Server, ti, &s.rs); class {
	case ClassUnknownServer, ClassUnknownTool:
		return class
	}
	return ""
}

// call says why a tool call of class does not resolve (ok when it does).
// replayed says whether a run replays it, and so counts it.
func (s *sessionCalls) call(ev *traces.Event, class string, replayed bool) (u traces.Unresolved, ok bool) {
	tt := s.e.tables
	call := fmt.Sprintf("tool_call of tool %q of server %q", ev.Tool, ev.Server)
	counts := ": a run counts the call as an unknown tool"
	if !replayed {
		if ev.Status == traces.StatusRejected {
			call = "rejected " + call
		}
		counts = ": a run does not replay the call, but the version the session holds should serve the tool it names (correct the version in the trace, or load the catalog of the version that served it)"
	}
	switch class {
	case ClassUnknownServer:
		return traces.Unresolved{Kind: traces.KindUnknownTool, Reason: unknownCall(tt, s.near, call, ev.Server, ev.Tool)}, false
	case ClassVersionMissing:
		nv := s.at[ev.Server]
		return traces.Unresolved{Kind: traces.KindVersionMissing, Reason: fmt.Sprintf("%s at version %q (%s), which no catalog holds (they have %s): a run resolves it against %q and counts it as version missing",
			call, nv.version, nv.where(), quoteList(tt.versions[ev.Server]), tt.latest[ev.Server].version)}, false
	case ClassUnknownTool:
		serving := tt.servingVersions(ev.Server, ev.Tool)
		if len(serving) == 0 {
			return traces.Unresolved{Kind: traces.KindUnknownTool, Reason: unknownCall(tt, s.near, call, ev.Server, ev.Tool)}, false
		}
		has := "version " + quoteList(serving) + " serves it"
		if len(serving) > 1 {
			has = "versions " + quoteList(serving) + " serve it"
		}
		inForce, where := s.inForce(ev.Server)
		if inForce == "" {
			return traces.Unresolved{Kind: traces.KindUnknownTool, Reason: fmt.Sprintf("%s, a server the session does not hold here (neither its session_start nor a catalog_change before names it); its %s%s",
				call, has, counts)}, false
		}
		return traces.Unresolved{Kind: traces.KindUnknownTool, Reason: fmt.Sprintf("%s, not served at version %q, the session's version of the server here (%s); %s%s",
			call, inForce, where, has, counts)}, false
	}
	return traces.Unresolved{}, true
}

// UnknownCall says why a tool_call of tool of server resolves at no
// version the catalogs hold, in the words and with the hint (the held name
// most likely meant) a session's call gets: traces.Validate asks it for the
// calls of a session that does not begin with a session_start, which it
// checks against every version (traces.CallHinter).
func (r *CallResolver) UnknownCall(server, tool string) string {
	return unknownCall(r.e.tables, r.near, fmt.Sprintf("tool_call of tool %q of server %q", tool, server), server, tool)
}

// UnknownSearchResult says why a tool name a tool_search returned is
// served by no version the catalogs hold, in the words and with the hint
// (the held name most likely meant) a session's search result gets:
// traces.Validate asks it for the searches of a session that does not
// begin with a session_start (traces.SearchHinter).
func (r *CallResolver) UnknownSearchResult(name string) string {
	return unknownSearchResult(r.e.tables, r.near, name)
}

// unknownSearchResult says that name, which a tool_search returned, is no
// tool of any server the catalogs hold, followed by the held name most
// likely meant (among every server's tools), when one is near.
func unknownSearchResult(tt *toolTables, near *nearMemo, name string) string {
	reason := fmt.Sprintf("tool_search returned tool %q, which no catalog knows", name)
	if h := near.get(tt, "", name); h != "" {
		reason += "; " + h
	}
	return reason
}

// unknownCall says why call, of tool of server, resolves at no version
// the catalogs hold: no catalog holds the server, or none of its versions
// serves the tool; each followed by the held name most likely meant, when
// one is near.
func unknownCall(tt *toolTables, near *nearMemo, call, server, tool string) string {
	if tt.latest[server] == nil {
		reason := call + ", which no catalog knows (no catalog holds the server)"
		if h := near.server(tt, server); h != "" {
			reason += "; " + h
		}
		return reason
	}
	reason := call + ", which no catalog knows"
	if h := near.get(tt, server, tool); h != "" {
		reason += "; " + h
	}
	return reason
}

// inForce returns the version of server the session holds here ("" when
// none) and which event set it.
func (s *sessionCalls) inForce(server string) (version, where string) {
	for _, t := range s.rs.tables {
		if t.name == server {
			version = t.version
		}
	}
	where = "the session names no server: a run offers each at its latest version"
	if nv, ok := s.at[server]; ok {
		where = nv.where()
	}
	return version, where
}

// searchResult says why a tool name a tool_search returned is served by
// no server the session holds here: the servers that serve it at other
// versions, and the versions the session holds them at.
func (s *sessionCalls) searchResult(name string) string {
	tt := s.e.tables
	var where []string
	for _, srv := range tt.names {
		serving := tt.servingVersions(srv, name)
		if len(serving) == 0 {
			continue
		}
		if len(where) == maxServingVersions {
			where = append(where, "…")
			break
		}
		at := "version " + quoteList(serving)
		if len(serving) > 1 {
			at = "versions " + quoteList(serving)
		}
		if v, w := s.inForce(srv); v != "" {
			where = append(where, fmt.Sprintf("server %q serves it only at %s, not at %q, the session's version of the server here (%s)", srv, at, v, w))
		} else {
			where = append(where, fmt.Sprintf("server %q serves it (at %s), a server the session does not hold here", srv, at))
		}
	}
	if len(where) == 0 {
		return unknownSearchResult(tt, s.near, name)
	}
	return fmt.Sprintf("tool_search returned tool %q, which no server the session holds here serves; %s: a run counts it as a search result no server of the session serves",
		name, strings.Join(where, "; "))
}

// named says why a server version a session_start names (change false) or
// a catalog_change moves a server to (change true) is one no catalog
// holds (ok when a catalog holds it, or when version is "": the latest).
func (s *sessionCalls) named(server, version string, change bool) (u traces.Unresolved, ok bool) {
	tt := s.e.tables
	what := fmt.Sprintf("session_start names server %q", server)
	if change {
		what = fmt.Sprintf("catalog_change names server %q", server)
	}
	if tt.latest[server] == nil {
		then := "a run offers the session none of its tools and counts each call on it as an unknown server"
		if change {
			then = "a run ignores the change"
		}
		hint := ""
		if near := s.near.server(tt, server); near != "" {
			hint = "; " + near
		}
		return traces.Unresolved{Kind: traces.KindVersionMissing, Reason: fmt.Sprintf("%s, which no catalog holds (the catalogs hold %s): %s; load its catalog, or correct the server name in the trace%s",
			what, quoteList(tt.names), then, hint)}, false
	}
	if version == "" || tt.byKey[server+"@"+version] != nil {
		return traces.Unresolved{}, true
	}
	latest := tt.latest[server].version
	what += " at"
	then := fmt.Sprintf("a run offers it at %q instead, and counts each call on it as version missing", latest)
	if change {
		what = fmt.Sprintf("catalog_change moves server %q to", server)
		then = fmt.Sprintf("a run moves it to %q instead, and counts each call on it from here as version missing", latest)
	}
	return traces.Unresolved{Kind: traces.KindVersionMissing, Reason: fmt.Sprintf("%s version %q, which no catalog holds (they have %s): %s; load the catalog of that version, or correct the version in the trace",
		what, version, quoteList(tt.versions[server]), then)}, false
}

// where says which event named the version.
func (nv namedVersion) where() string {
	if nv.change {
		return "catalog_change at line " + strconv.Itoa(nv.line)
	}
	if nv.version == "" {
		return "session_start at line " + strconv.Itoa(nv.line) + " names no version: the latest"
	}
	return "session_start at line " + strconv.Itoa(nv.line)
}

// servingVersions lists, ascending, the versions of server that serve a
// tool called name.
func (tt *toolTables) servingVersions(server, name string) []string {
	var out []string
	for _, v := range tt.versions[server] {
		for _, ti := range tt.byKey[server+"@"+v].tools {
			if ti.name == name {
				out = append(out, v)
				break
			}
		}
	}
	return out
}

// quoteList quotes up to maxServingVersions names (versions, servers),
// saying how many more there are.
func quoteList(vs []string) string {
	q := make([]string, 0, min(len(vs), maxServingVersions))
	for _, v := range vs[:min(len(vs), maxServingVersions)] {
		q = append(q, strconv.Quote(v))
	}
	s := strings.Join(q, ", ")
	if len(vs) > maxServingVersions {
		s += fmt.Sprintf(" and %d more", len(vs)-maxServingVersions)
	}
	return s
}

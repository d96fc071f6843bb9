package sim

import (
	"fmt"
	"strconv"
	"strings"

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
type CallResolver struct{ e *Engine }

// NewCallResolver returns a resolver over cat. It counts no tokens that
// matter (an estimator stands in for the tokenizer): only names and
// versions are read.
func NewCallResolver(cat *catalog.Catalog) *CallResolver {
	return &CallResolver{e: &Engine{tables: buildToolTables(cat, tokens.NewEstimator(0), nil, 0, nil)}}
}

// Session starts resolving one session, whose events follow in order from
// its session_start.
func (r *CallResolver) Session() traces.SessionResolver {
	return &sessionCalls{e: r.e, at: map[string]namedVersion{}}
}

// sessionCalls resolves one session's events.
type sessionCalls struct {
	e   *Engine
	rs  sessionResolver
	res Resolution // scratch: resolveEvent files into it
	// at is, per server the session names, the version it names and the
	// line that names it.
	at map[string]namedVersion
}

// namedVersion is a server version a session names, at a line of its
// trace, by its session_start or a catalog_change.
type namedVersion struct {
	version string
	line    int
	change  bool
}

// maxServingVersions bounds the versions a problem lists.
const maxServingVersions = 5

// Event takes the session's next event, read from line. For a tool call a
// run replays, replayed is true, and kind and reason say why a run would
// not resolve it (kind "" when it resolves).
func (s *sessionCalls) Event(ev *traces.Event, line int) (kind traces.Kind, reason string, replayed bool) {
	switch ev.Type {
	case traces.SessionStart:
		clear(s.at)
		for _, ref := range ev.Servers {
			s.at[ref.Name] = namedVersion{version: ref.Version, line: line}
		}
	case traces.CatalogChange:
		s.at[ev.Server] = namedVersion{version: ev.Version, line: line, change: true}
	}
	s.res = Resolution{}
	class := s.e.resolveEvent(&s.rs, ev, &s.res)
	if class == "" {
		return "", "", false
	}
	tt := s.e.tables
	call := fmt.Sprintf("tool_call of tool %q of server %q", ev.Tool, ev.Server)
	switch class {
	case ClassUnknownServer:
		return traces.KindUnknownTool, call + ", which no catalog knows (no catalog holds the server)", true
	case ClassVersionMissing:
		nv := s.at[ev.Server]
		return traces.KindVersionMissing, fmt.Sprintf("%s at version %q (%s), which no catalog holds (they have %s): a run resolves it against %q and counts it as version missing",
			call, nv.version, nv.where(), listVersions(tt.versions[ev.Server]), tt.latest[ev.Server].version), true
	case ClassUnknownTool:
		serving := tt.servingVersions(ev.Server, ev.Tool)
		if len(serving) == 0 {
			return traces.KindUnknownTool, call + ", which no catalog knows", true
		}
		inForce := ""
		for _, t := range s.rs.tables {
			if t.name == ev.Server {
				inForce = t.version
			}
		}
		has := "version " + listVersions(serving) + " serves it"
		if len(serving) > 1 {
			has = "versions " + listVersions(serving) + " serve it"
		}
		if inForce == "" {
			return traces.KindUnknownTool, fmt.Sprintf("%s, a server the session does not hold here (neither its session_start nor a catalog_change before names it); its %s: a run counts the call as an unknown tool",
				call, has), true
		}
		where := "the session names no server: a run offers each at its latest version"
		if nv, ok := s.at[ev.Server]; ok {
			where = nv.where()
		}
		return traces.KindUnknownTool, fmt.Sprintf("%s, not served at version %q, the session's version of the server here (%s); %s: a run counts the call as an unknown tool",
			call, inForce, where, has), true
	}
	return "", "", true
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

// listVersions quotes up to maxServingVersions versions, saying how many
// more there are.
func listVersions(vs []string) string {
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

package sim

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/traces"
)

// Resolution says how a run's inputs resolved against its catalogs: every
// tool call the replay replays, every tool a recorded search returned and
// every catalog change, as the replay resolves them (docs/engine.md §9).
// It is summed over sessions and merges exactly across shards.
type Resolution struct {
	// Calls is every replayed tool call; it is the sum of the six counts
	// below it.
	Calls int64 `json:"calls"`
	// Resolved: the call's tool is in the session's registry with a
	// definition as the source recorded it.
	Resolved int64 `json:"resolved"`
	// SchemaApproximate and SchemaMissing: resolved to a tool whose
	// definition the import marked approximate (names right, details may
	// differ) or missing (a stand-in {"type":"object"}).
	SchemaApproximate int64 `json:"schema_approximate"`
	SchemaMissing     int64 `json:"schema_missing"`
	// UnknownTool: no tool of that name in the session's registry (on the
	// call's server, when it names one).
	UnknownTool int64 `json:"unknown_tool"`
	// UnknownServer: the call names a server no catalog holds.
	UnknownServer int64 `json:"unknown_server"`
	// UpgradeRemoved counts the UnknownTool calls that resolve at the
	// versions the trace records but not at the version a scenario upgrade
	// (servers.NAME.upgrades) moved their server to: the new version no
	// longer serves the tool (removed or renamed), and the replay leaves
	// the call out. Absent from results.json when 0.
	UpgradeRemoved int64 `json:"unknown_tool_after_upgrade,omitempty"`
	// VersionMissing: the call's server is at a version (named by the
	// session or a catalog change) that no catalog holds; the replay uses
	// another version of it.
	VersionMissing int64 `json:"version_missing"`

	// SearchResults counts the tool names recorded searches returned;
	// SearchResultsUnknown those no server of the session's registry serves.
	SearchResults        int64 `json:"search_results"`
	SearchResultsUnknown int64 `json:"search_results_unknown"`
	// CatalogChanges counts catalog_change events; CatalogChangesMissing
	// those to a version (or a server) no catalog holds: the replay moves
	// the server to its latest version instead, and its calls count as
	// VersionMissing from there (a server no catalog holds is not moved).
	CatalogChanges        int64 `json:"catalog_changes"`
	CatalogChangesMissing int64 `json:"catalog_changes_version_missing"`
	// VersionChanges counts the catalog changes the replay applied within
	// sessions: the trace's and the scenario's upgrades at a time.
	VersionChanges int64 `json:"version_changes_replayed"`
	// Sessions resolved; SessionsWithoutServers of them name no server in
	// session_start: the replay offers them every catalog server at its
	// latest version.
	Sessions               int64 `json:"sessions"`
	SessionsWithoutServers int64 `json:"sessions_without_servers"`
	// Ambiguous counts the calls (among Calls) that name no server and
	// whose tool name two or more servers of the session's registry serve:
	// the replay resolves each to the first of them in registry order
	// (AmbiguousRule). Absent from results.json when 0.
	Ambiguous int64 `json:"ambiguous_calls,omitempty"`
	// UnorderedLatest counts the sessions that name, without a version, a
	// server whose versions have no release order (catalog.Unordered), or
	// name no server while the catalogs hold one: the replay takes its
	// latest version, which is only the last by spelling. Absent from
	// results.json when 0.
	UnorderedLatest int64 `json:"sessions_unordered_latest,omitempty"`
	// RecordedDeferred counts the sessions whose session_start records a
	// deferral strategy (traces.RecordedDeferred): their requests are not
	// compared with the eager replay (Fidelity.OtherStrategy). Absent
	// from results.json when 0.
	RecordedDeferred int64 `json:"sessions_recorded_deferred,omitempty"`

	// Tools counts calls by tool and class, for the classes other than
	// Resolved: the MaxResolutionTools smallest keys (CompareToolClass)
	// with their full counts; ToolsBeyond counts the calls of the others
	// by class.
	Tools       map[ToolClass]int64 `json:"-"`
	ToolsBeyond ClassCalls          `json:"-"`
	// Ambiguities counts the Ambiguous calls by tool name and the servers
	// serving it: the MaxResolutionTools smallest keys
	// (CompareAmbiguity); AmbiguousBeyond counts the calls of the others.
	Ambiguities     map[Ambiguity]int64 `json:"-"`
	AmbiguousBeyond int64               `json:"-"`
	// ToolsMax and AmbiguitiesMax are the largest key of Tools and of
	// Ambiguities once full (zero before), so that a new key beyond them
	// is counted beyond at once (boundedAdd).
	ToolsMax       ToolClass `json:"-"`
	AmbiguitiesMax Ambiguity `json:"-"`
	// Models counts the sessions by the model their session_start records
	// (RunInfo.RecordedModels says it in results.json).
	Models RecordedModels `json:"-"`
	// MissingVersions counts the VersionMissing calls by their server and
	// the version the session (or a catalog change) asked for: the
	// MaxResolutionTools smallest keys (CompareServerVersion) with their
	// full counts; MissingVersionsBeyond counts the calls of the others,
	// and MissingVersionsMax is the largest key once full (boundedAdd).
	MissingVersions       map[ServerVersion]int64 `json:"-"`
	MissingVersionsBeyond int64                   `json:"-"`
	MissingVersionsMax    ServerVersion           `json:"-"`

	// SessionsMissingServers counts the sessions whose session_start or a
	// catalog_change names a server no catalog holds, or a version of a
	// server no catalog holds: the replay leaves the server out of every
	// request of the session (from the change on, for a change), or
	// offers another version of it, so every figure of the session is
	// off, whether or not a call on the server follows. Absent from
	// results.json when 0.
	SessionsMissingServers int64 `json:"sessions_missing_servers,omitempty"`
	// MissingServers counts those sessions by the server and version named
	// (a session naming two counts under each): the MaxResolutionTools
	// smallest keys (CompareServerVersion) with their full counts;
	// MissingServersBeyond counts the sessions of the others (a session
	// once per key), and MissingServersMax is the largest key once full
	// (boundedAdd).
	MissingServers       map[ServerVersion]int64 `json:"-"`
	MissingServersBeyond int64                   `json:"-"`
	MissingServersMax    ServerVersion           `json:"-"`

	// VersionsReplayed counts the sessions by the server versions they
	// replayed (sessionVersions): a version of their initial registry or
	// one a catalog change (recorded, or a scenario upgrade's) moved a
	// server to. Its keys are catalog versions, so it holds at most one
	// per catalog input. The summary names from it the catalog versions
	// no session replayed (RunInfo's UnreplayedVersions).
	VersionsReplayed map[ServerVersion]int64 `json:"-"`
}

// Ambiguity is a key of Resolution.Ambiguities: a tool name and the
// servers of a registry serving it, in registry order, joined by "\x00"
// (the first is the one a call naming no server resolves to).
type Ambiguity struct {
	Tool, Servers string
}

// AmbiguousRule says which server a call naming no server resolves to
// when several servers of its session serve its tool name.
const AmbiguousRule = "the first server in the session's registry order: the scenario's local servers (servers.NAME.local) first, then by server name, bytewise"

// ToolClass is a (server, tool, class) key of Resolution.Tools.
type ToolClass struct {
	Server, Tool string
	// Class is a Resolution class: "unknown_tool", "unknown_server",
	// "version_missing", "schema_approximate" or "schema_missing".
	Class string
}

// Resolution classes of a call, as Resolution and ToolClass name them.
const (
	ClassResolved          = "resolved"
	ClassSchemaApproximate = "schema_approximate"
	ClassSchemaMissing     = "schema_missing"
	ClassUnknownTool       = "unknown_tool"
	ClassUnknownServer     = "unknown_server"
	ClassVersionMissing    = "version_missing"
)

// DefaultMaxUnresolved is the share of tool calls that may fail to
// resolve against the catalogs before a run stops (scenario key
// max_unresolved, flag --max-unresolved).
const DefaultMaxUnresolved = 0.01

// CheckMaxUnresolved refuses a share of unresolved tool calls that is not
// in [0, 1]: the scenario key max_unresolved, and the --max-unresolved of
// run and calibrate, are shares (0.01 = 1%), so 5 is a percentage typed
// for one, and a negative or NaN share would stop at nothing or always.
func CheckMaxUnresolved(share float64) error {
	if share >= 0 && share <= 1 {
		return nil
	}
	return fmt.Errorf("%v is not a share in [0, 1] (0.01 = 1%% of tool calls)", share)
}

// SharePercent prints a share as a percentage without a needless decimal
// (0.07 is "7%", not "7.000000000000001%").
func SharePercent(v float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", 100*v), "0"), ".") + "%"
}

// Unresolved is the number of calls that did not resolve: unknown tools,
// unknown servers and missing versions. Calls of tools with approximate or
// missing schemas resolve (the replay shows, defers and loads them) and are
// not counted here.
func (r *Resolution) Unresolved() int64 { return r.UnknownTool + r.UnknownServer + r.VersionMissing }

// UnresolvedShare is Unresolved / Calls (0 without calls).
func (r *Resolution) UnresolvedShare() float64 {
	if r.Calls == 0 {
		return 0
	}
	return float64(r.Unresolved()) / float64(r.Calls)
}

// Merge adds o's counts to r.
func (r *Resolution) Merge(o *Resolution) {
	r.Calls += o.Calls
	r.Resolved += o.Resolved
	r.SchemaApproximate += o.SchemaApproximate
	r.SchemaMissing += o.SchemaMissing
	r.UnknownTool += o.UnknownTool
	r.UnknownServer += o.UnknownServer
	r.UpgradeRemoved += o.UpgradeRemoved
	r.VersionMissing += o.VersionMissing
	r.SearchResults += o.SearchResults
	r.SearchResultsUnknown += o.SearchResultsUnknown
	r.CatalogChanges += o.CatalogChanges
	r.CatalogChangesMissing += o.CatalogChangesMissing
	r.VersionChanges += o.VersionChanges
	r.Sessions += o.Sessions
	r.SessionsWithoutServers += o.SessionsWithoutServers
	r.Ambiguous += o.Ambiguous
	r.UnorderedLatest += o.UnorderedLatest
	r.RecordedDeferred += o.RecordedDeferred
	for k, v := range o.Tools {
		r.addTool(k, v)
	}
	r.ToolsBeyond.merge(o.ToolsBeyond)
	for k, v := range o.Ambiguities {
		r.addAmbiguity(k, v)
	}
	r.AmbiguousBeyond += o.AmbiguousBeyond
	r.Models.merge(o.Models)
	for k, v := range o.MissingVersions {
		r.addMissingVersion(k, v)
	}
	r.MissingVersionsBeyond += o.MissingVersionsBeyond
	r.SessionsMissingServers += o.SessionsMissingServers
	for k, v := range o.MissingServers {
		r.addMissingServer(k, v)
	}
	r.MissingServersBeyond += o.MissingServersBeyond
	for k, v := range o.VersionsReplayed {
		r.addVersionReplayed(k, v)
	}
}

func (r *Resolution) addAmbiguity(k Ambiguity, n int64) {
	if r.Ambiguities == nil {
		r.Ambiguities = map[Ambiguity]int64{}
	}
	if _, n, out := boundedAdd(r.Ambiguities, &r.AmbiguitiesMax, k, n, CompareAmbiguity); out {
		r.AmbiguousBeyond += n
	}
}

// ambiguous files one call naming no server that resolved by its tool
// name, which servers (registry order) all serve.
func (r *Resolution) ambiguous(tool string, servers []string) {
	r.Ambiguous++
	r.addAmbiguity(Ambiguity{Tool: tool, Servers: strings.Join(servers, "\x00")}, 1)
}

// AmbiguousCount is one tool name's ambiguous calls: the servers serving
// it in the registries of those calls, and the one they resolved to.
type AmbiguousCount struct {
	Tool string `json:"tool"`
	// Chosen is the server the calls resolved to, the first of Servers.
	Chosen  string   `json:"chosen"`
	Servers []string `json:"servers"`
	Calls   int64    `json:"calls"`
}

// TopAmbiguous returns up to n ambiguous tool names (with the servers
// serving them), most calls first (then by tool and servers).
func (r *Resolution) TopAmbiguous(n int) []AmbiguousCount {
	var out []AmbiguousCount
	for k, v := range r.Ambiguities {
		servers := strings.Split(k.Servers, "\x00")
		out = append(out, AmbiguousCount{Tool: k.Tool, Chosen: servers[0], Servers: servers, Calls: v})
	}
	slices.SortFunc(out, func(a, b AmbiguousCount) int {
		return cmp.Or(cmp.Compare(b.Calls, a.Calls), cmp.Compare(a.Tool, b.Tool), slices.Compare(a.Servers, b.Servers))
	})
	return out[:min(n, len(out))]
}

func (r *Resolution) addTool(k ToolClass, n int64) {
	if r.Tools == nil {
		r.Tools = map[ToolClass]int64{}
	}
	if out, n, ok := boundedAdd(r.Tools, &r.ToolsMax, k, n, CompareToolClass); ok {
		r.ToolsBeyond.add(out.Class, n)
	}
}

// count files one call of class.
func (r *Resolution) count(server, tool, class string) {
	r.Calls++
	switch class {
	case ClassResolved:
		r.Resolved++
		return
	case ClassSchemaApproximate:
		r.SchemaApproximate++
	case ClassSchemaMissing:
		r.SchemaMissing++
	case ClassUnknownTool:
		r.UnknownTool++
	case ClassUnknownServer:
		r.UnknownServer++
	case ClassVersionMissing:
		r.VersionMissing++
	}
	r.addTool(ToolClass{Server: server, Tool: tool, Class: class}, 1)
}

// ToolCount is one tool's calls of one resolution class.
type ToolCount struct {
	Server string `json:"server,omitempty"`
	Tool   string `json:"tool"`
	Class  string `json:"class"`
	Calls  int64  `json:"calls"`
}

// Top returns up to n tools of the given classes, most calls first (then
// by server, tool and class).
func (r *Resolution) Top(n int, classes ...string) []ToolCount {
	var out []ToolCount
	for k, v := range r.Tools {
		if slices.Contains(classes, k.Class) {
			out = append(out, ToolCount{Server: k.Server, Tool: k.Tool, Class: k.Class, Calls: v})
		}
	}
	slices.SortFunc(out, func(a, b ToolCount) int {
		return cmp.Or(cmp.Compare(b.Calls, a.Calls), cmp.Compare(a.Server, b.Server), cmp.Compare(a.Tool, b.Tool),
			cmp.Compare(a.Class, b.Class))
	})
	return out[:min(n, len(out))]
}

// Distinct counts the tools with calls of any of classes among the
// MaxResolutionTools that Tools tells apart (ToolsBeyond counts the calls
// of the others).
func (r *Resolution) Distinct(classes ...string) int {
	n := 0
	for k := range r.Tools {
		if slices.Contains(classes, k.Class) {
			n++
		}
	}
	return n
}

// Resolve adds to res how session s resolves against the engine's
// catalogs, as a run counts it (for tools that read sessions themselves).
func (e *Engine) Resolve(s *traces.Session, res *Resolution) {
	e.resolveSession(s, res, nil)
}

// resolveSession files into res how session s resolves: its registry as
// the replay builds it (newSession, changeVersion), then each call the
// need keeps, each tool a recorded search returned, and each catalog
// change, in event order. key is scratch space; it returns it for reuse.
func (e *Engine) resolveSession(s *traces.Session, res *Resolution, key []byte) []byte {
	res.Sessions++
	rs := sessionResolver{key: key}
	for i := range s.Events {
		e.resolveEvent(&rs, &s.Events[i], res)
	}
	return rs.key
}

// resolveEvent files into res how the session's next event resolves. For
// a tool call the replay replays it returns the call's class (Class*), ""
// for other events.
func (e *Engine) resolveEvent(rs *sessionResolver, ev *traces.Event, res *Resolution) string {
	return e.resolveRead(rs, rs.names.read(ev), res)
}

// resolveRead is resolveEvent of an event whose server references are
// read as series keys (variantNames.read).
func (e *Engine) resolveRead(rs *sessionResolver, ev *traces.Event, res *Resolution) string {
	tt := e.tables
	switch ev.Type {
	case traces.SessionStart:
		res.Models.add(ev.Model(), 1, e.runModel != nil && e.runModel(ev.Model()))
		if traces.RecordedDeferred(ev.RecordedStrategy()) {
			res.RecordedDeferred++
		}
		rs.tables = rs.tables[:0]
		arbitrary := false
		if len(ev.Servers()) == 0 {
			res.SessionsWithoutServers++
			for _, name := range tt.names {
				rs.tables = append(rs.tables, tt.latest[name])
			}
			arbitrary = len(tt.unordered) > 0
		}
		for _, ref := range ev.Servers() {
			arbitrary = arbitrary || (ref.Version == "" && tt.unordered[ref.Name])
			st := tt.lookup(ref.Name, ref.Version)
			if st == nil {
				res.namedMissing(rs, ref.Name, ref.Version) // the replay offers none of its tools
				continue
			}
			rs.tables = append(rs.tables, st)
			requested := ""
			if ref.Version != "" && st.version != ref.Version {
				requested = ref.Version
				res.namedMissing(rs, ref.Name, ref.Version)
			}
			rs.setMissing(ref.Name, requested)
		}
		if arbitrary {
			res.UnorderedLatest++
		}
		sortTables(rs.tables)
		rs.set, rs.key = e.set(rs.tables, rs.key)
	case traces.CatalogChange:
		res.CatalogChanges++
		st := tt.lookup(ev.Server, ev.Version()) // the latest when the version is missing, as the replay does
		if st == nil {
			res.CatalogChangesMissing++ // a server no catalog holds: the replay ignores the change
			res.namedMissing(rs, ev.Server, ev.Version())
			return ""
		}
		if st.version != ev.Version() {
			res.CatalogChangesMissing++
			res.namedMissing(rs, ev.Server, ev.Version())
			rs.setMissing(ev.Server, ev.Version())
		} else {
			rs.setMissing(ev.Server, "")
		}
		rs.change(e, ev.Server, st)
	case traces.ToolSearch:
		for _, name := range ev.Returned() {
			res.SearchResults++
			if rs.set == nil || rs.set.byName[name] == nil {
				res.SearchResultsUnknown++
			}
		}
	case traces.ToolCall:
		if isSearchTool(ev.Tool) || ev.Status == traces.StatusRejected {
			return "" // not replayed: the recording runtime's own deferral
		}
		var ti *Tool
		if rs.set != nil {
			ti = rs.set.bySrv[toolKey{ev.Server, ev.Tool}]
			if ti == nil && ev.Server == "" {
				ti = rs.set.byName[ev.Tool]
				if servers := rs.set.shared[ev.Tool]; ti != nil && servers != nil {
					res.ambiguous(ev.Tool, servers)
				}
			}
		}
		class := e.callClass(ev.Server, ti, rs)
		res.count(ev.Server, ev.Tool, class)
		if class == ClassVersionMissing {
			srv := ev.Server
			if ti != nil {
				srv = ti.server
			}
			res.addMissingVersion(ServerVersion{Server: srv, Version: rs.missingVersion(srv)}, 1)
		}
		return class
	}
	return ""
}

// callClass classifies a call on server that resolved to ti (nil: to
// nothing). A call naming a server resolves only on that server: the
// replay's fallback to a tool of the same name elsewhere is a guess.
func (e *Engine) callClass(server string, ti *Tool, rs *sessionResolver) string {
	if ti == nil {
		switch {
		case server != "" && e.tables.latest[server] == nil:
			return ClassUnknownServer
		case server != "" && rs.missingVersion(server) != "":
			return ClassVersionMissing
		}
		return ClassUnknownTool
	}
	if rs.missingVersion(ti.server) != "" {
		return ClassVersionMissing
	}
	switch ti.fidelity {
	case catalog.SchemaApproximate:
		return ClassSchemaApproximate
	case catalog.SchemaMissing:
		return ClassSchemaMissing
	}
	return ClassResolved
}

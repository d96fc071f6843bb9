package sim

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/tokens"
)

// Tool is one tool at one server version as the engine sees it: computed
// once per run and shared read-only by every worker. Components read it
// through its methods.
type Tool struct {
	id           int32 // dense index over every Tool of the run
	ident        int32 // dense index over distinct (server, name) pairs
	name, server string
	srv          int32 // the server's index in toolTables.names
	local        bool
	fp           string
	h            uint64 // block hash of the schema
	tokens       int64  // wire tokens under the content tokenizer, plus per-tool framing
	desc         string
	schema       json.RawMessage
	pretty       int64  // tokens of the schema pretty-printed (echo in results)
	fidelity     string // catalog.Tool.SchemaFidelity: the import's mark ("" exact)
}

// serverTable is one server version's tools in canonical order.
type serverTable struct {
	name, version string
	srv           int32 // index of name in toolTables.names
	local         bool
	timings       serverTimings
	tools         []*Tool
}

// toolTables holds every catalog version's tools, with counts computed once
// per distinct schema.
type toolTables struct {
	byKey    map[string]*serverTable // "server@version"
	latest   map[string]*serverTable
	names    []string            // server names, sorted
	versions map[string][]string // server -> versions, ascending
	// unordered: the servers whose versions have no release order
	// (catalog.Unordered), whose latest is only the last by spelling.
	unordered map[string]bool
	all       []*Tool                     // every Tool, by id
	estBy     map[string]map[string]int64 // counter name -> fingerprint -> tokens
}

func buildToolTables(cat *catalog.Catalog, content tokens.Counter, counters map[string]tokens.Counter, toolOverhead int64, local map[string]bool) *toolTables {
	tt := &toolTables{byKey: map[string]*serverTable{}, latest: map[string]*serverTable{}, estBy: map[string]map[string]int64{}, versions: map[string][]string{},
		unordered: map[string]bool{}}
	memo := map[string]*Tool{} // fingerprint+server -> info
	idents := map[string]int32{}
	if cat == nil {
		return tt
	}
	for name := range cat.Versions {
		tt.names = append(tt.names, name)
	}
	sort.Strings(tt.names)
	for srvIdx, name := range tt.names {
		if cat.Unordered(name) {
			tt.unordered[name] = true
		}
		for _, srv := range cat.Versions[name] {
			st := &serverTable{name: name, version: srv.Version, srv: int32(srvIdx), local: local[name], timings: timingsFromMeta(srv.Meta)}
			for _, t := range srv.Tools {
				key := name + "\x00" + t.Fingerprint
				ti, ok := memo[key]
				if !ok {
					ti = &Tool{name: t.Name, server: name, srv: int32(srvIdx), local: local[name], fp: t.Fingerprint,
						h: hashFingerprint(t.Fingerprint), desc: t.Description, schema: t.InputSchema,
						fidelity: t.SchemaFidelity}
					ti.id = int32(len(memo))
					ik := name + "\x00" + t.Name
					id, ok := idents[ik]
					if !ok {
						id = int32(len(idents))
						idents[ik] = id
					}
					ti.ident = id
					tt.all = append(tt.all, ti)
					ti.tokens = content.Count(t.Wire) + toolOverhead
					ti.pretty = content.Count(prettySchema(t.InputSchema))
					memo[key] = ti
				}
				st.tools = append(st.tools, ti)
				for cname, c := range counters {
					m := tt.estBy[cname]
					if m == nil {
						m = map[string]int64{}
						tt.estBy[cname] = m
					}
					if _, ok := m[t.Fingerprint]; !ok {
						m[t.Fingerprint] = c.Count(t.WireOpenAI)
					}
				}
			}
			sort.Slice(st.tools, func(i, j int) bool { return st.tools[i].name < st.tools[j].name })
			tt.byKey[name+"@"+srv.Version] = st
			tt.versions[name] = append(tt.versions[name], srv.Version)
			tt.latest[name] = st
		}
	}
	return tt
}

// estimatesByID returns every tool's estimate under the counter called
// name (one the tables were built with), indexed by tool id.
func (tt *toolTables) estimatesByID(name string) []int64 {
	est := tt.estBy[name]
	out := make([]int64, len(tt.all))
	for _, ti := range tt.all {
		out[ti.id] = est[ti.fp]
	}
	return out
}

func prettySchema(raw json.RawMessage) []byte {
	if len(raw) == 0 {
		return nil
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return raw
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return raw
	}
	return b
}

// lookup returns the table for server at version ("" = latest).
func (tt *toolTables) lookup(server, version string) *serverTable {
	if version != "" {
		if st := tt.byKey[server+"@"+version]; st != nil {
			return st
		}
	}
	return tt.latest[server]
}

// PatternMatches reports whether the tool name of server matches pattern p
// as the engine matches always_defer, never_defer, search.family and
// permission entries (an exact name, a prefix ending in "*", optionally
// scoped "server:").
func PatternMatches(p, server, name string) bool { return matchList([]string{p}, server, name) }

// matchList reports whether name matches an entry of list: an exact name,
// a prefix ending in "*", or "server:*" / "server:name".
func matchList(list []string, server, name string) bool {
	for _, p := range list {
		if i := strings.IndexByte(p, ':'); i > 0 {
			if p[:i] != server {
				continue
			}
			p = p[i+1:]
		}
		if strings.HasSuffix(p, "*") {
			if strings.HasPrefix(name, p[:len(p)-1]) {
				return true
			}
		} else if p == name {
			return true
		}
	}
	return false
}

// Name is the tool's name.
func (t *Tool) Name() string { return t.name }

// Server names the tool's server.
func (t *Tool) Server() string { return t.server }

// Fingerprint is the fingerprint of the tool's full definition at this
// server version (catalog.Fingerprint).
func (t *Tool) Fingerprint() string { return t.fp }

// Description is the tool's description.
func (t *Tool) Description() string { return t.desc }

// Tokens is the tool's definition as tools[] carries it, in tokens (wire
// form plus tool_overhead_tokens, content counter).
func (t *Tool) Tokens() int64 { return t.tokens }

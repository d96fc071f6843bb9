package importers

import (
	"slices"
	"sort"
	"strings"

	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers/ingest"
)

// How a tool call's server was determined, as the report counts it.
const (
	bySource      = "named by the source (mcp__ prefix, server field, gateway arguments, format rule)"
	byCatalog     = "the only server whose catalog serves the tool"
	bySplit       = "server__tool name"
	byDefault     = "format default server (no catalog serves the tool)"
	byAmbiguous   = "ambiguous: several servers serve the tool (kept on the default server)"
	searchJSON    = "search result: returned tools read from JSON"
	searchText    = "search result: returned tools found in the text"
	searchNone    = "search result: no catalog tool found (returned left empty)"
	searchForeign = "search result: returned tool no catalog serves"
)

// toolNames indexes the tool sets of a session by tool name.
func toolNames(resolved map[string]*serverTools) ingest.ToolNames {
	names := ingest.ToolNames{}
	for server, st := range resolved {
		for _, t := range st.tools {
			names[t.Name] = append(names[t.Name], server)
		}
	}
	for _, s := range names {
		sort.Strings(s)
	}
	return names
}

// candidate is one reading of a tool name as (server, tool).
type candidate struct{ server, tool, how string }

// attribute sets the server of every call whose source names none: the
// only server whose catalog serves the name, or, for a name server__tool,
// the server it names when that server serves tool (or is a connected
// server without a schema). A name several servers could serve is reported
// and stays on the default server. It also reads the returned tools of
// searches whose result was kept as text.
func (p *pipeline) attribute(s *ingest.Session, resolved map[string]*serverTools) {
	names := toolNames(resolved)
	connected := map[string]bool{}
	for _, r := range s.Events[0].Servers() {
		connected[SanitizeServer(r.Name)] = true
	}
	unattributed := map[int]bool{}
	for _, i := range s.Unattributed {
		unattributed[i] = true
	}
	for i := range s.Events {
		ev := &s.Events[i]
		if ev.Type != traces.ToolCall {
			continue
		}
		if !unattributed[i] {
			p.rep.Servers[bySource]++
			continue
		}
		c, ambiguous := readName(ev.Tool, names, func(srv string) bool { return connected[srv] && resolved[srv] == nil })
		switch {
		case len(ambiguous) > 1:
			p.rep.Servers[byAmbiguous]++
			p.rep.AmbiguousServer(ev.Tool, ambiguous)
		case c == nil:
			p.rep.Servers[byDefault]++
		default:
			p.rep.Servers[c.how]++
			ev.Server, ev.Tool = c.server, c.tool
		}
	}
	idx := make([]int, 0, len(s.SearchText))
	for i := range s.SearchText {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	for _, i := range idx {
		ev := &s.Events[i]
		got, from := ingest.ReturnedTools(s.SearchText[i], names)
		ev.EnsureChange().Returned = got
		switch from {
		case ingest.ReturnedJSON:
			p.rep.Gateway[searchJSON]++
		case ingest.ReturnedText:
			p.rep.Gateway[searchText]++
		default:
			p.rep.Gateway[searchNone]++
		}
		for _, n := range got {
			if _, ok := names[n]; !ok {
				p.rep.Gateway[searchForeign]++
			}
		}
	}
}

// readName reads a tool name called without a server. It returns the one
// reading, or (nil, servers) when several servers could serve it, or (nil,
// nil) when none does. schemaless says whether a server is connected to
// the session without any schema: server__tool then names it (its schema
// is reported missing) when no catalog serves the name either way.
func readName(name string, names ingest.ToolNames, schemaless func(string) bool) (*candidate, []string) {
	var cands []candidate
	for _, srv := range names[name] {
		cands = append(cands, candidate{srv, name, byCatalog})
	}
	splits := serverSplits(name)
	for _, c := range splits {
		if names.Serves(c.server, c.tool) {
			cands = append(cands, c)
		}
	}
	if len(cands) == 0 {
		for _, c := range splits {
			if schemaless(c.server) {
				return &c, nil
			}
		}
		return nil, nil
	}
	var servers []string
	for _, c := range cands {
		if !slices.Contains(servers, c.server) {
			servers = append(servers, c.server)
		}
	}
	sort.Strings(servers)
	if len(servers) == 1 {
		return &cands[0], nil
	}
	return nil, servers
}

// serverSplits returns the readings server__tool of name, at every "__".
func serverSplits(name string) []candidate {
	var out []candidate
	for i := strings.Index(name, "__"); i > 0; {
		if tool := name[i+2:]; tool != "" {
			out = append(out, candidate{SanitizeServer(name[:i]), tool, bySplit})
		}
		j := strings.Index(name[i+2:], "__")
		if j < 0 {
			break
		}
		i += 2 + j
	}
	return out
}

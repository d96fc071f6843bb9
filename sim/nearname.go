package sim

import (
	"fmt"
	"sync"

	"github.com/defersim/defersim/catalog"
)

// nearTool says which tool of server, at any version the catalogs hold,
// an unknown tool name most likely means ("" when none), by
// catalog.NearName: a name equal but for case, the trace's name less a
// prefix (the mcp__<server>__<tool> form an agent runtime logs), the
// trace's name with a word in the singular for the plural or the reverse,
// else the closest names (a typo), else the names holding the trace's
// name as a part. server "" looks among the tools of
// every server (a name a tool_search returned, which names no server),
// and the hint names the servers that serve the name meant. It is only
// called for a name that does not resolve, so it may walk every version.
func (tt *toolTables) nearTool(server, name string) string {
	servers := []string{server}
	if server == "" {
		servers = tt.names
	}
	var names []string
	for _, srv := range servers {
		for _, v := range tt.versions[srv] {
			for _, ti := range tt.byKey[srv+"@"+v].tools {
				names = append(names, ti.name)
			}
		}
	}
	near := catalog.NearName(name, names)
	// serves is who serves tool, with its verb: the server asked about,
	// else the servers that serve it at any version.
	serves := func(tool string) string {
		if server != "" {
			return fmt.Sprintf("server %q serves", server)
		}
		var by []string
		for _, srv := range tt.names {
			if len(tt.servingVersions(srv, tool)) > 0 {
				by = append(by, srv)
			}
		}
		if len(by) == 1 {
			return fmt.Sprintf("server %q serves", by[0])
		}
		return "servers " + quoteList(by) + " serve"
	}
	closest := func() string {
		where := "the catalogs serve"
		if server != "" {
			where = fmt.Sprintf("server %q serves", server)
		}
		if near.Prefix != "" {
			return fmt.Sprintf("the closest names %s to the trace's name without its prefix %q: %s (%s with the prefix): write the catalog's name in the trace%s",
				where, near.Prefix, quoteList(near.Names), quoteList(near.Full()), splitsPrefixes)
		}
		return fmt.Sprintf("the closest names %s: %s", where, quoteList(near.Names))
	}
	switch near.Kind {
	case catalog.NearCase:
		return fmt.Sprintf("%s %q, the same name in another case: write the catalog's name in the trace", serves(near.Names[0]), near.Names[0])
	case catalog.NearPrefix:
		return fmt.Sprintf("%s %q, the trace's name without its prefix %q: write the catalog's name in the trace%s", serves(near.Names[0]), near.Names[0], near.Prefix, splitsPrefixes)
	case catalog.NearPlural:
		if len(near.Names) == 1 {
			without := ""
			if near.Prefix != "" {
				without = fmt.Sprintf(" without its prefix %q", near.Prefix)
			}
			if near.OneWord() {
				return fmt.Sprintf("%s %q, %s of the trace's name%s: write the catalog's name in the trace", serves(near.Names[0]), near.Names[0], near.PluralWords(), without)
			}
			if without != "" {
				without += " and"
			}
			return fmt.Sprintf("%s %q, the trace's name%s with %s: write the catalog's name in the trace", serves(near.Names[0]), near.Names[0], without, near.PluralWords())
		}
		return closest()
	case catalog.NearTypo:
		return closest()
	case catalog.NearPart:
		if len(near.Names) == 1 {
			return fmt.Sprintf("%s %q, a name holding the trace's name as a part: write the catalog's name in the trace", serves(near.Names[0]), near.Names[0])
		}
		where := "the catalogs serve"
		if server != "" {
			where = fmt.Sprintf("server %q serves", server)
		}
		return fmt.Sprintf("the names %s holding the trace's name as a part: %s", where, quoteList(near.Names))
	}
	return ""
}

// splitsPrefixes ends a hint for a trace's tool name written with a
// runtime's prefix: the importers strip it, a hand-written trace must too.
const splitsPrefixes = " (trace import splits mcp__<server>__<tool> names, docs/importers.md)"

// nearMemoEntries bounds a nearMemo: it is emptied when full.
const nearMemoEntries = 4096

// nearServer is the hint for a server name no catalog holds ("" when no
// held server name is near it): catalog.NearName over the series keys.
func (tt *toolTables) nearServer(name string) string {
	return catalog.NearName(name, tt.names).Hint()
}

// nearMemo remembers nearTool's answer by server and name, and
// nearServer's by name: a trace that misspells a tool or server misspells
// it in every call, and nearTool walks every name the server has at any
// version, with an edit distance to each. Safe for concurrent use
// (CallResolver is).
type nearMemo struct {
	mu sync.Mutex
	m  map[string]string
}

// get is tt.nearTool(server, name) through the memo (nil: none); server
// "" (every server's tools) keys apart from any server's.
func (n *nearMemo) get(tt *toolTables, server, name string) string {
	return n.lookup(server+"\x00"+name, func() string { return tt.nearTool(server, name) })
}

// server is tt.nearServer(name) through the memo (nil: none); its keys
// start with a byte no server name of get's keys does.
func (n *nearMemo) server(tt *toolTables, name string) string {
	return n.lookup("\x01"+name, func() string { return tt.nearServer(name) })
}

// lookup is f's answer for key through the memo (n nil: f's).
func (n *nearMemo) lookup(key string, f func() string) string {
	if n == nil {
		return f()
	}
	n.mu.Lock()
	v, ok := n.m[key]
	n.mu.Unlock()
	if ok {
		return v
	}
	v = f()
	n.mu.Lock()
	if n.m == nil || len(n.m) >= nearMemoEntries {
		n.m = make(map[string]string)
	}
	n.m[key] = v
	n.mu.Unlock()
	return v
}

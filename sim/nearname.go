package sim

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/defersim/defersim/catalog"
)

// toolNameSeparators end the prefixes a trace may write before a tool's
// name (mcp__server__tool, server.tool, server:tool, server/tool), which
// nearTool strips to find the catalog's name.
var toolNameSeparators = []string{"__", ".", ":", "/"}

// closeToolNames is how many close names (catalog.ClosestNames) an unknown
// tool's problem offers when no name matches but for case or a prefix.
const closeToolNames = 3

// nearTool says which tool of server, at any version the catalogs hold,
// an unknown tool name most likely means ("" when none): a name equal but
// for case, the trace's name less a prefix ending in a separator (the
// mcp__<server>__<tool> form an agent runtime logs), else the closest
// names by edit distance (a typo). It is only called for a call that does
// not resolve, so it may walk every version.
func (tt *toolTables) nearTool(server, name string) string {
	var names []string
	for _, v := range tt.versions[server] {
		for _, ti := range tt.byKey[server+"@"+v].tools {
			names = append(names, ti.name)
		}
	}
	slices.Sort(names)
	names = slices.Compact(names) // a tool served at several versions once
	lower := strings.ToLower(name)
	for _, n := range names {
		if strings.EqualFold(n, name) {
			return fmt.Sprintf("server %q serves %q, the same name in another case: write the catalog's name in the trace", server, n)
		}
	}
	for _, n := range names {
		ln := strings.ToLower(n)
		if len(lower) <= len(ln) || !strings.HasSuffix(lower, ln) {
			continue
		}
		prefix := name[:len(name)-len(n)]
		for _, sep := range toolNameSeparators {
			if strings.HasSuffix(prefix, sep) {
				return fmt.Sprintf("server %q serves %q, the trace's name without its prefix %q: write the catalog's name in the trace "+
					"(trace import splits mcp__<server>__<tool> names, docs/importers.md)", server, n, prefix)
			}
		}
	}
	if near := catalog.ClosestNames(name, names, closeToolNames); len(near) > 0 {
		return fmt.Sprintf("the closest names server %q serves: %s", server, quoteList(near))
	}
	return ""
}

// nearMemoEntries bounds a nearMemo: it is emptied when full.
const nearMemoEntries = 4096

// nearMemo remembers nearTool's answer by server and name: a trace that
// misspells a tool misspells it in every call, and nearTool walks every
// name the server has at any version, with an edit distance to each. Safe
// for concurrent use (CallResolver is).
type nearMemo struct {
	mu sync.Mutex
	m  map[string]string
}

// get is tt.nearTool(server, name) through the memo (nil: none).
func (n *nearMemo) get(tt *toolTables, server, name string) string {
	if n == nil {
		return tt.nearTool(server, name)
	}
	key := server + "\x00" + name
	n.mu.Lock()
	v, ok := n.m[key]
	n.mu.Unlock()
	if ok {
		return v
	}
	v = tt.nearTool(server, name)
	n.mu.Lock()
	if n.m == nil || len(n.m) >= nearMemoEntries {
		n.m = make(map[string]string)
	}
	n.m[key] = v
	n.mu.Unlock()
	return v
}

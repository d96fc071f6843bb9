package catalog

import (
	"fmt"
	"unicode/utf8"
)

// MaxToolNameLen is the longest tool name the MCP specification
// (2025-11-25, "Tool names") recommends, in characters.
const MaxToolNameLen = 128

// UnusualToolNames names each tool whose name the MCP specification
// advises against: longer than MaxToolNameLen characters, or holding a
// character other than ASCII letters, digits, "_", "-" and "." (a space,
// a comma, a non-ASCII letter, a control character). Such a tool loads and
// its name is counted as written; a runtime or a model provider may refuse
// or rename it, so the tokens counted for its name may not be those sent.
// Every tool name of the shared captures has only those characters.
func UnusualToolNames(servers []*Server) []string {
	var out []string
	for _, u := range unusualToolNames(servers) {
		out = append(out, fmt.Sprintf("%s: tools[%d] %.80q: its name %s: counted as written, but a runtime or provider may refuse or rename it",
			where(u.server), u.index, u.server.Tools[u.index].Name, u.why))
	}
	return out
}

// unusualName is a tool UnusualToolNames names: its server version, its
// index in the server's tools, why, and why in short (for a note's item).
type unusualName struct {
	server     *Server
	index      int
	why, short string
}

// unusualToolNames are the tools UnusualToolNames names, in load order.
func unusualToolNames(servers []*Server) []unusualName {
	var out []unusualName
	for _, s := range servers {
		for i, t := range s.Tools {
			why, short := "", ""
			if n := utf8.RuneCountInString(t.Name); n > MaxToolNameLen {
				why = fmt.Sprintf("%d characters, over the %d the MCP specification recommends", n, MaxToolNameLen)
				short = fmt.Sprintf("%d characters", n)
			} else if r, ok := firstUnusualRune(t.Name); ok {
				why = fmt.Sprintf("holds %q, outside the characters the MCP specification recommends (A-Z, a-z, 0-9, \"_\", \"-\", \".\")", r)
				short = fmt.Sprintf("holds %q", r)
			}
			if why == "" {
				continue
			}
			out = append(out, unusualName{s, i, why, short})
		}
	}
	return out
}

// firstUnusualRune returns the first character of name that is not an
// ASCII letter, digit, "_", "-" or ".".
func firstUnusualRune(name string) (rune, bool) {
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-', r == '.':
		default:
			return r, true
		}
	}
	return 0, false
}

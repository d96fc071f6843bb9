package sim

import (
	"cmp"
	"slices"
)

// LargeTool is one tool definition of the run's catalogs over a size
// threshold, as the replay counts it.
type LargeTool struct {
	Server, Version, Tool string
	// Tokens is the definition's size in the run's content tokenizer,
	// per-tool framing included: what every request that sends it pays.
	Tokens int64
	// ServerTokens is the size of every tool of the server version, the
	// tool's included (the catalog the tool is part of).
	ServerTokens int64
}

// Share is the tool's share of its server version's tools, from 0 to 1.
func (l LargeTool) Share() float64 {
	if l.ServerTokens <= 0 {
		return 0
	}
	return float64(l.Tokens) / float64(l.ServerTokens)
}

// LargeTools lists the tools of every server version of the run's
// catalogs whose definition is over tokens (the threshold catalog stats
// names outliers by, catalog.DefaultOutlierTokens), largest first, then by
// server, version and name; nil when tokens is 0 or less. One such tool
// can make every request that sends it, and the run's cost, mostly its
// own.
func (e *Engine) LargeTools(tokens int64) []LargeTool {
	if tokens <= 0 {
		return nil
	}
	var out []LargeTool
	for _, st := range e.tables.byKey {
		var total int64
		for _, ti := range st.tools {
			total += ti.tokens
		}
		for _, ti := range st.tools {
			if ti.tokens > tokens {
				out = append(out, LargeTool{Server: st.name, Version: st.version, Tool: ti.name, Tokens: ti.tokens, ServerTokens: total})
			}
		}
	}
	slices.SortFunc(out, func(a, b LargeTool) int {
		return cmp.Or(cmp.Compare(b.Tokens, a.Tokens), cmp.Compare(a.Server, b.Server),
			cmp.Compare(a.Version, b.Version), cmp.Compare(a.Tool, b.Tool))
	})
	return out
}

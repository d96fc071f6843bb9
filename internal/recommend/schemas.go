package recommend

import (
	"fmt"
	"sort"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/tokens"
)

// Schema is what the catalog says about one tool.
type Schema struct {
	// Tokens of the latest definition in tools[] (wire form under the
	// content tokenizer, plus tool_overhead_tokens).
	Tokens int64 `json:"tokens"`
	// Estimated is the trigger counter's count of the OpenAI function form
	// (bytes/3.5 by default): what a budget trigger adds up.
	Estimated int64 `json:"estimated_tokens"`
	// NameTokens is the tool's line in a directory of names.
	NameTokens int64 `json:"name_tokens"`
	// Versions of the server that served the tool; Drift the versions in
	// which its definition changed, with the class of the change.
	Versions int      `json:"versions"`
	Drift    []string `json:"drift,omitempty"`
}

// schemas describes every tool of the latest version of every server.
type schemas map[toolKey]*Schema

// newSchemas counts each latest tool definition with content (plus
// overhead per tool) and with the trigger counter, and lists drift.
func newSchemas(cat *catalog.Catalog, content, trigger tokens.Counter, toolOverhead int64) schemas {
	out := schemas{}
	for _, name := range cat.ServerNames() {
		vs := cat.Versions[name]
		latest := vs[len(vs)-1]
		for _, t := range latest.Tools {
			k := toolKey{Server: latest.Name, Tool: t.Name}
			s := &Schema{Tokens: content.Count(t.Wire) + toolOverhead, Estimated: trigger.Count(t.WireOpenAI),
				NameTokens: content.Count([]byte(t.Name + "\n"))}
			var prev *catalog.Tool
			for _, v := range vs {
				cur := v.Tool(t.Name)
				if cur == nil {
					prev = nil
					continue
				}
				s.Versions++
				if prev != nil {
					if tc, changed := catalog.DiffTool(prev, cur); changed {
						s.Drift = append(s.Drift, fmt.Sprintf("%s (%s)", v.Version, tc.Class))
					}
				}
				prev = cur
			}
			out[k] = s
		}
	}
	return out
}

// Resolver returns a Resolver mapping a tool name to the first server (by
// name) whose latest version serves it.
func (s schemas) Resolver() resolver {
	byName := map[string]string{}
	keys := make([]toolKey, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	sortKeys(keys)
	for _, k := range keys {
		if _, ok := byName[k.Tool]; !ok {
			byName[k.Tool] = k.Server
		}
	}
	return func(tool string) string { return byName[tool] }
}

// quantileTokens is the q-quantile (nearest rank) of the catalog's schema sizes.
func (s schemas) quantileTokens(q float64) int64 {
	var xs []int64
	for _, v := range s {
		xs = append(xs, v.Tokens)
	}
	if len(xs) == 0 {
		return 0
	}
	sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
	return xs[min(int(q*float64(len(xs))), len(xs)-1)]
}

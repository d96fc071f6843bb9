package recommend

import (
	"cmp"
	"fmt"
	"slices"
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
	// NameTokens is the tool's line in a directory of names (its name and
	// a newline), for reference: the economics price the base's directory
	// as a run renders it (Proposal.DirectoryTokens), not these lines.
	NameTokens int64 `json:"name_tokens"`
	// Versions of the server that served the tool; Drift the versions in
	// which its definition changed, with the class of the change.
	Versions int      `json:"versions"`
	Drift    []string `json:"drift,omitempty"`
	// driftClass is the class of each Drift entry.
	driftClass []catalog.Class
}

// schemas describes every tool of the latest version of every server.
type schemas map[toolKey]*Schema

// newSchemas counts each tool of every server's chosen version (its latest
// where chosen does not name one) with content (plus overhead per tool) and
// with the trigger counter, and lists drift.
func newSchemas(cat *catalog.Catalog, content, trigger tokens.Counter, toolOverhead int64, chosen map[string]*catalog.Server) schemas {
	out := schemas{}
	for _, name := range cat.ServerNames() {
		vs := cat.Versions[name]
		base := vs[len(vs)-1]
		if c := chosen[name]; c != nil {
			base = c
		}
		unordered := cat.Unordered(name)
		for _, t := range base.Tools {
			k := toolKey{Server: base.Key(), Tool: t.Name} // the series the replay names (a launch variant: "p+caps")
			s := &Schema{Tokens: content.Count(t.Wire) + toolOverhead, Estimated: trigger.Count(t.WireOpenAI),
				NameTokens: content.Count([]byte(t.Name + "\n"))}
			var changes []change
			if unordered {
				s.Versions, changes = differing(vs, base, t)
			} else {
				s.Versions, changes = releases(vs, t.Name)
			}
			for _, c := range changes {
				s.Drift = append(s.Drift, fmt.Sprintf("%s (%s)", c.version, c.class))
				s.driftClass = append(s.driftClass, c.class)
			}
			out[k] = s
		}
	}
	return out
}

// releases counts the versions serving tool and lists those in which its
// definition changed from the previous version serving it, with the class.
func releases(vs []*catalog.Server, tool string) (int, []change) {
	var n int
	var drift []change
	var prev *catalog.Tool
	for _, v := range vs {
		cur := v.Tool(tool)
		if cur == nil {
			prev = nil
			continue
		}
		n++
		if prev != nil {
			if tc, changed := catalog.DiffTool(prev, cur); changed {
				drift = append(drift, change{v.Version, tc.Class})
			}
		}
		prev = cur
	}
	return n, drift
}

// differing is releases for a series without a release order: it lists the
// versions whose definition of t differs from base's, with the class of
// the change from base.
func differing(vs []*catalog.Server, base *catalog.Server, t *catalog.Tool) (int, []change) {
	var n int
	var drift []change
	for _, v := range vs {
		cur := v.Tool(t.Name)
		if cur == nil {
			continue
		}
		n++
		if v == base {
			continue
		}
		if tc, changed := catalog.DiffTool(t, cur); changed {
			drift = append(drift, change{v.Version, tc.Class})
		}
	}
	return n, drift
}

// change is a version in which a tool's definition differs, and the class.
type change struct {
	version string
	class   catalog.Class
}

// chooseVersions picks, for each server whose versions have no release
// order (catalog.Unordered), the version most training sessions name
// (ties: the first by spelling); a server no training session names a
// version of keeps its last by spelling. Each choice is stated in a note.
func chooseVersions(cat *catalog.Catalog, u *Usage) (map[string]*catalog.Server, []string) {
	chosen := map[string]*catalog.Server{}
	var notes []string
	for _, name := range cat.ServerNames() {
		if !cat.Unordered(name) {
			continue
		}
		vs := cat.Versions[name]
		counts := map[*catalog.Server]int{}
		total := 0
		for server, byVersion := range u.Versions {
			for version, n := range byVersion {
				if s := cat.At(server, version); s != nil && s.Key() == name {
					counts[s] += n
					total += n
				}
			}
		}
		var best *catalog.Server
		for _, v := range vs {
			if best == nil || counts[v] > counts[best] {
				best = v
			}
		}
		if total == 0 {
			best = vs[len(vs)-1]
			notes = append(notes, fmt.Sprintf("%s: %d versions named by content hash have no release order and no training session names one: "+
				"the proposal prices the tools of %s, the last by spelling, not the newest", name, len(vs), best.Version))
		} else {
			notes = append(notes, fmt.Sprintf("%s: %d versions named by content hash have no release order: the proposal prices the tools of %s, "+
				"the version %d of the %d training sessions naming one use; drift lists the versions whose definition differs from it", name, len(vs), best.Version, counts[best], total))
		}
		chosen[name] = best
	}
	return chosen, notes
}

// Resolver returns a Resolver mapping a tool name to the first server
// whose latest version serves it: the local servers first, then by name.
func (s schemas) Resolver(local []string) resolver {
	byName := map[string]string{}
	keys := make([]toolKey, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	sortKeys(keys)
	// As the engine resolves a name several servers serve
	// (sim.AmbiguousRule): the local servers first.
	slices.SortStableFunc(keys, func(a, b toolKey) int {
		return cmp.Compare(boolRank(!slices.Contains(local, a.Server)), boolRank(!slices.Contains(local, b.Server)))
	})
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

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

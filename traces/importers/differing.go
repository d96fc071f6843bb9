package importers

import (
	"maps"
	"slices"

	"github.com/defersim/defersim/traces/importers/toolschema"
)

// differingDef is a tool two exact schema sources of one session define
// differently: kept is the source whose definition the catalog holds (the
// first), other the one it shadows.
type differingDef struct {
	tool, kept, other string
}

// compare records t, which set defines for a tool st already holds, when
// both definitions are exact and differ: the sessions ran with one of
// them, so the other source is another version of the server (a
// recording's own tools beside a catalog directory's latest, say), which
// the first-definition-wins merge would otherwise hide under a hash
// version. Approximate sources are expected to differ.
func (st *serverTools) compare(t toolschema.Tool, set *toolschema.Set) {
	kept := st.origin[t.Name]
	if kept == nil || kept == set || kept.Source == set.Source || kept.Fidelity != toolschema.Exact || set.Fidelity != toolschema.Exact {
		return
	}
	for i := range st.tools {
		if st.tools[i].Name == t.Name {
			if toolschema.Hash(st.tools[i:i+1]) != toolschema.Hash([]toolschema.Tool{t}) {
				st.differing = append(st.differing, differingDef{tool: t.Name, kept: kept.Source, other: set.Source})
			}
			return
		}
	}
}

// noteDiffering notes, once each, the tools of resolved that two exact
// sources define differently, by server name (the report is
// deterministic).
func (p *pipeline) noteDiffering(resolved map[string]*serverTools) {
	for _, name := range slices.Sorted(maps.Keys(resolved)) {
		st := resolved[name]
		for _, d := range st.differing {
			p.rep.Note("%s/%s: %s and %s define it differently; the catalog holds the first (the first definition wins): "+
				"the sessions ran with one of them, so the other is likely another version of the server", st.name, d.tool, d.kept, d.other)
		}
	}
}

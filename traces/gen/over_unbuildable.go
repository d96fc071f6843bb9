package gen

import (
	"fmt"
	"strings"
)

// UnbuildableTool is a tool of a catalog version for which a generation
// over the catalog could build no arguments valid against its input schema
// (an unsatisfiable schema, a pattern or an external $ref the argument
// builder cannot follow). Sessions never call it: a call with invalid
// arguments would count as malformed in a replay for a reason that is the
// generator's, not the strategy's.
type UnbuildableTool struct {
	Server  string `json:"server"`
	Version string `json:"version"`
	Tool    string `json:"tool"`
	Reason  string `json:"reason"`
}

// Label is "server@version/tool".
func (u UnbuildableTool) Label() string {
	return u.Server + "@" + u.Version + "/" + u.Tool
}

// Unbuildable returns the tools of an over-mode generation that sessions
// never call because no valid arguments could be built for them, by series,
// version and catalog order (nil for a generated catalog).
func (g *Generator) Unbuildable() []UnbuildableTool {
	if g.over == nil {
		return nil
	}
	var out []UnbuildableTool
	for _, s := range g.over.series {
		for _, v := range s.versions {
			for _, t := range v.tools {
				if t.unbuildable != "" {
					out = append(out, UnbuildableTool{Server: s.key, Version: v.srv.Version, Tool: t.name, Reason: t.unbuildable})
				}
			}
		}
	}
	return out
}

// checkBuildable refuses a series version none of whose tools can be
// called with valid arguments: sessions in force on it would have nothing
// to call there.
func (o *overState) checkBuildable() error {
	for _, s := range o.series {
		for _, v := range s.versions {
			ok := false
			var names []string
			for _, t := range v.tools {
				if t.unbuildable == "" {
					ok = true
					break
				}
				names = append(names, t.name)
			}
			if !ok {
				return fmt.Errorf("over.servers: %s: no valid arguments could be built for any of its tools (%s: %s); leave the server out",
					v.srv.Label(), strings.Join(names, ", "), v.tools[0].unbuildable)
			}
		}
	}
	return nil
}

package gen

import (
	"fmt"
)

// serverDef is one generated server with all its versions.
type serverDef struct {
	name     string
	dom      *domain
	prefix   string
	style    serverStyle
	versions []*versionDef
}

// versionDef is one version of a server.
type versionDef struct {
	version string
	tools   []*toolDef
	// at is the release point as a fraction of the trace's time span.
	at float64
	// changes lists what changed from the previous version.
	changes []Change
}

func (v *versionDef) tool(name string) *toolDef {
	for _, t := range v.tools {
		if t.name == name {
			return t
		}
	}
	return nil
}

// Change is one difference between consecutive versions of a server.
type Change struct {
	Server string `json:"server"`
	From   string `json:"from"`
	To     string `json:"to"`
	Tool   string `json:"tool"`
	// Kind is description, optional_added, required_added, property_removed,
	// property_renamed, tool_added or tool_removed.
	Kind string `json:"kind"`
	// Property names the property concerned (for renames "old->new").
	Property string `json:"property,omitempty"`
}

// Breaking reports whether the change can make an argument object that was
// valid against the old schema invalid against the new one.
func (c Change) Breaking() bool {
	switch c.Kind {
	case "required_added", "property_removed", "property_renamed", "tool_removed":
		return true
	}
	return false
}

// buildServers generates every server at its first version.
func buildServers(p *Params) ([]*serverDef, error) {
	r := newRNG(p.Seed, streamCatalog, 0)
	var servers []*serverDef
	used := map[string]int{}
	for _, spec := range p.ServerSpecs {
		dom := domainByName(spec.Domain)
		if dom == nil {
			dom = domainByName(spec.Name)
		}
		if dom == nil {
			dom = &domains[used["#generic"]%len(domains)]
			used["#generic"]++
		}
		used[dom.name]++
		servers = append(servers, &serverDef{name: spec.Name, dom: dom, prefix: spec.Prefix})
	}
	// Generic servers: unused generic domains in a seeded order, then reuse
	// with a numeric suffix.
	var generic []*domain
	for i := range domains {
		if !plantedDomains[domains[i].name] {
			generic = append(generic, &domains[i])
		}
	}
	shuffle(r, generic)
	taken := map[string]bool{}
	for _, s := range servers {
		taken[s.name] = true
	}
	for i := 0; len(servers) < p.Servers; i++ {
		dom := generic[i%len(generic)]
		name := dom.name
		for k := 2; taken[name]; k++ {
			name = fmt.Sprintf("%s-%d", dom.name, k)
		}
		taken[name] = true
		servers = append(servers, &serverDef{name: name, dom: dom})
	}
	for i, s := range servers {
		s.style = newServerStyle(r)
		n := 0
		if i < len(p.ServerSpecs) {
			n = p.ServerSpecs[i].Tools
		}
		if n == 0 {
			n = p.ToolsPerServer.sampleInt(r)
		}
		tools, err := buildTools(r, p, s, n)
		if err != nil {
			return nil, err
		}
		s.versions = []*versionDef{{version: firstVersion(r), tools: tools}}
	}
	return servers, nil
}

// buildTools makes n tools for s: its planted tools first, then tools
// named from the domain vocabulary.
func buildTools(r *rng, p *Params, s *serverDef, n int) ([]*toolDef, error) {
	b := &builder{r: r, dom: s.dom, style: s.style, share: p.DescriptionShare}
	var tools []*toolDef
	names := map[string]bool{}
	for _, pt := range p.Planted {
		if pt.Server != s.name {
			continue
		}
		target := pt.Bytes
		if target == 0 {
			target = roundTarget(p.SchemaBytes.sample(r))
		}
		tools = append(tools, b.build(specForName(s.dom, pt.Tool), target))
		names[pt.Tool] = true
	}
	cands := candidates(s.dom, s.prefix)
	if s.prefix == "" || s.dom.verbs == nil {
		shuffle(r, cands)
	}
	extra := extraCandidates(s.dom, s.prefix)
	shuffle(r, extra)
	for _, c := range append(cands, extra...) {
		if len(tools) >= n {
			break
		}
		if names[c.name] {
			continue
		}
		names[c.name] = true
		tools = append(tools, b.build(c, roundTarget(p.SchemaBytes.sample(r))))
	}
	if len(tools) < n {
		return nil, &WordListError{Server: s.name, Domain: s.dom.name, Names: len(tools), Asked: n}
	}
	return tools, nil
}

// firstVersion draws a plausible semantic version.
func firstVersion(r *rng) string {
	return fmt.Sprintf("%d.%d.%d", r.between(0, 2), r.between(1, 12), r.between(0, 9))
}

// toolsList returns the MCP tools/list result of a version, indented.
func (v *versionDef) toolsList() []byte {
	out := []byte("{\n  \"tools\": [")
	for i, t := range v.tools {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, "\n    "...)
		out = append(out, t.mcpJSON()...)
	}
	out = append(out, "\n  ]\n}\n"...)
	return out
}

// WordListError is a server drawn with more tools than its domain's word
// list names: the generator cannot name them all.
type WordListError struct {
	Server, Domain string
	Names, Asked   int // the tools the word list names, and those drawn
}

func (e *WordListError) Error() string {
	return fmt.Sprintf("server %s: the %q word list names only %d tools, fewer than the %d asked for", e.Server, e.Domain, e.Names, e.Asked)
}

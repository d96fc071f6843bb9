package gen

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Change kinds, in the order of ChangeKinds' fields.
var changeKinds = []string{"description", "optional_added", "required_added", "property_removed", "property_renamed"}

// addVersions gives p.Drift.Servers servers p.Drift.Versions versions each.
func addVersions(p *Params, servers []*serverDef) {
	d := p.Drift
	if d.Servers == 0 {
		return
	}
	r := newRNG(p.Seed, streamDrift, 0)
	// Drift hits servers with at least two tools, in a seeded order.
	var cand []*serverDef
	for _, s := range servers {
		if len(s.versions[0].tools) >= 2 {
			cand = append(cand, s)
		}
	}
	shuffle(r, cand)
	if len(cand) > d.Servers {
		cand = cand[:d.Servers]
	}
	k := d.Kinds
	kinds := newWeighted([]float64{k.Description, k.OptionalAdded, k.RequiredAdded, k.PropertyRemoved, k.PropertyRenamed})
	planted := map[string]bool{}
	for _, pt := range p.Planted {
		planted[pt.Server+"/"+pt.Tool] = true
	}
	for _, s := range cand {
		for v := 1; v < d.Versions; v++ {
			prev := s.versions[v-1]
			next := &versionDef{at: float64(v) / float64(d.Versions)}
			breaking := false
			b := &builder{r: r, dom: s.dom, style: s.style, share: p.DescriptionShare}
			n := len(prev.tools)
			// Removed tools (never planted ones, never the last tool).
			removed := map[string]bool{}
			nrm := int(math.Round(d.RemovedFraction * float64(n)))
			order := r.perm(n)
			for _, i := range order {
				if len(removed) >= nrm || len(removed) >= n-1 {
					break
				}
				t := prev.tools[i]
				if planted[s.name+"/"+t.name] {
					continue
				}
				removed[t.name] = true
			}
			// Changed tools.
			nch := int(math.Round(d.ChangedFraction * float64(n)))
			if d.ChangedFraction > 0 && nch == 0 {
				nch = 1
			}
			changed := map[string]bool{}
			for _, i := range r.perm(n) {
				if len(changed) >= nch {
					break
				}
				if !removed[prev.tools[i].name] {
					changed[prev.tools[i].name] = true
				}
			}
			var changes []Change
			for _, t := range prev.tools {
				if removed[t.name] {
					changes = append(changes, Change{Tool: t.name, Kind: "tool_removed"})
					breaking = true
					continue
				}
				nt := t
				if changed[t.name] {
					nt = t.clone()
					ch := mutate(r, b, nt, changeKinds[kinds.sample(r)])
					if ch.Kind != "description" {
						breaking = breaking || ch.Breaking()
					}
					changes = append(changes, ch)
				}
				next.tools = append(next.tools, nt)
			}
			// Added tools.
			nadd := int(math.Round(d.AddedFraction * float64(n)))
			have := map[string]bool{}
			for _, vv := range s.versions {
				for _, t := range vv.tools {
					have[t.name] = true
				}
			}
			cands := candidates(s.dom, s.prefix)
			shuffle(r, cands)
			extra := extraCandidates(s.dom, s.prefix)
			shuffle(r, extra)
			for _, c := range append(cands, extra...) {
				if nadd == 0 {
					break
				}
				if have[c.name] {
					continue
				}
				t := b.build(c, roundTarget(p.SchemaBytes.sample(r)))
				next.tools = append(next.tools, t)
				changes = append(changes, Change{Tool: t.name, Kind: "tool_added"})
				nadd--
			}
			next.version = bump(prev.version, breaking)
			for i := range changes {
				changes[i].Server, changes[i].From, changes[i].To = s.name, prev.version, next.version
			}
			next.changes = changes
			s.versions = append(s.versions, next)
		}
	}
}

// perm returns a random permutation of 0..n-1.
func (r *rng) perm(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	shuffle(r, p)
	return p
}

// mutate applies one change of the given kind to t (a clone) and returns
// it. A kind that does not apply (no property to remove) falls back to a
// description change.
func mutate(r *rng, b *builder, t *toolDef, kind string) Change {
	s := t.schema
	switch kind {
	case "optional_added", "required_added":
		before := len(s.Props)
		pool := append([]propSpec(nil), propPool...)
		shuffle(r, pool)
		for _, spec := range pool {
			b.addProp(t, spec, kind == "required_added")
			if len(s.Props) > before {
				return Change{Tool: t.name, Kind: kind, Property: s.Props[len(s.Props)-1].Name}
			}
		}
	case "property_removed":
		if len(s.Props) > 0 {
			i := r.intn(len(s.Props))
			name := s.Props[i].Name
			s.Props = append(s.Props[:i:i], s.Props[i+1:]...)
			s.Required = without(s.Required, name)
			return Change{Tool: t.name, Kind: kind, Property: name}
		}
	case "property_renamed":
		if len(s.Props) > 0 {
			i := r.intn(len(s.Props))
			old := s.Props[i].Name
			nw := renamed(old)
			if s.prop(nw) == nil {
				s.Props[i].Name = nw
				for j, q := range s.Required {
					if q == old {
						s.Required[j] = nw
					}
				}
				return Change{Tool: t.name, Kind: kind, Property: old + "->" + nw}
			}
		}
	}
	// Description only: reword the lead sentence or add one.
	old := t.desc
	for i := 0; i < 8 && t.desc == old; i++ {
		t.desc = b.lead(t) + strings.TrimPrefix(old, firstSentence(old))
	}
	if t.desc == old {
		t.desc = old + " " + b.fill(t, pick(r, sentencesFor(t.verb)))
	}
	if t.desc == old {
		t.desc = old + " (Updated.)"
	}
	return Change{Tool: t.name, Kind: "description"}
}

func firstSentence(s string) string {
	if i := strings.Index(s, ". "); i >= 0 {
		return s[:i+1]
	}
	return s
}

func without(xs []string, x string) []string {
	var out []string
	for _, y := range xs {
		if y != x {
			out = append(out, y)
		}
	}
	return out
}

// propRenames are how real APIs rename parameters between releases.
var propRenames = map[string]string{
	"query": "search_query", "limit": "max_results", "max_results": "page_size", "cursor": "page_token",
	"page": "page_number", "sort_by": "order_by", "body": "content", "title": "name", "url": "target_url",
	"path": "file_path", "owner": "owner_login", "comment": "note", "tags": "labels", "format": "output_format",
}

// renamed returns a new name for a property: a known synonym, a switch
// between snake_case and camelCase, or a qualified name.
func renamed(old string) string {
	if n, ok := propRenames[old]; ok {
		return n
	}
	if strings.Contains(old, "_") {
		return camel(old)
	}
	for i, c := range old {
		if c >= 'A' && c <= 'Z' {
			return strings.ToLower(old[:i]) + "_" + strings.ToLower(old[i:])
		}
	}
	return old + "_value"
}

// bump increments a version: major for breaking changes (minor while the
// major is 0), minor otherwise.
func bump(v string, breaking bool) string {
	parts := strings.Split(v, ".")
	nums := make([]int, 3)
	for i := 0; i < 3 && i < len(parts); i++ {
		nums[i], _ = strconv.Atoi(parts[i])
	}
	switch {
	case breaking && nums[0] > 0:
		nums[0], nums[1], nums[2] = nums[0]+1, 0, 0
	default:
		nums[1], nums[2] = nums[1]+1, 0
	}
	return fmt.Sprintf("%d.%d.%d", nums[0], nums[1], nums[2])
}

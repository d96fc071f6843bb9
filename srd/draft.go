package srd

import (
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// DraftVersion is the srd_version string of the published draft format
// (v0.1), read beside this package's Version.
const DraftVersion = "0.1"

// Draft priority bounds and default (the draft's scale is 0..100).
const (
	DraftMinPriority     = 0
	DraftMaxPriority     = 100
	DraftDefaultPriority = 50
)

// DraftClasses are the cost classes of a draft cost hint (latency_class
// and token_class).
func DraftClasses() []string { return []string{"low", "medium", "high"} }

// Draft holds what a v0.1 SRD says in the draft's own shapes. The SRD's
// common fields hold the same content in v1 terms (Domain as a v1 slug,
// Priority on 0..10, CostHint in v1 classes, ToolGroups in order), so the
// rankers read both versions alike; Draft keeps the originals for lint
// and conversion.
type Draft struct {
	// Domain is the domain as written ("enterprise_knowledge").
	Domain string
	// Disambiguation is the draft's one sentence contrasting the domain
	// with its neighbours; ResolveDrafts turns the names it mentions
	// into the SRD's v1 entries.
	Disambiguation string
	// Priority is on the draft's 0..100 scale.
	Priority int
	// LatencyClass and TokenClass are the draft's cost classes ("" when
	// the file gives no cost_hint).
	LatencyClass, TokenClass string
}

// DraftPriorityToV1 maps a draft priority (0..100) to v1 (0..10): p/10
// rounded half up, so 50 (the draft's middle) is 5 (v1's default), 80 is
// 8, 85 is 9 and 100 is 10.
func DraftPriorityToV1(p int) int {
	return (p + 5) / 10
}

// draftClass maps a draft cost class to v1's latency or token classes.
func draftClass(c string, v1 []string) string {
	for i, d := range DraftClasses() {
		if c == d {
			return v1[i]
		}
	}
	return c // unknown: lint reports it on the draft field
}

// DraftDomainSlug is the v1 form of a draft domain: lower case, "_"
// written as "-" ("enterprise_knowledge" → "enterprise-knowledge").
func DraftDomainSlug(d string) string {
	return strings.ReplaceAll(strings.ToLower(d), "_", "-")
}

// isDraftVersion reports a document whose srd_version is the draft's.
func isDraftVersion(root *yaml.Node) bool {
	if root.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if k, v := root.Content[i], root.Content[i+1]; k.Value == "srd_version" {
			return v.Kind == yaml.ScalarNode && (v.Value == DraftVersion)
		}
	}
	return false
}

// draftDocument decodes a v0.1 SRD.
func (d *decoder) draftDocument(root *yaml.Node) {
	s := d.s
	s.Draft = &Draft{Priority: DraftDefaultPriority}
	s.Priority = DraftPriorityToV1(DraftDefaultPriority)
	seen := map[string]int{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			d.fail(k, "", "want a plain key, got %s", describe(k))
			continue
		}
		key := k.Value
		if first, dup := seen[key]; dup {
			d.fail(k, key, "key repeated (first at line %d)", first)
			continue
		}
		seen[key] = k.Line
		if !d.plain(v, key) {
			continue
		}
		s.lines[key] = v.Line
		switch key {
		case "srd_version":
			if v.ShortTag() != "!!str" {
				d.fail(v, key, "want the string %q (quote it: a number is not the draft's version)", DraftVersion)
			}
			s.Version = 0
		case "server_id":
			s.ServerID = d.str(v, key)
		case "domain":
			s.Draft.Domain = d.str(v, key)
			s.Domain = DraftDomainSlug(s.Draft.Domain)
		case "display_name":
			s.DisplayName = d.str(v, key)
		case "intent_triggers":
			s.IntentTriggers = d.strList(v, key)
		case "disambiguation":
			if v.Kind == yaml.ScalarNode && v.ShortTag() == "!!null" {
				continue // lint reports it as missing
			}
			s.Draft.Disambiguation = d.str(v, key)
		case "priority":
			if p, ok := d.integer(v, key); ok {
				s.Draft.Priority = p
				s.Priority = DraftPriorityToV1(p)
			}
		case "cost_hint":
			d.draftCostHint(v)
		case "tool_groups":
			d.draftToolGroups(v)
		default:
			d.fail(k, key, "unknown field of a v%s SRD (known: srd_version, server_id, domain, display_name, intent_triggers, disambiguation, priority, cost_hint, tool_groups)", DraftVersion)
		}
	}
}

func (d *decoder) draftCostHint(n *yaml.Node) {
	dr := d.s.Draft
	d.mapping(n, "cost_hint", func(key string, _, v *yaml.Node) bool {
		switch key {
		case "latency_class":
			dr.LatencyClass = d.str(v, "cost_hint.latency_class")
		case "token_class":
			dr.TokenClass = d.str(v, "cost_hint.token_class")
		default:
			return false
		}
		return true
	})
	d.s.CostHint = &CostHint{Latency: draftClass(dr.LatencyClass, LatencyClasses()), Tokens: draftClass(dr.TokenClass, TokenClasses())}
}

// draftToolGroups reads the draft's list of {group, tools}.
func (d *decoder) draftToolGroups(n *yaml.Node) {
	const field = "tool_groups"
	if n.Kind != yaml.SequenceNode {
		d.fail(n, field, "want a list of {group, tools} entries, got %s", describe(n))
		return
	}
	for i, item := range n.Content {
		f := fmt.Sprintf("%s[%d]", field, i)
		if !d.plain(item, f) {
			continue
		}
		d.s.lines[f] = item.Line
		var g ToolGroup
		d.mapping(item, f, func(key string, _, v *yaml.Node) bool {
			switch key {
			case "group":
				g.Name = d.str(v, f+".group")
			case "tools":
				g.Tools = d.strList(v, f+".tools")
			default:
				return false
			}
			return true
		})
		d.s.ToolGroups = append(d.s.ToolGroups, g)
	}
}

package srd

import (
	"bytes"
	"fmt"
	"strconv"

	yaml "go.yaml.in/yaml/v3"
)

// ConvertDraft writes a draft (v0.1) SRD as a v1 SRD file (YAML), keeping
// every text: the domain as its v1 slug ("_" → "-"), the disambiguation
// sentence as the differs of one v1 entry per neighbour it names
// (ResolveDraft over names), the priority mapped by DraftPriorityToV1,
// the cost classes low/medium/high as fast/medium/slow and
// small/medium/large, and tool groups in their order. A comment line
// records the source file and, when the mapping rounds, the draft
// priority. Lint the draft set first: a draft that names no neighbour
// converts to a v1 SRD that does not lint.
func ConvertDraft(s *SRD, names Names) ([]byte, error) {
	if s.Draft == nil {
		return nil, fmt.Errorf("convert %s: %s is not a v%s SRD", s.File, s.ServerID, DraftVersion)
	}
	doc := mapNode()
	add := func(k string, v *yaml.Node) { doc.Content = append(doc.Content, strNode(k), v) }
	add("srd_version", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(Version)})
	add("server_id", strNode(s.ServerID))
	add("domain", strNode(s.Domain))
	add("display_name", strNode(s.DisplayName))
	trig := seqNode()
	for _, t := range s.IntentTriggers {
		trig.Content = append(trig.Content, strNode(t))
	}
	add("intent_triggers", trig)
	dis := seqNode()
	for _, e := range ResolveDraft(s, names) {
		m := mapNode()
		m.Content = append(m.Content, strNode("domain"), strNode(e.Domain))
		if e.Server != "" {
			m.Content = append(m.Content, strNode("server"), strNode(e.Server))
		}
		m.Content = append(m.Content, strNode("differs"), strNode(e.Differs))
		dis.Content = append(dis.Content, m)
	}
	add("disambiguation", dis)
	prio := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(s.Priority)}
	if s.Draft.Priority != s.Priority*10 {
		prio.LineComment = fmt.Sprintf("v%s priority %d on 0..100", DraftVersion, s.Draft.Priority)
	}
	add("priority", prio)
	if c := s.CostHint; c != nil {
		m := mapNode()
		m.Content = append(m.Content, strNode("latency"), strNode(c.Latency), strNode("tokens"), strNode(c.Tokens))
		m.Style = yaml.FlowStyle
		add("cost_hint", m)
	}
	if len(s.ToolGroups) > 0 {
		groups := mapNode()
		for _, g := range s.ToolGroups {
			tools := seqNode()
			tools.Style = yaml.FlowStyle
			for _, t := range g.Tools {
				tools.Content = append(tools.Content, strNode(t))
			}
			groups.Content = append(groups.Content, strNode(g.Name), tools)
		}
		add("tool_groups", groups)
	}
	doc.HeadComment = fmt.Sprintf("Converted from the v%s SRD %s by defersim srd convert.", DraftVersion, s.File)
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("convert %s: %w", s.File, err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("convert %s: %w", s.File, err)
	}
	return buf.Bytes(), nil
}

func strNode(v string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v}
}

func mapNode() *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"} }

func seqNode() *yaml.Node { return &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"} }

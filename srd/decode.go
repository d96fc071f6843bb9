package srd

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"

	yaml "go.yaml.in/yaml/v3"

	"github.com/defersim/defersim/internal/yamlerr"
)

// MaxFileSize bounds an SRD file (1 MiB): a routing description is a page
// of text, not a data set.
const MaxFileSize = 1 << 20

// Parse decodes the SRDs in data, read from file (used in problems). A
// file holds one SRD or several YAML documents separated by "---"; JSON is
// read as YAML, so a JSON file works too, and a file named .json must also
// be JSON (NotJSON). Structural problems (syntax,
// unknown keys, wrong types, aliases) are returned with the line they were
// found on; the rules between fields are Lint's. SRDs that decoded are
// returned even when problems were found.
func Parse(file string, data []byte) ([]*SRD, Problems) {
	if len(data) > MaxFileSize {
		return nil, Problems{tooLarge(file, int64(len(data)))}
	}
	if p, ok := NotUTF8(file, data); !ok {
		return nil, Problems{p}
	}
	// A file named .json must be JSON; its own error names the fault
	// better than the YAML reader's does. A file that YAML reads (a trailing
	// comma) keeps its SRDs, so the set's other checks do not cascade.
	var notJSON *Problem
	if isJSONName(file) {
		if p, ok := NotJSON(file, data); !ok {
			notJSON = &p
		}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var out []*SRD
	var probs Problems
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if notJSON == nil {
				line, msg := yamlerr.Locate(err, data)
				probs = append(probs, Problem{File: file, Line: line, Msg: "invalid YAML: " + msg, Unreadable: true})
			}
			break
		}
		if len(doc.Content) == 0 {
			continue
		}
		d := &decoder{file: file, s: &SRD{File: file, Priority: DefaultPriority, lines: map[string]int{}}}
		d.document(doc.Content[0])
		probs = append(probs, d.probs...)
		if d.s != nil {
			out = append(out, d.s)
		}
	}
	if notJSON != nil {
		probs = append(probs, *notJSON)
	}
	if len(out) == 0 && len(probs) == 0 {
		probs = append(probs, Problem{File: file, Msg: "no SRD in file"})
	}
	return out, probs
}

// decoder turns one YAML document into an SRD, collecting problems.
type decoder struct {
	file  string
	s     *SRD
	probs Problems
}

func (d *decoder) fail(n *yaml.Node, field, format string, args ...any) {
	line := 0
	if n != nil {
		line = n.Line
	}
	d.probs = append(d.probs, Problem{File: d.file, Line: line, Field: field, Msg: fmt.Sprintf(format, args...)})
	if d.s.bad == nil {
		d.s.bad = map[string]bool{}
	}
	d.s.bad[field] = true
}

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return "null"
		case "!!int", "!!float":
			return "a number"
		case "!!bool":
			return "a boolean"
		}
		return "a string"
	}
	return "nothing"
}

// plain reports whether n is usable here: aliases are refused (an SRD has
// no use for them, and refusing them rules out alias bombs).
func (d *decoder) plain(n *yaml.Node, field string) bool {
	if n.Kind == yaml.AliasNode {
		d.fail(n, field, "aliases are not allowed in SRD files")
		return false
	}
	return true
}

func (d *decoder) document(root *yaml.Node) {
	s := d.s
	s.lines[""] = root.Line
	if !d.plain(root, "") {
		return
	}
	if root.Kind != yaml.MappingNode {
		d.fail(root, "", "want a mapping of SRD fields, got %s", describe(root))
		return
	}
	if isDraftVersion(root) {
		d.draftDocument(root)
		return
	}
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
			s.Version, _ = d.integer(v, key)
		case "server_id":
			s.ServerID = d.str(v, key)
		case "domain":
			s.Domain = d.str(v, key)
		case "display_name":
			s.DisplayName = d.str(v, key)
		case "summary":
			s.Summary = d.str(v, key)
		case "intent_triggers":
			s.IntentTriggers = d.strList(v, key)
		case "disambiguation":
			d.disambiguation(v)
		case "priority":
			if p, ok := d.integer(v, key); ok {
				s.Priority = p
			}
		case "cost_hint":
			d.costHint(v)
		case "tool_groups":
			d.toolGroups(v)
		default:
			d.fail(k, key, "unknown field (known: srd_version, server_id, domain, display_name, summary, intent_triggers, disambiguation, priority, cost_hint, tool_groups)")
		}
	}
}

// str reads a string scalar; numbers and booleans are refused so that a
// YAML "yes" or "1.10" never turns silently into text.
func (d *decoder) str(n *yaml.Node, field string) string {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
		d.fail(n, field, "want a string, got %s", describe(n))
		return ""
	}
	return n.Value
}

func (d *decoder) integer(n *yaml.Node, field string) (int, bool) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" {
		d.fail(n, field, "want an integer, got %s", describe(n))
		return 0, false
	}
	v, err := strconv.ParseInt(n.Value, 0, 32)
	if err != nil {
		d.fail(n, field, "integer %s is out of range", n.Value)
		return 0, false
	}
	return int(v), true
}

func (d *decoder) strList(n *yaml.Node, field string) []string {
	if n.Kind != yaml.SequenceNode {
		d.fail(n, field, "want a list of strings, got %s", describe(n))
		return nil
	}
	out := make([]string, 0, len(n.Content))
	for i, item := range n.Content {
		f := fmt.Sprintf("%s[%d]", field, i)
		if !d.plain(item, f) {
			continue
		}
		d.s.lines[f] = item.Line
		out = append(out, d.str(item, f))
	}
	return out
}

// mapping iterates the keys of a mapping node, refusing repeated and
// unknown keys; fn returns false for an unknown key.
func (d *decoder) mapping(n *yaml.Node, field string, fn func(key string, k, v *yaml.Node) bool) {
	if n.Kind != yaml.MappingNode {
		d.fail(n, field, "want a mapping, got %s", describe(n))
		return
	}
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			d.fail(k, field, "want a plain key, got %s", describe(k))
			continue
		}
		f := field + "." + k.Value
		if first, dup := seen[k.Value]; dup {
			d.fail(k, f, "key repeated (first at line %d)", first)
			continue
		}
		seen[k.Value] = k.Line
		if !d.plain(v, f) {
			continue
		}
		d.s.lines[f] = v.Line
		if !fn(k.Value, k, v) {
			d.fail(k, f, "unknown field")
		}
	}
}

func (d *decoder) disambiguation(n *yaml.Node) {
	const field = "disambiguation"
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
		return // lint reports it as missing
	}
	if n.Kind != yaml.SequenceNode {
		d.fail(n, field, "want a list of {domain, server, differs} entries, got %s", describe(n))
		return
	}
	for i, item := range n.Content {
		f := fmt.Sprintf("%s[%d]", field, i)
		if !d.plain(item, f) {
			continue
		}
		d.s.lines[f] = item.Line
		var e Disambiguation
		d.mapping(item, f, func(key string, _, v *yaml.Node) bool {
			switch key {
			case "domain":
				e.Domain = d.str(v, f+".domain")
			case "server":
				e.Server = d.str(v, f+".server")
			case "differs":
				e.Differs = d.str(v, f+".differs")
			default:
				return false
			}
			return true
		})
		d.s.Disambiguation = append(d.s.Disambiguation, e)
	}
}

func (d *decoder) costHint(n *yaml.Node) {
	c := &CostHint{}
	d.mapping(n, "cost_hint", func(key string, _, v *yaml.Node) bool {
		switch key {
		case "latency":
			c.Latency = d.str(v, "cost_hint.latency")
		case "tokens":
			c.Tokens = d.str(v, "cost_hint.tokens")
		default:
			return false
		}
		return true
	})
	d.s.CostHint = c
}

func (d *decoder) toolGroups(n *yaml.Node) {
	d.mapping(n, "tool_groups", func(key string, _, v *yaml.Node) bool {
		f := "tool_groups." + key
		d.s.ToolGroups = append(d.s.ToolGroups, ToolGroup{Name: key, Tools: d.strList(v, f)})
		return true
	})
}

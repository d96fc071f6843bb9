package gen

import (
	"bytes"
	"strings"
)

// toolDef is one generated tool at one server version.
type toolDef struct {
	name   string
	desc   string
	schema *schema
	ann    *annotations
	// What the tool does, for user text.
	verb verb
	noun noun
	dom  *domain
	// a and b are the attribute words its description mentions.
	a, b string
}

// annotations are MCP tool annotations (hints).
type annotations struct {
	Title       string
	ReadOnly    bool
	Destructive bool
	Idempotent  bool
	OpenWorld   bool
}

// clone returns a deep copy of t.
func (t *toolDef) clone() *toolDef {
	c := *t
	c.schema = t.schema.clone()
	if t.ann != nil {
		a := *t.ann
		c.ann = &a
	}
	return &c
}

// writeMCP writes the tool as an MCP tools/list entry: name, description,
// inputSchema, annotations.
func (t *toolDef) writeMCP(b *bytes.Buffer) {
	w := objWriter{b: b}
	b.WriteByte('{')
	w.key("name")
	writeString(b, t.name)
	w.key("description")
	writeString(b, t.desc)
	w.key("inputSchema")
	t.schema.write(b)
	if t.ann != nil {
		w.key("annotations")
		b.WriteByte('{')
		aw := objWriter{b: b}
		aw.key("title")
		writeString(b, t.ann.Title)
		for _, h := range []struct {
			k string
			v bool
		}{{"readOnlyHint", t.ann.ReadOnly}, {"destructiveHint", t.ann.Destructive},
			{"idempotentHint", t.ann.Idempotent}, {"openWorldHint", t.ann.OpenWorld}} {
			aw.key(h.k)
			if h.v {
				b.WriteString("true")
			} else {
				b.WriteString("false")
			}
		}
		b.WriteByte('}')
	}
	b.WriteByte('}')
}

// mcpJSON returns the compact MCP form of the tool.
func (t *toolDef) mcpJSON() []byte {
	var b bytes.Buffer
	t.writeMCP(&b)
	return b.Bytes()
}

// wireSize is the size in bytes of the compact wire form a runtime sends:
// {"name":…,"description":…,"input_schema":…}. Schema-size parameters and
// calibration figures are in these bytes.
func (t *toolDef) wireSize() int {
	var b bytes.Buffer
	w := objWriter{b: &b}
	b.WriteByte('{')
	w.key("name")
	writeString(&b, t.name)
	w.key("description")
	writeString(&b, t.desc)
	w.key("input_schema")
	t.schema.write(&b)
	b.WriteByte('}')
	return b.Len()
}

// human turns a snake_case identifier into words.
func human(s string) string {
	return strings.ReplaceAll(s, "_", " ")
}

// article returns "a" or "an" for word.
func article(word string) string {
	if word == "" {
		return "a"
	}
	switch word[0] {
	case 'a', 'e', 'i', 'o', 'u':
		return "an"
	}
	return "a"
}

// camel converts snake_case to lowerCamelCase.
func camel(s string) string {
	parts := strings.Split(s, "_")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}

// title turns "list_issues" into "List issues".
func title(s string) string {
	h := human(s)
	if h == "" {
		return h
	}
	return strings.ToUpper(h[:1]) + h[1:]
}

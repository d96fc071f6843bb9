package gen

import (
	"fmt"
	"math"
	"strings"
)

// serverStyle is what varies between servers written by different authors.
type serverStyle struct {
	dialect     string // "$schema" value or ""
	annotations bool   // tools carry annotations
	closed      bool   // root schemas set additionalProperties: false
	camelProps  bool   // property names in lowerCamelCase
}

var dialects = []string{"", "http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft/2020-12/schema"}

func newServerStyle(r *rng) serverStyle {
	return serverStyle{
		dialect:     pick(r, dialects),
		annotations: r.chance(0.5),
		closed:      r.chance(0.5),
		camelProps:  r.chance(0.35),
	}
}

// builder makes tools for one server.
type builder struct {
	r     *rng
	dom   *domain
	style serverStyle
	share float64 // mean share of the wire bytes spent on the description
}

// toolSpec says which tool to build.
type toolSpec struct {
	name string
	verb verb
	noun noun
}

// candidates lists tool names a domain can offer, most natural first.
func candidates(dom *domain, prefix string) []toolSpec {
	vs := genericVerbs
	if dom.verbs != nil {
		vs = dom.verbs
	}
	var out []toolSpec
	seen := map[string]bool{}
	add := func(ts toolSpec) {
		if !seen[ts.name] {
			seen[ts.name] = true
			out = append(out, ts)
		}
	}
	if prefix != "" && dom.verbs != nil {
		// A family: the bare verb names come first (browser_click, ...).
		for _, w := range vs {
			v, _ := verbByWord(w)
			add(toolSpec{name: prefix + w, verb: v, noun: dom.nouns[0]})
		}
	}
	for _, n := range dom.nouns {
		for _, w := range vs {
			v, _ := verbByWord(w)
			obj := n.one
			if v.plural {
				obj = n.many
			}
			add(toolSpec{name: prefix + w + "_" + obj, verb: v, noun: n})
		}
	}
	return out
}

// extraCandidates lists further names (list_issues_by_status, ...) for
// servers larger than the verb × noun grid.
func extraCandidates(dom *domain, prefix string) []toolSpec {
	var out []toolSpec
	for _, a := range dom.attrs {
		for _, n := range dom.nouns {
			for _, w := range []string{"list", "search", "count", "update"} {
				v, _ := verbByWord(w)
				obj := n.one
				if v.plural {
					obj = n.many
				}
				out = append(out, toolSpec{name: prefix + w + "_" + obj + "_by_" + a, verb: v, noun: n})
			}
		}
	}
	return out
}

// specForName derives verb and noun from a planted tool name such as
// "web_search" or "memory_recall".
func specForName(dom *domain, name string) toolSpec {
	words := strings.Split(name, "_")
	ts := toolSpec{name: name, noun: dom.nouns[0]}
	found := false
	for i, w := range words {
		if v, ok := verbByWord(w); ok {
			ts.verb = v
			found = true
			rest := append(append([]string(nil), words[:i]...), words[i+1:]...)
			for _, n := range dom.nouns {
				for _, x := range rest {
					if x == n.one || x == n.many {
						ts.noun = n
					}
				}
			}
			break
		}
	}
	if !found {
		// A noun-only name ("screenshot"): it captures that thing.
		ts.verb, _ = verbByWord("take")
		ts.noun = noun{one: name, many: name + "s", alt: human(name)}
	}
	return ts
}

// build makes one tool whose wire size is close to target bytes.
func (b *builder) build(ts toolSpec, target int) *toolDef {
	r := b.r
	attrs := append([]string(nil), b.dom.attrs...)
	shuffle(r, attrs)
	t := &toolDef{name: ts.name, verb: ts.verb, noun: ts.noun, dom: b.dom, a: attrs[0], b: attrs[1%len(attrs)]}
	t.desc = b.lead(t)
	share := b.share * (0.5 + r.float64())
	if share > 0.8 {
		share = 0.8
	}
	descTarget := int(share * float64(target))
	more := sentencesFor(ts.verb)
	shuffle(r, more)
	for i := 0; len(t.desc) < descTarget && i < len(more); i++ {
		t.desc += " " + b.fill(t, more[i])
	}
	t.schema = &schema{Type: "object", Props: []prop{}, Dialect: b.style.dialect, Closed: b.style.closed}
	if b.style.annotations {
		t.ann = &annotations{
			Title:       title(strings.TrimPrefix(ts.name, b.dom.name+"_")),
			ReadOnly:    ts.verb.kind == "read",
			Destructive: ts.verb.kind == "destroy",
			Idempotent:  ts.verb.kind != "write",
			OpenWorld:   b.dom.name == "web" || b.dom.name == "browser",
		}
	}
	for _, c := range coreProps(ts.verb) {
		b.addProp(t, c.spec, c.required)
	}
	// Add properties while they bring the size closer to the target: one
	// that would overshoot by more than the remaining gap is taken back.
	pool := append([]propSpec(nil), propPool...)
	shuffle(r, pool)
	for i := 0; i < len(pool); i++ {
		before := t.wireSize()
		if before >= target {
			break
		}
		np, nr := len(t.schema.Props), len(t.schema.Required)
		b.addProp(t, pool[i], r.chance(0.15))
		if after := t.wireSize(); after > target && after-target > target-before {
			t.schema.Props, t.schema.Required = t.schema.Props[:np], t.schema.Required[:nr]
			if len(t.schema.Required) == 0 {
				t.schema.Required = nil
			}
		}
	}
	// Still short: the real catalogs' largest tools carry long prose.
	ex := append([]string(nil), descExample...)
	shuffle(r, ex)
	for i := 0; t.wireSize() < target && i < len(more)+len(ex); i++ {
		var s string
		if i < len(ex) {
			s = ex[i]
		} else {
			s = more[(i-len(ex))%len(more)]
		}
		if strings.Contains(t.desc, b.fill(t, s)) {
			continue
		}
		t.desc += " " + b.fill(t, s)
	}
	// Last resort for very large targets: enumerate allowed values of the
	// attributes in a nested, documented object.
	for k := 0; t.wireSize() < target && k < 64; k++ {
		b.addProp(t, propSpec{name: fmt.Sprintf("section_%d", k+1), typ: "object",
			desc: "Settings group " + fmt.Sprint(k+1) + " for the {n}; see the service guide for each field."}, false)
	}
	return t
}

// sentencesFor returns the descMore sentences that suit v, prefixes removed.
func sentencesFor(v verb) []string {
	var out []string
	for _, s := range descMore {
		switch {
		case strings.HasPrefix(s, "r:"):
			if v.kind == "read" {
				out = append(out, s[2:])
			}
		case strings.HasPrefix(s, "w:"):
			if v.kind != "read" {
				out = append(out, s[2:])
			}
		default:
			out = append(out, s)
		}
	}
	return out
}

// lead writes the description's first sentence.
func (b *builder) lead(t *toolDef) string {
	return b.fill(t, pick(b.r, descLead))
}

// fill replaces template placeholders for tool t.
func (b *builder) fill(t *toolDef, s string) string {
	does := t.verb.does
	if does == "" {
		does = "Runs"
	}
	rep := strings.NewReplacer(
		"{V}", does,
		"{n_art}", article(human(t.noun.one))+" "+human(t.noun.one),
		"{n}", human(t.noun.one),
		"{N}", human(t.noun.many),
		"{D}", t.dom.about,
		"{a}", human(t.a),
		"{b}", human(t.b),
	)
	return rep.Replace(s)
}

type coreProp struct {
	spec     propSpec
	required bool
}

// coreProps are the properties a verb implies, before random extras.
func coreProps(v verb) []coreProp {
	id := propSpec{"{n}_id", "id", "Identifier of the {n}.", nil}
	switch v.word {
	case "list", "export", "count", "sync", "recall":
		return []coreProp{{propSpec{"limit", "integer", "Maximum number of {n} entries to return.", nil}, false}}
	case "search":
		return []coreProp{{propSpec{"query", "string", "What to search for, in plain words.", nil}, true},
			{propSpec{"limit", "integer", "Maximum number of results.", nil}, false}}
	case "create", "store":
		return []coreProp{{propSpec{"title", "string", "Short title for the new {n}.", nil}, true}}
	case "fetch", "navigate":
		return []coreProp{{propSpec{"url", "string", "Absolute URL to open, including the scheme.", nil}, true}}
	case "click", "hover", "type", "select", "fill", "drag", "press", "upload":
		return []coreProp{{propSpec{"element", "string", "Human-readable description of the target element.", nil}, true},
			{propSpec{"ref", "id", "Exact reference of the element from the latest snapshot.", nil}, true}}
	case "take", "capture", "snapshot", "close", "wait_for", "resize", "save", "focus", "kill", "evaluate":
		return nil
	}
	return []coreProp{{id, true}}
}

// addProp adds a property made from spec to t's root schema.
func (b *builder) addProp(t *toolDef, spec propSpec, required bool) {
	name := b.propName(t, spec.name)
	if t.schema.prop(name) != nil {
		return
	}
	s := b.makeProp(t, spec, 0)
	t.schema.Props = append(t.schema.Props, prop{Name: name, Schema: s})
	if required {
		t.schema.Required = append(t.schema.Required, name)
	}
}

func (b *builder) propName(t *toolDef, tmpl string) string {
	n := strings.NewReplacer("{n}", t.noun.one, "{a}", t.a).Replace(tmpl)
	n = strings.ReplaceAll(n, " ", "_")
	if b.style.camelProps {
		n = camel(n)
	}
	return n
}

// makeProp builds the schema of one property. depth limits nesting.
func (b *builder) makeProp(t *toolDef, spec propSpec, depth int) *schema {
	r := b.r
	desc := b.fill(t, spec.desc)
	if r.chance(0.08) {
		desc = ""
	}
	s := &schema{Description: desc}
	switch spec.typ {
	case "id":
		s.Type = "string"
		s.MinLength = 1
	case "string":
		s.Type = "string"
		if r.chance(0.2) {
			s.MaxLength = pick(r, []int{80, 200, 1000, 5000})
		}
	case "date":
		s.Type, s.Format = "string", "date"
	case "datetime":
		s.Type, s.Format = "string", "date-time"
	case "integer":
		s.Type = "integer"
		s.Min = ptr(1)
		s.Max = ptr(float64(pick(r, []int{50, 100, 500, 1000})))
		if r.chance(0.4) {
			s.Default = 20
		}
	case "number":
		s.Type = "number"
		s.Min = ptr(0)
		if strings.Contains(spec.name, "ratio") {
			s.Max = ptr(1)
		}
	case "boolean":
		s.Type = "boolean"
		if r.chance(0.4) {
			s.Default = false
		}
	case "enum":
		s.Type = "string"
		s.Enum = append([]string(nil), spec.enum...)
	case "strings":
		s.Type = "array"
		s.Items = &schema{Type: "string"}
		s.MaxItems = pick(r, []int{0, 10, 50})
	case "enums":
		s.Type = "array"
		s.Items = &schema{Type: "string", Enum: append([]string(nil), spec.enum...)}
		s.Unique = true
	case "object":
		s.Type = "object"
		if spec.name == "metadata" || depth >= 2 {
			s.Values = &schema{Type: "string"}
			return s
		}
		b.nested(t, s, depth)
	case "objects":
		s.Type = "array"
		item := &schema{Type: "object"}
		if depth >= 2 {
			item.Values = &schema{Type: "string"}
		} else {
			b.nested(t, item, depth)
		}
		s.Items = item
		s.MinItems = 1
		s.MaxItems = pick(r, []int{20, 100})
	default:
		s.Type = "string"
	}
	return s
}

// nested fills an object schema with 2–5 properties.
func (b *builder) nested(t *toolDef, s *schema, depth int) {
	r := b.r
	n := r.between(2, 5)
	pool := append([]propSpec(nil), propPool...)
	shuffle(r, pool)
	s.Props = []prop{}
	for _, spec := range pool {
		if len(s.Props) >= n {
			break
		}
		if (spec.typ == "object" || spec.typ == "objects") && depth >= 1 {
			continue
		}
		name := b.propName(t, spec.name)
		if s.prop(name) != nil {
			continue
		}
		s.Props = append(s.Props, prop{Name: name, Schema: b.makeProp(t, spec, depth+1)})
		if r.chance(0.3) {
			s.Required = append(s.Required, name)
		}
	}
	if b.style.closed && r.chance(0.5) {
		s.Closed = true
	}
}

// roundTarget turns a drawn size into a byte target.
func roundTarget(x float64) int {
	return int(math.Round(x))
}

package validation

import (
	"encoding/json"
	"errors"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Example returns a small deterministic instance of a JSON Schema for tool
// arguments, as a model would fill the schema in: with all=false only
// required properties (and minItems array elements), with all=true every
// named property and one element per array. Values: the const or the first
// enum value when there is one; else by type (the first non-null type
// listed; an object at the root when the schema does not say, since tool
// arguments always are one): "" (or the shortest string the length bounds,
// format or pattern admit; a pattern no stock candidate matches is walked,
// see patternString), 0 moved into [minimum, maximum], false, null,
// {} / [] filled as above. "$ref"s are followed locally; "allOf" branches
// are merged; of "anyOf"/"oneOf" the first branch that yields a value is
// used. The instance is validated against the schema; when it fails, the
// choice of branch is rotated (second branch first, …) up to
// exampleTries times. It fails when the schema does not compile, is false,
// or no instance built this way validates.
func Example(schema json.RawMessage, all bool) (json.RawMessage, error) {
	l := DefaultLimits()
	if isEmptyJSON(schema) {
		return json.RawMessage(`{}`), nil
	}
	c := newMemo(l).get(schema)
	if c.schErr != nil {
		return nil, c.schErr
	}
	g := &generator{r: resolver{root: c.doc, maxHops: l.MaxRefHops}, l: l}
	for rot := range exampleTries {
		g.rot = rot
		v, ok := g.instance(c.doc, all)
		if !ok {
			continue
		}
		if err := c.sch.Validate(v); err == nil {
			return json.Marshal(v)
		}
	}
	return nil, errors.New("no instance: the schema admits nothing this generator can build")
}

// exampleTries is how many branch rotations Example tries.
const exampleTries = 4

type generator struct {
	r      resolver
	l      Limits
	budget int // schema nodes one instance may still visit
	rot    int // anyOf/oneOf branches are tried from this index on
}

// genBudget bounds the nodes one generated instance visits (recursive
// schemas would otherwise grow without end).
const genBudget = 2000

// instance builds one instance of node (see Example).
func (g *generator) instance(node any, all bool) (any, bool) {
	g.budget = genBudget
	return g.example(node, all, 0)
}

// merged is a schema node with its $ref target and allOf branches folded
// in: the first value of each keyword wins, properties and required are
// unions.
func (g *generator) merged(node any) (map[string]any, bool) {
	out := map[string]any{}
	props := map[string]any{}
	var required []any
	budget := walkBudget
	var fold func(n any) bool
	fold = func(n any) bool {
		if budget--; budget < 0 {
			return true
		}
		switch x := n.(type) {
		case bool:
			return x
		case map[string]any:
			if t, ok := g.r.refTarget(x); ok {
				if !fold(t) {
					return false
				}
			} else if _, hasRef := x["$ref"]; hasRef {
				return true // unresolvable: read the node as if unconstrained
			}
			for k, v := range x {
				switch k {
				case "properties":
					if pm, ok := v.(map[string]any); ok {
						for name, sub := range pm {
							if _, dup := props[name]; !dup {
								props[name] = sub
							}
						}
					}
				case "required":
					if rl, ok := v.([]any); ok {
						required = append(required, rl...)
					}
				case "allOf", "$ref":
				default:
					if _, set := out[k]; !set {
						out[k] = v
					}
				}
			}
			if list, ok := x["allOf"].([]any); ok {
				for _, b := range list {
					if !fold(b) {
						return false
					}
				}
			}
		}
		return true
	}
	if !fold(node) {
		return nil, false
	}
	if len(props) > 0 {
		out["properties"] = props
	}
	if len(required) > 0 {
		out["required"] = required
	}
	return out, true
}

func (g *generator) example(node any, all bool, depth int) (any, bool) {
	if g.budget--; depth > min(g.l.MaxDepth, 32) || g.budget < 0 {
		return nil, false
	}
	m, ok := g.merged(node)
	if !ok {
		return nil, false
	}
	if c, ok := m["const"]; ok {
		return c, true
	}
	if e, ok := m["enum"].([]any); ok && len(e) > 0 {
		return e[0], true
	}
	ts := types(m)
	if len(ts) == 0 {
		for _, key := range []string{"anyOf", "oneOf"} {
			if list, ok := m[key].([]any); ok {
				for i := range list {
					b := list[(i+g.rot)%len(list)]
					if v, ok := g.example(b, all, depth+1); ok {
						return v, true
					}
				}
				return nil, false
			}
		}
		switch {
		case depth == 0 || m["properties"] != nil || m["required"] != nil || m["additionalProperties"] != nil:
			ts = []string{"object"}
		case m["items"] != nil || m["prefixItems"] != nil:
			ts = []string{"array"}
		default:
			ts = []string{"string"}
		}
	}
	t := ts[0]
	if i := slices.IndexFunc(ts, func(s string) bool { return s != "null" }); i >= 0 {
		t = ts[i]
	}
	switch t {
	case "object":
		return g.object(m, all, depth)
	case "array":
		return g.array(m, all, depth)
	case "string":
		return g.str(m), true
	case "integer", "number":
		return g.number(m, t == "integer")
	case "boolean":
		return false, true
	case "null":
		return nil, true
	}
	return nil, false
}

func (g *generator) object(m map[string]any, all bool, depth int) (any, bool) {
	out := map[string]any{}
	props, _ := m["properties"].(map[string]any)
	var names []string
	if all {
		names = sortedKeys(props)
	}
	if req, ok := m["required"].([]any); ok {
		for _, x := range req {
			if n, ok := x.(string); ok && !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	required := func(n string) bool {
		req, _ := m["required"].([]any)
		return slices.Contains(req, any(n))
	}
	for _, n := range names {
		sub, ok := props[n]
		if !ok {
			if ap, isSchema := m["additionalProperties"].(map[string]any); isSchema {
				sub = ap
			} else {
				sub = map[string]any{}
			}
		}
		v, ok := g.example(sub, all, depth+1)
		if !ok {
			if required(n) {
				return nil, false
			}
			continue
		}
		out[n] = v
	}
	return out, true
}

func (g *generator) array(m map[string]any, all bool, depth int) (any, bool) {
	n := 0
	if x, ok := intKeyword(m, "minItems"); ok {
		n = int(min(max(x, 0), 64))
	}
	if all && n == 0 {
		n = 1
		if x, ok := intKeyword(m, "maxItems"); ok && x < 1 {
			n = 0
		}
	}
	prefix, _ := m["prefixItems"].([]any)
	items := m["items"]
	if list, ok := items.([]any); ok {
		prefix, items = list, m["additionalItems"]
	}
	out := []any{}
	for i := range n {
		var sub any = map[string]any{}
		switch {
		case i < len(prefix):
			sub = prefix[i]
		case items != nil:
			sub = items
		}
		v, ok := g.example(sub, all, depth+1)
		if !ok {
			return nil, false
		}
		out = append(out, v)
	}
	return out, true
}

// formatExamples are values for common string formats.
var formatExamples = map[string]string{
	"date-time":     "2025-01-01T00:00:00Z",
	"date":          "2025-01-01",
	"time":          "00:00:00Z",
	"email":         "a@example.com",
	"uri":           "https://example.com/",
	"url":           "https://example.com/",
	"uri-reference": "https://example.com/",
	"uuid":          "00000000-0000-0000-0000-000000000000",
	"ipv4":          "127.0.0.1",
	"ipv6":          "::1",
	"hostname":      "example.com",
}

// patternCandidates are tried, in order, against a "pattern".
var patternCandidates = []string{"", "a", "0", "a1", "A", "aaaaaaaa", "https://example.com/", "a@example.com",
	"2025-01-01", "00000000-0000-0000-0000-000000000000", "a-a", "a_a", "a.a", "/a", "1.0.0", "#a"}

func (g *generator) str(m map[string]any) string {
	if f, ok := m["format"].(string); ok {
		if s, ok := formatExamples[f]; ok {
			return s
		}
	}
	minLen := 0
	if x, ok := intKeyword(m, "minLength"); ok {
		minLen = int(min(max(x, 0), 4096))
	}
	if p, ok := m["pattern"].(string); ok {
		if re, err := regexp.Compile(p); err == nil {
			for _, c := range patternCandidates {
				if len(c) >= minLen && re.MatchString(c) {
					return c
				}
			}
			if s, ok := patternString(p, minLen); ok {
				return s
			}
		}
	}
	return strings.Repeat("a", minLen)
}

func (g *generator) number(m map[string]any, integer bool) (any, bool) {
	x := 0.0
	if v, ok := numKeyword(m, "minimum"); ok && x < v {
		x = v
	}
	if v, ok := numKeyword(m, "exclusiveMinimum"); ok && x <= v {
		x = math.Floor(v) + 1
	}
	if v, ok := numKeyword(m, "maximum"); ok && x > v {
		x = v
	}
	if v, ok := numKeyword(m, "exclusiveMaximum"); ok && x >= v {
		x = math.Ceil(v) - 1
	}
	if integer || x == math.Trunc(x) {
		x = math.Ceil(x)
	}
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return nil, false
	}
	return json.Number(strconv.FormatFloat(x, 'f', -1, 64)), true
}

func numKeyword(m map[string]any, key string) (float64, bool) {
	n, ok := m[key].(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil
}

func intKeyword(m map[string]any, key string) (int64, bool) {
	f, ok := numKeyword(m, key)
	if !ok || f > math.MaxInt32 || f < math.MinInt32 {
		return 0, false
	}
	return int64(f), true
}

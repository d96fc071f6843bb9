package validation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// ShapeOptions choose how far shaping goes.
type ShapeOptions struct {
	// Conform also makes the shaped arguments fit the seen schema where
	// the recorded ones do not: a property the seen schema requires and the
	// arguments lack is added (with Example's minimal value), and a kept
	// value whose JSON type, enum or const the seen property schema rejects
	// is replaced the same way. Off, shaping only drops.
	Conform bool
}

// Shape derives the arguments a model that sees the schema seen would
// send, from arguments recorded for another (typically newer) schema:
//
//   - an object the seen schema describes (it names properties, through
//     "properties", "patternProperties", "$ref", "allOf", "anyOf" or
//     "oneOf") keeps the members the seen schema knows — a named property
//     or one matching a property pattern — and loses the others, unless
//     "additionalProperties" is a (non-empty) schema, which invites
//     unnamed members; kept members are shaped in turn by their property
//     schema;
//   - an array's elements are shaped by "items" / "prefixItems";
//   - anything else (scalars, objects the seen schema does not describe)
//     is kept as recorded.
//
// Empty args mean {}. An empty or "null" seen schema shapes nothing. See
// ShapeOptions for the Conform extension.
func Shape(seen, args json.RawMessage, opt ShapeOptions) (json.RawMessage, error) {
	l := DefaultLimits()
	a, err := decodeArgs(args, l)
	if err != nil {
		return nil, err
	}
	if isEmptyJSON(seen) {
		return json.Marshal(a)
	}
	if err := l.checkDoc("seen schema", seen); err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(seen))
	if err != nil {
		return nil, fmt.Errorf("seen schema: %w", err)
	}
	return json.Marshal(newShaper(doc, l, opt).shape(doc, a, 0))
}

func isEmptyJSON(b []byte) bool {
	b = bytes.TrimSpace(b)
	return len(b) == 0 || string(b) == "null"
}

// decodeArgs decodes an argument document; empty or null means {}.
func decodeArgs(args []byte, l Limits) (any, error) {
	if isEmptyJSON(args) {
		return map[string]any{}, nil
	}
	if err := l.checkDoc("arguments", args); err != nil {
		return nil, err
	}
	a, err := jsonschema.UnmarshalJSON(bytes.NewReader(args))
	if err != nil {
		return nil, fmt.Errorf("arguments: %w", err)
	}
	return a, nil
}

type shaper struct {
	r     resolver
	l     Limits
	opt   ShapeOptions
	gen   *generator                // set when opt.Conform
	regex map[string]*regexp.Regexp // compiled on first use; nil entry: RE2 cannot compile it
}

func newShaper(root any, l Limits, opt ShapeOptions) *shaper {
	r := resolver{root: root, maxHops: l.MaxRefHops}
	s := &shaper{r: r, l: l, opt: opt}
	if opt.Conform {
		s.gen = &generator{r: r, l: l}
	}
	return s
}

// objectView is what a schema node says about an object's members.
type objectView struct {
	describes bool             // it names properties or property patterns
	props     map[string][]any // property → the subschemas describing it
	order     []string         // property names in first-seen order
	patterns  []string
	open      bool     // additionalProperties is a non-empty schema
	required  []string // from the node, its $ref and allOf (not anyOf/oneOf)
}

func (s *shaper) view(node any) *objectView {
	v := &objectView{props: map[string][]any{}}
	budget := walkBudget
	s.collect(node, v, true, &budget)
	return v
}

func (s *shaper) collect(node any, v *objectView, mandatory bool, budget *int) {
	if *budget <= 0 {
		return
	}
	*budget--
	m, ok := node.(map[string]any)
	if !ok {
		return
	}
	if t, ok := s.r.refTarget(m); ok {
		s.collect(t, v, mandatory, budget)
	}
	if props, ok := m["properties"].(map[string]any); ok {
		v.describes = true
		for _, name := range sortedKeys(props) {
			if _, seen := v.props[name]; !seen {
				v.order = append(v.order, name)
			}
			v.props[name] = append(v.props[name], props[name])
		}
	}
	if pp, ok := m["patternProperties"].(map[string]any); ok {
		v.describes = true
		v.patterns = append(v.patterns, sortedKeys(pp)...)
	}
	if ap, ok := m["additionalProperties"].(map[string]any); ok && len(ap) > 0 {
		v.open = true
	}
	if mandatory {
		if req, ok := m["required"].([]any); ok {
			for _, x := range req {
				if n, ok := x.(string); ok && !slices.Contains(v.required, n) {
					v.required = append(v.required, n)
				}
			}
		}
	}
	for _, key := range []string{"allOf", "anyOf", "oneOf"} {
		if list, ok := m[key].([]any); ok {
			for _, sub := range list {
				s.collect(sub, v, mandatory && key == "allOf", budget)
			}
		}
	}
}

func (s *shaper) matchesPattern(v *objectView, name string) bool {
	for _, p := range v.patterns {
		re, seen := s.regex[p]
		if !seen {
			re, _ = regexp.Compile(p)
			if s.regex == nil {
				s.regex = map[string]*regexp.Regexp{}
			}
			s.regex[p] = re
		}
		if re == nil || re.MatchString(name) {
			return true
		}
	}
	return false
}

// shape returns value as a model seeing node would have sent it.
func (s *shaper) shape(node, value any, depth int) any {
	if depth > s.l.MaxDepth {
		return value
	}
	switch val := value.(type) {
	case map[string]any:
		return s.shapeObject(node, val, depth)
	case []any:
		return s.shapeArray(node, val, depth)
	}
	return value
}

func (s *shaper) shapeObject(node any, val map[string]any, depth int) any {
	v := s.view(node)
	if !v.describes {
		return val
	}
	out := make(map[string]any, len(val))
	for _, k := range sortedKeys(val) {
		x := val[k]
		switch subs := v.props[k]; {
		case len(subs) > 0:
			if s.opt.Conform && !s.fits(subs[0], x) {
				if g, ok := s.gen.instance(subs[0], false); ok {
					x = g
				}
			}
			out[k] = s.shape(subs[0], x, depth+1)
		case s.matchesPattern(v, k) || v.open:
			out[k] = x
		}
	}
	if s.opt.Conform {
		for _, name := range v.required {
			if _, ok := out[name]; ok {
				continue
			}
			var sub any = map[string]any{}
			if subs := v.props[name]; len(subs) > 0 {
				sub = subs[0]
			}
			if g, ok := s.gen.instance(sub, false); ok {
				out[name] = g
			}
		}
	}
	return out
}

func (s *shaper) shapeArray(node any, val []any, depth int) any {
	elem, ok := s.elements(node)
	if !ok {
		return val
	}
	out := make([]any, len(val))
	for i, x := range val {
		if sub := elem(i); sub != nil {
			out[i] = s.shape(sub, x, depth+1)
		} else {
			out[i] = x
		}
	}
	return out
}

// elements returns, for an array schema, the subschema of each element
// (nil: none): "prefixItems" then "items", or the draft-07 tuple "items"
// then "additionalItems". ok is false when node is not a schema object.
func (s *shaper) elements(node any) (elem func(i int) any, ok bool) {
	n, ok := s.r.deref(node)
	m, isObj := n.(map[string]any)
	if !ok || !isObj {
		return nil, false
	}
	prefix, _ := m["prefixItems"].([]any)
	items := m["items"]
	if list, ok := items.([]any); ok { // draft-07 tuple form
		prefix, items = list, m["additionalItems"]
	}
	return func(i int) any {
		if i < len(prefix) {
			return prefix[i]
		}
		return items
	}, true
}

// unknown reports the JSON pointer of the first member of value (in key
// order, depth first) that node does not define, by Shape's rule: a member
// Shape would drop. ok is false when there is none.
func (s *shaper) unknown(node, value any) (ptr string, ok bool) {
	return s.unknownAt(node, value, "", 0)
}

func (s *shaper) unknownAt(node, value any, ptr string, depth int) (string, bool) {
	if depth > s.l.MaxDepth {
		return "", false
	}
	switch val := value.(type) {
	case map[string]any:
		v := s.view(node)
		if !v.describes {
			return "", false
		}
		for _, k := range sortedKeys(val) {
			p := ptr + "/" + escapePointer(k)
			switch subs := v.props[k]; {
			case len(subs) > 0:
				if u, ok := s.unknownAt(subs[0], val[k], p, depth+1); ok {
					return u, true
				}
			case s.matchesPattern(v, k) || v.open || slices.Contains(v.required, k):
				// A member the schema requires is one it defines, even
				// without a property schema for it.
			default:
				return p, true
			}
		}
	case []any:
		elem, ok := s.elements(node)
		if !ok {
			return "", false
		}
		for i, x := range val {
			if sub := elem(i); sub != nil {
				if u, ok := s.unknownAt(sub, x, ptr+"/"+strconv.Itoa(i), depth+1); ok {
					return u, true
				}
			}
		}
	}
	return "", false
}

// escapePointer escapes a member name for a JSON pointer (RFC 6901).
func escapePointer(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}

// fits reports whether a value passes the type, enum and const keywords of
// a property schema (the checks Conform repairs).
func (s *shaper) fits(node, value any) bool {
	n, ok := s.r.deref(node)
	m, isObj := n.(map[string]any)
	if !ok || !isObj {
		return true
	}
	if !typeAllows(types(m), value) {
		return false
	}
	if enum, ok := m["enum"].([]any); ok && !slices.ContainsFunc(enum, func(e any) bool { return sameJSON(e, value) }) {
		return false
	}
	if c, ok := m["const"]; ok && !sameJSON(c, value) {
		return false
	}
	return true
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

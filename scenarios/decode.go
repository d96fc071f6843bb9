package scenarios

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/sim"
)

// maxAliasExpansion bounds how many nodes alias and merge-key expansion may
// add to a document, against "billion laughs" documents whose aliases
// expand exponentially.
const maxAliasExpansion = 100000

// decoder turns YAML nodes into Go values strictly: unknown keys, repeated
// keys, wrong types and non-finite numbers are errors located by line and
// field path. It records the line each field path was set from, so that
// later validation errors can point at the right line.
type decoder struct {
	file string
	// lines maps a field path to the line of the value that set it.
	lines map[string]int
	// visits counts nodes visited, aliases expanded; limit bounds it.
	visits, limit int
	// aliasLine is the line of the outermost alias being expanded (errors
	// inside an alias point at its use), 0 outside aliases.
	aliasLine int
	// reg resolves component names; nil: the engine's built-ins, with
	// search modes checked when the engine is built.
	reg *sim.Registry
	// settings are the strategy keys the file writes, by strategy name.
	settings map[string][]setting
	// recommended are the strategies' recommended_for records, by name.
	recommended map[string]RecommendedFor
	// modelName is the scenario's model's name (decoded before the
	// strategies): a recommended_for model of no preset must be it.
	modelName string
}

func newDecoder(file string, root *yaml.Node, reg *sim.Registry) *decoder {
	return &decoder{file: file, lines: map[string]int{}, limit: countNodes(root) + maxAliasExpansion, reg: reg}
}

// countNodes counts the nodes of a document without following aliases.
func countNodes(n *yaml.Node) int {
	if n == nil {
		return 0
	}
	c := 1
	if n.Kind != yaml.AliasNode {
		for _, k := range n.Content {
			c += countNodes(k)
		}
	}
	return c
}

func (d *decoder) lineOf(n *yaml.Node) int {
	if d.aliasLine > 0 {
		return d.aliasLine
	}
	return n.Line
}

func (d *decoder) errAt(n *yaml.Node, field, format string, args ...any) *Error {
	line := 0
	if n != nil {
		line = d.lineOf(n)
	}
	return &Error{File: d.file, Line: line, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// visit counts one node against the expansion bound.
func (d *decoder) visit(n *yaml.Node, field string) error {
	d.visits++
	if d.visits > d.limit {
		return d.errAt(n, field, "alias expansion exceeds %d nodes (a YAML alias bomb?)", maxAliasExpansion)
	}
	return nil
}

// deref follows an alias, counting the expansion. It returns the node to
// decode and a function restoring the alias context.
func (d *decoder) deref(n *yaml.Node, field string) (*yaml.Node, func(), error) {
	if err := d.visit(n, field); err != nil {
		return nil, nil, err
	}
	if n.Kind != yaml.AliasNode {
		return n, func() {}, nil
	}
	if n.Alias == nil {
		return nil, nil, d.errAt(n, field, "alias to nothing")
	}
	saved := d.aliasLine
	if saved == 0 {
		d.aliasLine = n.Line
	}
	if n.Alias.Kind == yaml.AliasNode {
		return nil, nil, d.errAt(n, field, "alias to an alias")
	}
	return n.Alias, func() { d.aliasLine = saved }, nil
}

// pair is one key of a mapping after merge keys are resolved.
type pair struct {
	key string
	k   *yaml.Node
	v   *yaml.Node
	// line is where the value is written (the merge's line for merged keys).
	line int
}

func isMerge(k *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && k.Value == "<<" && k.ShortTag() == "!!merge"
}

// pairs returns a mapping's keys in document order. Merge keys ("<<: *a")
// follow the YAML merge rule: explicit keys win, and among merged
// mappings the earlier wins. Repeated explicit keys are an error.
func (d *decoder) pairs(n *yaml.Node, field string) ([]pair, error) {
	if n.Kind != yaml.MappingNode {
		return nil, d.errAt(n, field, "want a mapping, got %s", describe(n))
	}
	var explicit, merged []pair
	seen := map[string]int{}
	mergedSeen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if err := d.visit(k, field); err != nil {
			return nil, err
		}
		if isMerge(k) {
			ps, err := d.mergeSources(v, field)
			if err != nil {
				return nil, err
			}
			for _, p := range ps {
				if !mergedSeen[p.key] {
					mergedSeen[p.key] = true
					merged = append(merged, p)
				}
			}
			continue
		}
		if k.Kind != yaml.ScalarNode || (k.ShortTag() != "!!str" && k.ShortTag() != "!!int" && k.ShortTag() != "!!float" && k.ShortTag() != "!!bool") {
			return nil, d.errAt(k, field, "want a plain key, got %s", describe(k))
		}
		if first, dup := seen[k.Value]; dup {
			return nil, d.errAt(k, join(field, k.Value), "key repeated (first at line %d)", first)
		}
		seen[k.Value] = d.lineOf(k)
		explicit = append(explicit, pair{key: k.Value, k: k, v: v, line: d.lineOf(v)})
	}
	out := make([]pair, 0, len(merged)+len(explicit))
	for _, p := range merged {
		if _, ok := seen[p.key]; !ok {
			out = append(out, p)
		}
	}
	return append(out, explicit...), nil
}

// mergeSources resolves the value of a merge key: a mapping, an alias to
// one, or a list of those.
func (d *decoder) mergeSources(v *yaml.Node, field string) ([]pair, error) {
	n, restore, err := d.deref(v, field)
	if err != nil {
		return nil, err
	}
	defer restore()
	switch n.Kind {
	case yaml.MappingNode:
		ps, err := d.pairs(n, field)
		if err != nil {
			return nil, err
		}
		for i := range ps {
			ps[i].line = d.lineOf(v)
		}
		return ps, nil
	case yaml.SequenceNode:
		var out []pair
		seen := map[string]bool{}
		for _, item := range n.Content {
			m, restoreItem, err := d.deref(item, field)
			if err != nil {
				return nil, err
			}
			if m.Kind != yaml.MappingNode {
				restoreItem()
				return nil, d.errAt(item, field, "a merge key (<<) takes mappings, got %s", describe(m))
			}
			ps, err := d.pairs(m, field)
			restoreItem()
			if err != nil {
				return nil, err
			}
			for _, p := range ps {
				if !seen[p.key] {
					seen[p.key] = true
					p.line = d.lineOf(v)
					out = append(out, p)
				}
			}
		}
		return out, nil
	}
	return nil, d.errAt(v, field, "a merge key (<<) takes a mapping or a list of mappings, got %s", describe(n))
}

// decode decodes n onto v, which keeps the fields n does not name.
func (d *decoder) decode(n *yaml.Node, v reflect.Value, field string) error {
	n, restore, err := d.deref(n, field)
	if err != nil {
		return err
	}
	defer restore()
	d.lines[field] = d.lineOf(n)
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		return d.decode(n, v.Elem(), field)
	case reflect.Struct:
		ps, err := d.pairs(n, field)
		if err != nil {
			return err
		}
		return d.fields(ps, v, field, nil)
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			return d.errAt(n, field, "want a list, got %s", describe(n))
		}
		s := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
		for i, item := range n.Content {
			if err := d.decode(item, s.Index(i), fmt.Sprintf("%s[%d]", field, i)); err != nil {
				return err
			}
		}
		v.Set(s)
		return nil
	case reflect.Map:
		ps, err := d.pairs(n, field)
		if err != nil {
			return err
		}
		if v.IsNil() {
			v.Set(reflect.MakeMap(v.Type()))
		}
		for _, p := range ps {
			elem := reflect.New(v.Type().Elem()).Elem()
			if old := v.MapIndex(reflect.ValueOf(p.key)); old.IsValid() {
				elem.Set(old)
			}
			if err := d.decode(p.v, elem, join(field, p.key)); err != nil {
				return err
			}
			v.SetMapIndex(reflect.ValueOf(p.key), elem)
		}
		return nil
	}
	return d.scalar(n, v, field)
}

// fields decodes the pairs onto the struct v by yaml tag; keys in skip are
// ignored (the caller handles them).
func (d *decoder) fields(ps []pair, v reflect.Value, field string, skip map[string]bool) error {
	for _, p := range ps {
		if skip[p.key] {
			continue
		}
		f, ok := fieldByTag(v, p.key)
		if !ok {
			known := knownKeys(v.Type(), skip)
			return d.errAt(p.k, join(field, p.key), "%s", catalog.NearName(p.key, known).WithHint(fmt.Sprintf("unknown key (want %s)", strings.Join(known, "|"))))
		}
		if err := d.decode(p.v, f, join(field, p.key)); err != nil {
			return err
		}
	}
	return nil
}

func (d *decoder) scalar(n *yaml.Node, v reflect.Value, field string) error {
	if n.Kind != yaml.ScalarNode {
		return d.errAt(n, field, "want %s, got %s", want(v.Kind()), describe(n))
	}
	tag := n.ShortTag()
	switch v.Kind() {
	case reflect.String:
		switch tag {
		case "!!str", "!!timestamp":
		case "!!null":
			return d.errAt(n, field, "want a string, got %s", describe(n))
		default:
			return d.errAt(n, field, "want a string, got %s (quote it)", describe(n))
		}
		v.SetString(n.Value)
		return nil
	case reflect.Bool:
		var b bool
		if tag != "!!bool" || n.Decode(&b) != nil {
			return d.errAt(n, field, "want true or false, got %s", describe(n))
		}
		v.SetBool(b)
		return nil
	case reflect.Int, reflect.Int64:
		var i int64
		if tag != "!!int" || n.Decode(&i) != nil || v.OverflowInt(i) {
			return d.errAt(n, field, "want an integer, got %s", describe(n))
		}
		v.SetInt(i)
		return nil
	case reflect.Float64:
		var f float64
		if tag == "!!str" && n.Style == 0 && isOutOfRange(n.Value) {
			return d.errAt(n, field, "want a finite number, got %s (out of range)", n.Value)
		}
		if (tag != "!!int" && tag != "!!float") || n.Decode(&f) != nil {
			return d.errAt(n, field, "want a number, got %s", describe(n))
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return d.errAt(n, field, "want a finite number, got %s", n.Value)
		}
		v.SetFloat(f)
		return nil
	}
	return d.errAt(n, field, "cannot decode into %s", v.Type())
}

// isOutOfRange reports whether s is a decimal number too large for a
// float64 (YAML then resolves it as a string, such as 1e400).
func isOutOfRange(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return errors.Is(err, strconv.ErrRange)
}

func want(k reflect.Kind) string {
	switch k {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int64:
		return "an integer"
	case reflect.Float64:
		return "a number"
	}
	return k.String()
}

// describe names what a node holds, for error messages.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	case yaml.DocumentNode:
		return "a document"
	}
	v := n.Value
	if len(v) > 40 {
		v = v[:40] + "…"
	}
	switch n.ShortTag() {
	case "!!null":
		return "nothing (null)"
	case "!!bool":
		return "boolean " + v
	case "!!int":
		return "integer " + v
	case "!!float":
		return "number " + v
	case "!!timestamp":
		return "timestamp " + v
	}
	return fmt.Sprintf("string %q", v)
}

func join(field, key string) string {
	if field == "" {
		return key
	}
	return field + "." + key
}

// tagName returns the yaml key of a struct field ("" when not decodable).
func tagName(f reflect.StructField) string {
	if !f.IsExported() {
		return ""
	}
	name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	if name == "-" {
		return ""
	}
	return name
}

func fieldByTag(v reflect.Value, key string) (reflect.Value, bool) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		if name := tagName(t.Field(i)); name != "" && name == key {
			return v.Field(i), true
		}
	}
	return reflect.Value{}, false
}

func knownKeys(t reflect.Type, skip map[string]bool) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		if name := tagName(t.Field(i)); name != "" && !skip[name] {
			out = append(out, name)
		}
	}
	return out
}

// fieldByPath resolves a dotted yaml path ("warm.key") inside the struct v.
func fieldByPath(v reflect.Value, path string) (reflect.Value, error) {
	for _, part := range strings.Split(path, ".") {
		if v.Kind() != reflect.Struct {
			return reflect.Value{}, fmt.Errorf("%q is not a field with sub-keys", part)
		}
		f, ok := fieldByTag(v, part)
		if !ok {
			known := knownKeys(v.Type(), nil)
			return reflect.Value{}, errors.New(catalog.NearName(part, known).WithHint(fmt.Sprintf("unknown key %q (want %s)", part, strings.Join(known, "|"))))
		}
		v = f
	}
	return v, nil
}

package catalog

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// walker collects the changes between two tool definitions.
type walker struct {
	changes []Change
}

func (w *walker) add(path, kind string, class Class, detail string) {
	w.changes = append(w.changes, Change{Path: path, Kind: kind, Class: class, Detail: detail})
}

// equal reports whether two values (nil = absent) have the same canonical form.
func equal(a, b *value) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.digest() == b.digest()
}

// tool compares the top-level members of two tool objects.
func (w *walker) tool(a, b *value) {
	for _, key := range unionKeys(a, b) {
		av, bv := a.get(key), b.get(key)
		if equal(av, bv) {
			continue
		}
		switch {
		case key == "description":
			w.add("description", "description-changed", ClassDescriptionOnly, sizeDetail(av, bv))
		case key == "inputSchema":
			w.schema("inputSchema", orEmpty(av), orEmpty(bv))
		case key == "name":
			w.add("name", "name-changed", ClassBreaking, "")
		default:
			// annotations, title, outputSchema, _meta, icons, execution and any
			// other member: none of it is in the wire forms a model sees.
			w.metadata(key, av, bv)
		}
	}
}

// metadata reports differences in metadata members down to the first
// differing leaf of nested objects.
func (w *walker) metadata(path string, a, b *value) {
	switch {
	case a == nil:
		w.add(path, "metadata-added", ClassMetadataOnly, "")
	case b == nil:
		w.add(path, "metadata-removed", ClassMetadataOnly, "")
	case a.kind == kObject && b.kind == kObject:
		for _, key := range unionKeys(a, b) {
			if av, bv := a.get(key), b.get(key); !equal(av, bv) {
				w.metadata(joinKey(path, key), av, bv)
			}
		}
	default:
		w.add(path, "metadata-changed", ClassMetadataOnly, leafDetail(a, b))
	}
}

func orEmpty(v *value) *value {
	if v == nil {
		return &value{kind: kObject}
	}
	return v
}

// Keyword groups of JSON Schema.
var (
	// annotationKeywords never change which instances validate.
	annotationKeywords = setOf("title", "description", "default", "examples", "$schema", "$id",
		"$comment", "$anchor", "deprecated", "readOnly", "writeOnly", "markdownDescription",
		"contentMediaType", "contentEncoding", "contentSchema")
	// lowerBounds tighten when raised; upperBounds tighten when lowered.
	lowerBounds = setOf("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains")
	upperBounds = setOf("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains")
	// assertions tighten when added or changed and loosen when removed.
	assertions = setOf("pattern", "format", "multipleOf", "not", "if", "then", "else",
		"dependentRequired", "dependentSchemas", "dependencies", "propertyNames", "contains",
		"unevaluatedProperties", "unevaluatedItems", "additionalItems", "$ref", "$dynamicRef")
)

func setOf(keys ...string) map[string]bool {
	m := make(map[string]bool, len(keys))
	for _, k := range keys {
		m[k] = true
	}
	return m
}

// schema compares two JSON Schemas found at path.
func (w *walker) schema(path string, a, b *value) {
	if equal(a, b) {
		return
	}
	if a.kind != kObject || b.kind != kObject {
		w.nonObjectSchema(path, a, b)
		return
	}
	before := len(w.changes)
	swapped := constEnumSwap(a, b) || constEnumSwap(b, a)
	if swapped {
		w.add(joinKey(path, "const"), "const-enum-swapped", ClassSchemaCompatible, "")
	}
	for _, key := range unionKeys(a, b) {
		av, bv := a.get(key), b.get(key)
		if equal(av, bv) || (swapped && (key == "const" || key == "enum")) {
			continue
		}
		p := joinKey(path, key)
		switch {
		case key == "type":
			w.typeChange(p, av, bv)
		case key == "properties", key == "patternProperties":
			w.properties(p, orEmpty(av), orEmpty(bv))
		case key == "$defs", key == "definitions":
			w.definitions(p, orEmpty(av), orEmpty(bv))
		case key == "required":
			w.required(p, av, bv)
		case key == "additionalProperties":
			w.additionalProperties(p, av, bv)
		case key == "enum":
			w.enum(p, av, bv)
		case key == "const":
			w.addRemove(p, av, bv, "const")
		case key == "items", key == "prefixItems":
			w.items(p, av, bv)
		case key == "anyOf", key == "oneOf":
			w.alternatives(p, av, bv, true)
		case key == "allOf":
			w.alternatives(p, av, bv, false)
		case key == "uniqueItems":
			w.uniqueItems(p, av, bv)
		case lowerBounds[key], upperBounds[key]:
			w.bound(p, key, av, bv)
		case assertions[key]:
			w.addRemove(p, av, bv, strings.TrimPrefix(key, "$"))
		case key == "description":
			w.add(p, "description-changed", ClassSchemaCompatible, sizeDetail(av, bv))
		case annotationKeywords[key]:
			w.add(p, "annotation-changed", ClassSchemaCompatible, "")
		default:
			// Unknown keywords are ignored by validators: annotation-like.
			w.add(p, "annotation-changed", ClassSchemaCompatible, "")
		}
	}
	if len(w.changes) == before {
		// The canonical forms differ but no keyword rule fired: only array
		// order (e.g. of "required") or number spelling changed.
		w.add(path, "reordered", ClassSchemaCompatible, "")
	}
}

// constEnumSwap reports a single-value enum in x replaced by an equal const
// in y (or the reverse when called with the arguments swapped): the same
// constraint spelled two ways.
func constEnumSwap(x, y *value) bool {
	e, c := x.get("enum"), y.get("const")
	if e == nil || c == nil || x.get("const") != nil || y.get("enum") != nil {
		return false
	}
	return e.kind == kArray && len(e.items) == 1 && equal(e.items[0], c)
}

// nonObjectSchema handles boolean schemas and mismatched shapes.
func (w *walker) nonObjectSchema(path string, a, b *value) {
	switch {
	case isOpen(a) && isFalse(b):
		w.add(path, "schema-closed", ClassBreaking, "")
	case isFalse(a):
		w.add(path, "schema-opened", ClassSchemaCompatible, "")
	case isOpen(b):
		w.add(path, "schema-opened", ClassSchemaCompatible, "")
	default:
		w.add(path, "schema-replaced", ClassBreaking, "")
	}
}

// isOpen reports a schema that accepts everything: absent, true or {}.
func isOpen(v *value) bool {
	return v == nil || (v.kind == kBool && v.boolean) || (v.kind == kObject && len(v.members) == 0)
}

func isFalse(v *value) bool { return v != nil && v.kind == kBool && !v.boolean }

// typeSet returns the JSON types a "type" keyword allows (nil = any).
func typeSet(v *value) (map[string]bool, bool) {
	if v == nil {
		return nil, true
	}
	switch v.kind {
	case kString:
		return map[string]bool{v.text: true}, true
	case kArray:
		s := map[string]bool{}
		for _, it := range v.items {
			if it.kind != kString {
				return nil, false
			}
			s[it.text] = true
		}
		return s, true
	}
	return nil, false
}

// allows reports whether type set s admits type t ("number" admits "integer").
func allows(s map[string]bool, t string) bool {
	return s == nil || s[t] || (t == "integer" && s["number"])
}

func (w *walker) typeChange(path string, a, b *value) {
	as, aok := typeSet(a)
	bs, bok := typeSet(b)
	detail := leafDetail(a, b)
	if !aok || !bok {
		w.add(path, "type-changed", ClassBreaking, detail)
		return
	}
	switch {
	case a == nil:
		w.add(path, "type-added", ClassBreaking, detail)
	case b == nil:
		w.add(path, "type-removed", ClassSchemaCompatible, detail)
	default:
		widened := true
		for t := range as {
			if !allows(bs, t) {
				widened = false
			}
		}
		if widened {
			w.add(path, "type-widened", ClassSchemaCompatible, detail)
		} else {
			w.add(path, "type-changed", ClassBreaking, detail)
		}
	}
}

// properties compares "properties" (or "patternProperties") maps.
// A removed property and an added one with the same "type" are reported as
// a rename (the added candidate with the nearest name, by edit distance):
// a heuristic, since JSON Schema has no notion of renaming. Either way the
// change is breaking.
func (w *walker) properties(path string, a, b *value) {
	if a.kind != kObject || b.kind != kObject {
		w.add(path, "keyword-changed", ClassBreaking, "")
		return
	}
	var removed, added []string
	for _, key := range unionKeys(a, b) {
		av, bv := a.get(key), b.get(key)
		switch {
		case bv == nil:
			removed = append(removed, key)
		case av == nil:
			added = append(added, key)
		default:
			w.schema(joinKey(path, key), av, bv)
		}
	}
	paired := map[string]bool{}
	for _, r := range removed {
		rt := a.get(r).get("type")
		j, best := -1, 0
		for k, n := range added {
			if paired[n] || !equal(rt, b.get(n).get("type")) {
				continue
			}
			if d := editDistance(r, n); j < 0 || d < best {
				j, best = k, d
			}
		}
		if j < 0 {
			w.add(joinKey(path, r), "property-removed", ClassBreaking, "")
			continue
		}
		paired[added[j]] = true
		w.add(joinKey(path, r), "property-renamed", ClassBreaking, "to "+added[j])
	}
	for _, n := range added {
		if !paired[n] {
			w.add(joinKey(path, n), "property-added", ClassSchemaCompatible, "")
		}
	}
}

// definitions compares "$defs" / "definitions": shared subschemas, compared
// member by member; a definition appearing or disappearing is reported but
// judged by the $ref changes that use it.
func (w *walker) definitions(path string, a, b *value) {
	if a.kind != kObject || b.kind != kObject {
		w.add(path, "keyword-changed", ClassSchemaCompatible, "")
		return
	}
	for _, key := range unionKeys(a, b) {
		av, bv := a.get(key), b.get(key)
		switch {
		case bv == nil:
			w.add(joinKey(path, key), "definition-removed", ClassSchemaCompatible, "")
		case av == nil:
			w.add(joinKey(path, key), "definition-added", ClassSchemaCompatible, "")
		default:
			w.schema(joinKey(path, key), av, bv)
		}
	}
}

func stringSet(v *value) ([]string, bool) {
	if v == nil {
		return nil, true
	}
	if v.kind != kArray {
		return nil, false
	}
	out := make([]string, 0, len(v.items))
	for _, it := range v.items {
		if it.kind != kString {
			return nil, false
		}
		out = append(out, it.text)
	}
	return out, true
}

func (w *walker) required(path string, a, b *value) {
	as, aok := stringSet(a)
	bs, bok := stringSet(b)
	if !aok || !bok {
		w.add(path, "keyword-changed", ClassBreaking, "")
		return
	}
	found := false
	for _, n := range sortedUnique(bs) {
		if !slices.Contains(as, n) {
			w.add(path, "required-added", ClassBreaking, n)
			found = true
		}
	}
	for _, n := range sortedUnique(as) {
		if !slices.Contains(bs, n) {
			w.add(path, "required-removed", ClassSchemaCompatible, n)
			found = true
		}
	}
	if !found {
		w.add(path, "reordered", ClassSchemaCompatible, "")
	}
}

func sortedUnique(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return slices.Compact(s)
}

func (w *walker) additionalProperties(path string, a, b *value) {
	switch {
	case isFalse(b) && !isFalse(a):
		w.add(path, "additional-properties-closed", ClassBreaking, "")
	case isFalse(a) || isOpen(b):
		w.add(path, "additional-properties-opened", ClassSchemaCompatible, "")
	case isOpen(a):
		w.add(path, "additional-properties-narrowed", ClassBreaking, "")
	default:
		w.schema(path, a, b)
	}
}

func (w *walker) enum(path string, a, b *value) {
	if a == nil {
		w.add(path, "enum-added", ClassBreaking, fmt.Sprintf("%d values", len(b.items)))
		return
	}
	if b == nil {
		w.add(path, "enum-removed", ClassSchemaCompatible, "")
		return
	}
	if a.kind != kArray || b.kind != kArray {
		w.add(path, "keyword-changed", ClassBreaking, "")
		return
	}
	bset := map[[32]byte]bool{}
	for _, it := range b.items {
		bset[it.digest()] = true
	}
	aset := map[[32]byte]bool{}
	var gone, extra []string
	for _, it := range a.items {
		aset[it.digest()] = true
		if !bset[it.digest()] {
			gone = append(gone, shortValue(it))
		}
	}
	for _, it := range b.items {
		if !aset[it.digest()] {
			extra = append(extra, shortValue(it))
		}
	}
	detail := setDetail(gone, extra)
	switch {
	case len(gone) > 0:
		w.add(path, "enum-narrowed", ClassBreaking, detail)
	case len(extra) > 0:
		w.add(path, "enum-widened", ClassSchemaCompatible, detail)
	default:
		w.add(path, "reordered", ClassSchemaCompatible, "")
	}
}

// addRemove handles a keyword that constrains when present: adding or
// changing it is breaking, removing it compatible.
func (w *walker) addRemove(path string, a, b *value, name string) {
	switch {
	case a == nil:
		w.add(path, name+"-added", ClassBreaking, shortValue(b))
	case b == nil:
		w.add(path, name+"-removed", ClassSchemaCompatible, shortValue(a))
	default:
		w.add(path, name+"-changed", ClassBreaking, leafDetail(a, b))
	}
}

func (w *walker) uniqueItems(path string, a, b *value) {
	at := a != nil && a.kind == kBool && a.boolean
	bt := b != nil && b.kind == kBool && b.boolean
	switch {
	case bt && !at:
		w.add(path, "constraint-tightened", ClassBreaking, leafDetail(a, b))
	case at && !bt:
		w.add(path, "constraint-loosened", ClassSchemaCompatible, leafDetail(a, b))
	default:
		w.add(path, "annotation-changed", ClassSchemaCompatible, "")
	}
}

// bound compares a numeric bound; draft-4 boolean exclusiveMinimum /
// exclusiveMaximum tighten when turned on.
func (w *walker) bound(path, key string, a, b *value) {
	detail := leafDetail(a, b)
	if a == nil && isSafeIntegerBound(b) {
		w.add(path, "safe-integer-bound-added", ClassSchemaCompatible, detail)
		return
	}
	if b == nil && isSafeIntegerBound(a) {
		w.add(path, "safe-integer-bound-removed", ClassSchemaCompatible, detail)
		return
	}
	if a == nil {
		w.add(path, "constraint-tightened", ClassBreaking, detail)
		return
	}
	if b == nil {
		w.add(path, "constraint-loosened", ClassSchemaCompatible, detail)
		return
	}
	if a.kind == kBool && b.kind == kBool {
		if b.boolean {
			w.add(path, "constraint-tightened", ClassBreaking, detail)
		} else {
			w.add(path, "constraint-loosened", ClassSchemaCompatible, detail)
		}
		return
	}
	x, errA := number(a)
	y, errB := number(b)
	if errA != nil || errB != nil {
		w.add(path, "constraint-changed", ClassBreaking, detail)
		return
	}
	switch {
	case x == y:
		w.add(path, "reordered", ClassSchemaCompatible, detail)
	case (y > x) == lowerBounds[key]:
		w.add(path, "constraint-tightened", ClassBreaking, detail)
	default:
		w.add(path, "constraint-loosened", ClassSchemaCompatible, detail)
	}
}

// maxSafeInteger is 2^53-1, the bound some schema generators add to every
// integer; a bound at or beyond it excludes no value a model would send.
const maxSafeInteger = 9007199254740991

// isSafeIntegerBound reports a numeric bound with |value| >= 2^53-1.
func isSafeIntegerBound(v *value) bool {
	x, err := number(v)
	return err == nil && (x >= maxSafeInteger || x <= -maxSafeInteger)
}

func number(v *value) (float64, error) {
	if v.kind != kNumber {
		return 0, fmt.Errorf("not a number")
	}
	return strconv.ParseFloat(v.text, 64)
}

// items compares "items" / "prefixItems": a schema or a tuple of schemas.
func (w *walker) items(path string, a, b *value) {
	switch {
	case a == nil:
		w.add(path, "items-added", ClassBreaking, "")
	case b == nil:
		w.add(path, "items-removed", ClassSchemaCompatible, "")
	case a.kind == kArray && b.kind == kArray:
		n := max(len(a.items), len(b.items))
		for i := range n {
			switch {
			case i >= len(b.items):
				w.add(joinIndex(path, i), "item-removed", ClassBreaking, "")
			case i >= len(a.items):
				w.add(joinIndex(path, i), "item-added", ClassBreaking, "")
			default:
				w.schema(joinIndex(path, i), a.items[i], b.items[i])
			}
		}
	case a.kind == kArray || b.kind == kArray:
		w.add(path, "schema-replaced", ClassBreaking, "")
	default:
		w.schema(path, a, b)
	}
}

// alternatives compares anyOf / oneOf (union=true) or allOf (union=false).
// Best effort: branches identical on both sides are set aside; when the
// remaining counts are equal the branches are paired in order and compared
// as schemas; otherwise a branch only in the old list is removed and one
// only in the new list is added. For a union, removing a branch narrows
// (breaking) and adding one widens (compatible); for allOf it is the
// reverse.
func (w *walker) alternatives(path string, a, b *value, union bool) {
	if a == nil || b == nil || a.kind != kArray || b.kind != kArray {
		w.addRemoveBranches(path, a, b)
		return
	}
	type branch struct {
		i int
		v *value
	}
	var ra, rb []branch
	used := make([]bool, len(b.items))
	for i, av := range a.items {
		j := slices.IndexFunc(b.items, func(bv *value) bool { return equal(av, bv) })
		for j >= 0 && used[j] {
			k := slices.IndexFunc(b.items[j+1:], func(bv *value) bool { return equal(av, bv) })
			if k < 0 {
				j = -1
			} else {
				j += 1 + k
			}
		}
		if j < 0 {
			ra = append(ra, branch{i, av})
			continue
		}
		used[j] = true
	}
	for j, bv := range b.items {
		if !used[j] {
			rb = append(rb, branch{j, bv})
		}
	}
	if len(ra) == 0 && len(rb) == 0 {
		w.add(path, "reordered", ClassSchemaCompatible, "")
		return
	}
	if len(ra) == len(rb) {
		for k := range ra {
			w.schema(joinIndex(path, rb[k].i), ra[k].v, rb[k].v)
		}
		return
	}
	narrow, widen := ClassBreaking, ClassSchemaCompatible
	if !union {
		narrow, widen = widen, narrow
	}
	for _, x := range ra {
		w.add(joinIndex(path, x.i), "branch-removed", narrow, "")
	}
	for _, x := range rb {
		w.add(joinIndex(path, x.i), "branch-added", widen, "")
	}
}

func (w *walker) addRemoveBranches(path string, a, b *value) {
	switch {
	case a == nil:
		w.add(path, "keyword-added", ClassBreaking, "")
	case b == nil:
		w.add(path, "keyword-removed", ClassSchemaCompatible, "")
	default:
		w.add(path, "keyword-changed", ClassBreaking, "")
	}
}

// unionKeys returns the member keys of two objects, sorted.
func unionKeys(a, b *value) []string {
	var keys []string
	for _, v := range []*value{a, b} {
		if v == nil || v.kind != kObject {
			continue
		}
		for _, m := range v.members {
			keys = append(keys, m.key)
		}
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// maxDetailValue bounds a value quoted in a Detail.
const maxDetailValue = 40

// shortValue renders a short scalar or a size for anything longer.
func shortValue(v *value) string {
	if v == nil {
		return "absent"
	}
	c := v.canonical()
	if len(c) <= maxDetailValue && v.kind != kObject {
		return string(c)
	}
	return fmt.Sprintf("<%d bytes>", len(c))
}

func leafDetail(a, b *value) string { return shortValue(a) + " → " + shortValue(b) }

func sizeDetail(a, b *value) string {
	size := func(v *value) string {
		if v == nil {
			return "absent"
		}
		if v.kind == kString {
			return strconv.Itoa(len(v.text)) + " bytes"
		}
		return strconv.Itoa(len(v.canonical())) + " bytes"
	}
	return size(a) + " → " + size(b)
}

func setDetail(gone, extra []string) string {
	var parts []string
	if len(gone) > 0 {
		parts = append(parts, "-"+joinShort(gone))
	}
	if len(extra) > 0 {
		parts = append(parts, "+"+joinShort(extra))
	}
	return strings.Join(parts, " ")
}

func joinShort(vals []string) string {
	s := strings.Join(vals, ",")
	if len(s) > 3*maxDetailValue {
		return fmt.Sprintf("<%d values>", len(vals))
	}
	return "[" + s + "]"
}

// editDistance is the Levenshtein distance between two strings (bytes).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

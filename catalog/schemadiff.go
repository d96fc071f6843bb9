package catalog

import "strings"

// walker collects the changes between two tool definitions. roots are the
// two input schemas, against which local "$ref"s resolve; refs holds the
// reference pairs being expanded, so that recursive schemas end.
type walker struct {
	changes []Change
	roots   [2]*value
	refs    map[[2]string]bool
	// used holds usedDefs of each root, computed when first needed.
	used [2]map[string]bool
	// changed holds changedDefs of the roots; reaches memoises, per
	// subschema, whether it refers to one (see same).
	changed map[string]bool
	reaches map[*value]bool
	// budget counts the schema comparisons left for this tool, shared by
	// every trial walker: unions nested in unions and references multiply
	// them, so once it is spent union and viaRefs step aside and the
	// schemas are compared keyword by keyword (linear in their size).
	budget *int
	// nest counts the references and unions being expanded around this
	// comparison; past maxNest they are compared keyword by keyword.
	nest int
	// renamed lists the property renames found, with the path of the
	// "properties" keyword holding them (for PropertyRenames).
	renamed []renameAt
}

// maxNest bounds how many references and unions one comparison expands
// inside one another (a recursive "$ref":"#" would go on forever).
const maxNest = 16

// maxSteps bounds the schema comparisons of one tool's diff; real tools
// need a few hundred.
const maxSteps = 20000

// spent reports whether the comparison budget is used up or the expansion
// is nested too deeply.
func (w *walker) spent() bool { return *w.budget <= 0 || w.nest >= maxNest }

func (w *walker) add(path string, k Kind, detail string) {
	w.changes = append(w.changes, Change{Path: path, Kind: k, Class: ClassOf(k), Detail: detail})
}

// trial compares a and b at path with a fresh walker that shares w's roots
// and expansions, and returns the changes without recording them.
func (w *walker) trial(path string, a, b *value) []Change {
	t := &walker{roots: w.roots, refs: w.refs, used: w.used, changed: w.changed, reaches: w.reaches, budget: w.budget, nest: w.nest + 1}
	t.schema(path, a, b)
	return t.changes
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
			w.add("description", KindDescriptionChanged, sizeDetail(av, bv))
		case key == "inputSchema":
			as, bs := readSchema(av), readSchema(bv)
			if equal(as, bs) {
				// Absent, null and {"type":"object"}: one schema as read.
				w.add("inputSchema", KindReordered, `read as {"type":"object"}`)
				continue
			}
			w.roots = [2]*value{as, bs}
			w.changed, w.reaches = changedDefs(w.roots), map[*value]bool{}
			w.schema("inputSchema", as, bs)
		case key == "name":
			w.add("name", KindNameChanged, "")
		default:
			// annotations, title, outputSchema, _meta, icons, execution and any
			// other member: none of it is in the wire forms a model sees.
			w.metadata(key, av, bv)
		}
	}
}

// readSchema returns a tool's input schema as read: a missing or null one is
// {"type":"object"} (the wire forms send that; Parse warns about it).
func readSchema(v *value) *value {
	if v == nil || v.kind == kNull {
		return objectSchema()
	}
	return v
}

// objectSchema returns a new {"type":"object"} (new: a value caches its
// digest, so one shared between goroutines would be written concurrently).
func objectSchema() *value {
	return &value{kind: kObject, members: []member{{key: "type", val: &value{kind: kString, text: "object"}}}}
}

// metadata reports differences in metadata members down to the first
// differing leaf of nested objects.
func (w *walker) metadata(path string, a, b *value) {
	switch {
	case a == nil:
		w.add(path, KindMetadataAdded, "")
	case b == nil:
		w.add(path, KindMetadataRemoved, "")
	case a.kind == kObject && b.kind == kObject:
		for _, key := range unionKeys(a, b) {
			if av, bv := a.get(key), b.get(key); !equal(av, bv) {
				w.metadata(joinKey(path, key), av, bv)
			}
		}
	default:
		w.add(path, KindMetadataChanged, leafDetail(a, b))
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
		"unevaluatedProperties", "unevaluatedItems", "additionalItems", "$dynamicRef")
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
	if w.same(a, b) {
		return
	}
	*w.budget--
	if a.kind != kObject || b.kind != kObject {
		w.nonObjectSchema(path, a, b)
		return
	}
	if w.viaRefs(path, a, b) || w.union(path, a, b) {
		return
	}
	before := len(w.changes)
	swapped := constEnumSwap(a, b) || constEnumSwap(b, a)
	if swapped {
		w.add(joinKey(path, "const"), KindConstEnumSwap, "")
	}
	for _, key := range unionKeys(a, b) {
		av, bv := a.get(key), b.get(key)
		if w.same(av, bv) || (swapped && (key == "const" || key == "enum")) {
			continue
		}
		w.keyword(path, key, av, bv)
	}
	if len(w.changes) == before {
		// The canonical forms differ but no keyword rule fired: only array
		// order (e.g. of "required") or number spelling changed.
		w.add(path, KindReordered, "")
	}
}

// keyword compares one keyword of two object schemas at path.
func (w *walker) keyword(path, key string, av, bv *value) {
	p := joinKey(path, key)
	switch {
	case key == "type":
		w.typeChange(p, av, bv, path == "inputSchema")
	case key == "properties", key == "patternProperties":
		w.properties(p, orEmpty(av), orEmpty(bv))
	case key == "$defs", key == "definitions":
		w.definitions(p, key, orEmpty(av), orEmpty(bv))
	case key == "required":
		w.required(p, av, bv)
	case key == "additionalProperties":
		w.additionalProperties(p, av, bv)
	case key == "enum":
		w.enum(p, av, bv)
	case key == "const":
		w.constChange(p, av, bv)
	case key == "items", key == "prefixItems":
		w.items(p, av, bv)
	case key == "anyOf", key == "oneOf":
		w.branches(p, av, bv, true)
	case key == "allOf":
		w.branches(p, av, bv, false)
	case key == "$ref":
		w.add(p, KindRefChanged, leafDetail(av, bv))
	case key == "uniqueItems":
		w.uniqueItems(p, av, bv)
	case lowerBounds[key], upperBounds[key]:
		w.bound(p, key, av, bv)
	case assertions[key]:
		w.assertion(p, av, bv)
	case key == "description":
		w.add(p, KindSchemaDescriptionChanged, sizeDetail(av, bv))
	default:
		// Annotations, and unknown keywords, which validators ignore.
		w.add(p, KindAnnotationChanged, "")
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
		w.add(path, KindSchemaClosed, "")
	case isFalse(a):
		w.add(path, KindSchemaOpened, "")
	case isOpen(b):
		w.add(path, KindSchemaOpened, "")
	default:
		w.add(path, KindSchemaReplaced, "")
	}
}

// isOpen reports a schema that accepts everything: absent, true or {}.
func isOpen(v *value) bool {
	return v == nil || (v.kind == kBool && v.boolean) || (v.kind == kObject && len(v.members) == 0)
}

func isFalse(v *value) bool { return v != nil && v.kind == kBool && !v.boolean }

// isSchemaPath reports whether a change path lies in the input schema.
func isSchemaPath(p string) bool {
	return p == "inputSchema" || strings.HasPrefix(p, "inputSchema.") || strings.HasPrefix(p, "inputSchema[")
}

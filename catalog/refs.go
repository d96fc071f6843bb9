package catalog

import (
	"slices"
	"strconv"
	"strings"
)

// maxRefChain bounds how many "$ref"s resolve lets follow one another.
const maxRefChain = 32

// resolve returns schema v with a local "$ref" ("#", "#/$defs/x", any JSON
// pointer into the input schema of side 0 = old, 1 = new) replaced by its
// target, the ref's sibling keywords merged in; v itself when it has no
// such reference, when the target is missing, or when a sibling conflicts
// with the target (a keyword other than an annotation on both, with
// different values).
func (w *walker) resolve(v *value, side int) *value {
	for range maxRefChain {
		ref := v.get("$ref")
		if ref == nil || ref.kind != kString || !strings.HasPrefix(ref.text, "#") {
			return v
		}
		target := pointer(w.roots[side], ref.text[1:])
		if target == nil {
			return v
		}
		merged, ok := mergeSiblings(target, v, "$ref")
		if !ok {
			return v
		}
		v = merged
	}
	return v
}

// mergeSiblings returns schema target with the members of holder other
// than skip added (an annotation of holder wins over target's); ok is false
// when they conflict.
func mergeSiblings(target, holder *value, skip ...string) (*value, bool) {
	var extra []member
	for _, m := range holder.members {
		if !slices.Contains(skip, m.key) {
			extra = append(extra, m)
		}
	}
	if len(extra) == 0 {
		return target, true
	}
	switch {
	case target.kind == kBool && target.boolean:
		return &value{kind: kObject, members: extra}, true
	case target.kind != kObject:
		return target, isFalse(target)
	}
	out := &value{kind: kObject, members: append([]member(nil), target.members...)}
	for _, m := range extra {
		i := -1
		for j, tm := range out.members {
			if tm.key == m.key {
				i = j
			}
		}
		switch {
		case i < 0:
			out.members = append(out.members, m)
		case annotationKeywords[m.key]:
			out.members[i] = m
		case !equal(out.members[i].val, m.val):
			return nil, false
		}
	}
	return out, true
}

// pointer resolves a JSON pointer ("/$defs/x", "" for the root) in root.
func pointer(root *value, p string) *value {
	if p == "" {
		return root
	}
	if !strings.HasPrefix(p, "/") {
		return nil
	}
	v := root
	for _, tok := range strings.Split(p[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch {
		case v == nil:
			return nil
		case v.kind == kObject:
			v = v.get(tok)
		case v.kind == kArray:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(v.items) {
				return nil
			}
			v = v.items[i]
		default:
			return nil
		}
	}
	return v
}

// viaRefs compares a and b through their local "$ref"s, when either has
// one that resolves, and reports whether it did: a schema means what its
// references point to, so a definition's changes are reported where the
// schema uses it, and a reference replaced by the same schema inline is no
// change. A pair of references already being compared (a recursive schema)
// counts as equal.
func (w *walker) viaRefs(path string, a, b *value) bool {
	ra, rb := a.get("$ref"), b.get("$ref")
	if ra == nil && rb == nil || w.spent() {
		return false
	}
	a2, b2 := w.resolve(a, 0), w.resolve(b, 1)
	if a2 == a && b2 == b {
		return false
	}
	key := [2]string{refText(ra), refText(rb)}
	if w.refs[key] {
		return true
	}
	w.refs[key] = true
	before := len(w.changes)
	w.nest++
	w.schema(path, a2, b2)
	w.nest--
	delete(w.refs, key)
	if len(w.changes) == before && !equal(ra, rb) {
		w.add(path, KindReordered, "same schema through $ref")
	}
	return true
}

func refText(v *value) string {
	if v == nil || v.kind != kString {
		return ""
	}
	return v.text
}

// usedDefs returns the "$defs"/"definitions" entries of root that the
// schema uses: referenced by a local "$ref" outside those sections, or by
// an entry so referenced, transitively. Keys are "$defs/name" or
// "definitions/name".
func usedDefs(root *value) map[string]bool {
	used := map[string]bool{}
	var queue []*value
	var visit func(v *value, top bool)
	visit = func(v *value, top bool) {
		switch {
		case v == nil:
		case v.kind == kArray:
			for _, it := range v.items {
				visit(it, false)
			}
		case v.kind == kObject:
			for _, m := range v.members {
				if top && (m.key == "$defs" || m.key == "definitions") {
					continue
				}
				if m.key == "$ref" && m.val.kind == kString {
					if key, ok := defKey(m.val.text); ok && !used[key] {
						used[key] = true
						queue = append(queue, pointer(root, "/"+key))
					}
					continue
				}
				visit(m.val, false)
			}
		}
	}
	visit(root, true)
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		visit(v, false)
	}
	return used
}

// defKey returns the definition a local reference names ("#/$defs/x" →
// "$defs/x"; a reference into a definition names that definition).
func defKey(ref string) (string, bool) {
	for _, section := range []string{"#/$defs/", "#/definitions/"} {
		if rest, ok := strings.CutPrefix(ref, section); ok && rest != "" {
			name, _, _ := strings.Cut(rest, "/")
			return section[2:] + name, true
		}
	}
	return "", false
}

// changedDefs returns the "$defs"/"definitions" entries (keys as usedDefs)
// that differ between the two roots, or exist in one only, closed under
// reference: an entry that refers to a changed one has changed too.
func changedDefs(roots [2]*value) map[string]bool {
	entries := func(root *value) map[string]*value {
		out := map[string]*value{}
		for _, section := range []string{"$defs", "definitions"} {
			if d := root.get(section); d != nil && d.kind == kObject {
				for _, m := range d.members {
					out[section+"/"+m.key] = m.val
				}
			}
		}
		return out
	}
	a, b := entries(roots[0]), entries(roots[1])
	changed := map[string]bool{}
	for k, v := range a {
		if !equal(v, b[k]) {
			changed[k] = true
		}
	}
	for k := range b {
		if a[k] == nil {
			changed[k] = true
		}
	}
	for grew := len(changed) > 0; grew; {
		grew = false
		for _, defs := range []map[string]*value{a, b} {
			for k, v := range defs {
				if !changed[k] && refersTo(v, changed) {
					changed[k], grew = true, true
				}
			}
		}
	}
	return changed
}

// refersTo reports whether v holds a local "$ref" to an entry of defs.
func refersTo(v *value, defs map[string]bool) bool {
	switch {
	case v == nil:
	case v.kind == kArray:
		return slices.ContainsFunc(v.items, func(it *value) bool { return refersTo(it, defs) })
	case v.kind == kObject:
		for _, m := range v.members {
			if m.key == "$ref" && m.val.kind == kString {
				if k, ok := defKey(m.val.text); ok && defs[k] {
					return true
				}
				continue
			}
			if refersTo(m.val, defs) {
				return true
			}
		}
	}
	return false
}

// same reports whether two subschemas mean the same: equal text, and no
// reference in them to a definition that changed between the roots.
func (w *walker) same(a, b *value) bool {
	if !equal(a, b) {
		return false
	}
	if a == nil || len(w.changed) == 0 {
		return true
	}
	hit, ok := w.reaches[a]
	if !ok {
		hit = refersTo(a, w.changed)
		w.reaches[a] = hit
	}
	return !hit
}

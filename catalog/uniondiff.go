package catalog

import "slices"

// A schema is read as a union of alternatives when it has anyOf or oneOf
// (each branch with the schema's other keywords merged in) or a list of
// types (one alternative per type). When either side of a comparison is a
// union and the unions differ, union compares alternatives instead of
// keywords: an old alternative whose values a new one accepts is matched
// to it (a widening, compatible), a new alternative matched by none was
// added (compatible), an old one with no match was removed (breaking).
// So {"type":"string"} → {"anyOf":[{"type":"string"},{"type":"null"}]} is
// a null alternative added, and items {"type":"string"} →
// {"oneOf":[{"type":"string"},{"type":"object"}]} a branch added.

// alt is one alternative: its schema and its path in its own tool.
type alt struct {
	v    *value
	path string
}

// unionKeyword returns "anyOf" or "oneOf" when v has exactly one of them.
func unionKeyword(v *value) string {
	any, one := v.get("anyOf"), v.get("oneOf")
	switch {
	case any != nil && one == nil:
		return "anyOf"
	case one != nil && any == nil:
		return "oneOf"
	}
	return ""
}

// maxUnionDepth bounds how deeply unions nested in unions are flattened.
const maxUnionDepth = 8

// alternatives returns the alternatives of schema v (side 0 = old, 1 =
// new), flattening unions nested in its branches (an anyOf branch that is
// a $ref to a oneOf, say); ok is false when v cannot be read as a union (a
// branch conflicts with the keywords beside it, or anyOf and oneOf are
// both present).
func (w *walker) alternatives(path string, v *value, side int) ([]alt, bool) {
	return w.alternativesIn(path, v, side, 0)
}

func (w *walker) alternativesIn(path string, v *value, side, depth int) ([]alt, bool) {
	if v.get("anyOf") != nil && v.get("oneOf") != nil {
		return nil, false
	}
	if k := unionKeyword(v); k != "" {
		branches := v.get(k)
		if branches.kind != kArray {
			return nil, false
		}
		var out []alt
		for j, br := range branches.items {
			br = w.resolve(br, side)
			m, ok := mergeSiblings(br, v, k)
			if !ok {
				return nil, false
			}
			if isFalse(m) {
				continue // accepts nothing
			}
			p := joinIndex(joinKey(path, k), j)
			if depth < maxUnionDepth && m.kind == kObject {
				sub, ok := w.alternativesIn(p, m, side, depth+1)
				if !ok {
					return nil, false
				}
				out = append(out, sub...)
				continue
			}
			out = append(out, alt{m, p})
		}
		return out, true
	}
	if t := v.get("type"); t != nil && t.kind == kArray && len(t.items) > 1 {
		var out []alt
		for _, it := range t.items {
			m := &value{kind: kObject}
			for _, mem := range v.members {
				if mem.key == "type" {
					mem = member{key: "type", val: it}
				}
				m.members = append(m.members, mem)
			}
			out = append(out, alt{m, path})
		}
		return out, true
	}
	return []alt{{v, path}}, true
}

// union compares a and b alternative by alternative when either is an
// anyOf/oneOf union and their unions differ, and reports whether it did.
func (w *walker) union(path string, a, b *value) bool {
	ka, kb := unionKeyword(a), unionKeyword(b)
	if ka == "" && kb == "" || ka == kb && w.same(a.get(ka), b.get(kb)) {
		return false
	}
	as, aok := w.alternatives(path, a, 0)
	bs, bok := w.alternatives(path, b, 1)
	if !aok || !bok || w.spent() {
		return false
	}
	before := len(w.changes)
	matched := make([]bool, len(bs))
	var contained []alt // old alternatives a new one accepts whole
	for _, x := range as {
		j, ch := w.bestMatch(x, bs)
		switch {
		case j >= 0 && maxClass(ch) < ClassBreaking:
			contained = append(contained, x)
			fallthrough
		case j >= 0 && typesOverlap(x.v, bs[j].v):
			matched[j] = true
			w.changes = append(w.changes, ch...)
		case isNullOnly(x.v):
			w.add(x.path, KindNullableRemoved, "")
		default:
			w.add(x.path, KindBranchRemoved, "")
		}
	}
	for j, y := range bs {
		switch {
		case matched[j]:
		case kb == "oneOf" && w.overlaps(contained, y):
			w.add(y.path, KindOneOfOverlap, "")
		case isNullOnly(y.v):
			w.add(y.path, KindNullableAdded, "")
		default:
			w.add(y.path, KindBranchAdded, "")
		}
	}
	if len(w.changes) == before {
		w.add(path, KindReordered, "")
	}
	return true
}

// bestMatch returns the new alternative closest to x (fewest breaking
// changes, then fewest changes, then the first) and the changes from x to
// it, or -1 when there is none.
func (w *walker) bestMatch(x alt, bs []alt) (int, []Change) {
	best, bestBreak := -1, 0
	var bestCh []Change
	for j, y := range bs {
		ch := w.trial(y.path, x.v, y.v)
		nb := countClass(ch, ClassBreaking)
		if best < 0 || nb < bestBreak || nb == bestBreak && len(ch) < len(bestCh) {
			best, bestBreak, bestCh = j, nb, ch
		}
		if len(ch) == 0 {
			break
		}
	}
	return best, bestCh
}

// overlaps reports whether new alternative y, which no old alternative was
// matched to, shares values with an old alternative x of contained (each
// accepted whole by another new alternative): y accepts all of x's values,
// or x accepts all of y's. Under oneOf the shared values would then match
// twice and fail. (Alternatives that merely intersect are not detected.)
func (w *walker) overlaps(as []alt, y alt) bool {
	return slices.ContainsFunc(as, func(x alt) bool {
		return maxClass(w.trial(y.path, x.v, y.v)) < ClassBreaking || maxClass(w.trial(y.path, y.v, x.v)) < ClassBreaking
	})
}

// typesOverlap reports whether two schemas may accept values of one JSON
// type (true when either allows any type).
func typesOverlap(a, b *value) bool {
	ta, aok := typeSet(a.get("type"))
	tb, bok := typeSet(b.get("type"))
	if !aok || !bok || ta == nil || tb == nil {
		return true
	}
	for t := range ta {
		if allows(tb, t) {
			return true
		}
	}
	for t := range tb {
		if allows(ta, t) {
			return true
		}
	}
	return false
}

// isNullOnly reports a schema that accepts only null.
func isNullOnly(v *value) bool {
	t, ok := typeSet(v.get("type"))
	if ok && len(t) == 1 && t["null"] {
		return true
	}
	c := v.get("const")
	return c != nil && c.kind == kNull
}

func maxClass(ch []Change) Class {
	c := ClassNone
	for _, x := range ch {
		c = max(c, x.Class)
	}
	return c
}

func countClass(ch []Change, c Class) int {
	n := 0
	for _, x := range ch {
		if x.Class == c {
			n++
		}
	}
	return n
}

// branches compares anyOf / oneOf (union=true) or allOf (union=false) when
// union does not apply (both unions cannot be read as alternatives, or
// allOf). Best effort: branches identical on both sides are set aside; when
// the remaining counts are equal the branches are paired in order and
// compared as schemas; otherwise a branch only in the old list is removed
// and one only in the new list is added. For a union, removing a branch
// narrows (breaking) and adding one widens (compatible); for allOf it is
// the reverse.
func (w *walker) branches(path string, a, b *value, union bool) {
	if a == nil || b == nil || a.kind != kArray || b.kind != kArray {
		w.addRemoveBranches(path, a, b, union)
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
		w.add(path, KindReordered, "")
		return
	}
	if len(ra) == len(rb) {
		for k := range ra {
			w.schema(joinIndex(path, rb[k].i), ra[k].v, rb[k].v)
		}
		return
	}
	removed, added := KindBranchRemoved, KindBranchAdded
	if !union {
		removed, added = KindAllOfBranchRemoved, KindAllOfBranchAdded
	}
	for _, x := range ra {
		w.add(joinIndex(path, x.i), removed, "")
	}
	for _, x := range rb {
		w.add(joinIndex(path, x.i), added, "")
	}
}

// addRemoveBranches handles a combinator keyword present on one side only,
// or not a list: a new anyOf/oneOf/allOf beside other keywords constrains
// further (breaking), a removed one loosens.
func (w *walker) addRemoveBranches(path string, a, b *value, union bool) {
	switch {
	case a == nil && union:
		w.add(path, KindAssertionAdded, "")
	case a == nil:
		w.add(path, KindAllOfBranchAdded, "")
	case b == nil && union:
		w.add(path, KindAssertionGone, "")
	case b == nil:
		w.add(path, KindAllOfBranchRemoved, "")
	default:
		w.add(path, KindKeywordChanged, "")
	}
}

package catalog

import (
	"fmt"
	"strconv"
)

func (w *walker) enum(path string, a, b *value) {
	if a == nil {
		w.add(path, KindEnumAdded, fmt.Sprintf("%d values", len(b.items)))
		return
	}
	if b == nil {
		w.add(path, KindEnumRemoved, "")
		return
	}
	if a.kind != kArray || b.kind != kArray {
		w.add(path, KindKeywordChanged, "")
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
		w.add(path, KindEnumNarrowed, detail)
	case len(extra) > 0:
		w.add(path, KindEnumWidened, detail)
	default:
		w.add(path, KindReordered, "")
	}
}

// constChange compares two "const" keywords.
func (w *walker) constChange(path string, a, b *value) {
	w.presence(path, a, b, KindConstAdded, KindConstRemoved, KindConstChanged)
}

// assertion handles a keyword that constrains when present: adding or
// changing it is breaking, removing it compatible.
func (w *walker) assertion(path string, a, b *value) {
	w.presence(path, a, b, KindAssertionAdded, KindAssertionGone, KindAssertionChange)
}

// presence reports a keyword that appeared, disappeared or changed value.
func (w *walker) presence(path string, a, b *value, added, removed, changed Kind) {
	switch {
	case a == nil:
		w.add(path, added, shortValue(b))
	case b == nil:
		w.add(path, removed, shortValue(a))
	default:
		w.add(path, changed, leafDetail(a, b))
	}
}

func (w *walker) uniqueItems(path string, a, b *value) {
	at := a != nil && a.kind == kBool && a.boolean
	bt := b != nil && b.kind == kBool && b.boolean
	switch {
	case bt && !at:
		w.add(path, KindConstraintTight, leafDetail(a, b))
	case at && !bt:
		w.add(path, KindConstraintLoose, leafDetail(a, b))
	default:
		w.add(path, KindAnnotationChanged, "")
	}
}

// bound compares a numeric bound; draft-4 boolean exclusiveMinimum /
// exclusiveMaximum tighten when turned on.
func (w *walker) bound(path, key string, a, b *value) {
	detail := leafDetail(a, b)
	switch {
	case a == nil && isSafeIntegerBound(b):
		w.add(path, KindSafeBoundAdded, detail)
	case b == nil && isSafeIntegerBound(a):
		w.add(path, KindSafeBoundGone, detail)
	case a == nil:
		w.add(path, KindConstraintTight, detail)
	case b == nil:
		w.add(path, KindConstraintLoose, detail)
	case a.kind == kBool && b.kind == kBool:
		if b.boolean {
			w.add(path, KindConstraintTight, detail)
		} else {
			w.add(path, KindConstraintLoose, detail)
		}
	default:
		x, errA := number(a)
		y, errB := number(b)
		switch {
		case errA != nil || errB != nil:
			w.add(path, KindConstraintOther, detail)
		case x == y:
			w.add(path, KindReordered, detail)
		case (y > x) == lowerBounds[key]:
			w.add(path, KindConstraintTight, detail)
		default:
			w.add(path, KindConstraintLoose, detail)
		}
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
		w.add(path, KindItemsAdded, "")
	case b == nil:
		w.add(path, KindItemsRemoved, "")
	case a.kind == kArray && b.kind == kArray:
		n := max(len(a.items), len(b.items))
		for i := range n {
			switch {
			case i >= len(b.items):
				w.add(joinIndex(path, i), KindTupleItemRemoved, "")
			case i >= len(a.items):
				w.add(joinIndex(path, i), KindTupleItemAdded, "")
			default:
				w.schema(joinIndex(path, i), a.items[i], b.items[i])
			}
		}
	case a.kind == kArray || b.kind == kArray:
		w.add(path, KindSchemaReplaced, "")
	default:
		w.schema(path, a, b)
	}
}

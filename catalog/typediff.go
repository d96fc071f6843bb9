package catalog

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

// covers reports whether type set b admits every type of a.
func covers(b, a map[string]bool) bool {
	if a == nil {
		return b == nil
	}
	for t := range a {
		if !allows(b, t) {
			return false
		}
	}
	return true
}

// typeChange compares two "type" keywords; root says the schema is the
// input schema itself, whose instance is always an object.
func (w *walker) typeChange(path string, a, b *value, root bool) {
	as, aok := typeSet(a)
	bs, bok := typeSet(b)
	detail := leafDetail(a, b)
	switch {
	case !aok || !bok:
		w.add(path, KindTypeChanged, detail)
	case a == nil && root && len(bs) == 1 && bs["object"]:
		w.add(path, KindObjectTypeStated, detail)
	case a == nil:
		w.add(path, KindTypeAdded, detail)
	case b == nil:
		w.add(path, KindTypeRemoved, detail)
	case covers(bs, as):
		if onlyNullDiffers(as, bs) {
			w.add(path, KindNullableAdded, detail)
		} else {
			w.add(path, KindTypeWidened, detail)
		}
	case covers(as, bs) && onlyNullDiffers(bs, as):
		w.add(path, KindNullableRemoved, detail)
	default:
		w.add(path, KindTypeChanged, detail)
	}
}

// onlyNullDiffers reports whether big is small plus "null" and nothing else.
func onlyNullDiffers(small, big map[string]bool) bool {
	if !big["null"] || small["null"] || len(big) != len(small)+1 {
		return false
	}
	for t := range small {
		if !big[t] {
			return false
		}
	}
	return true
}

package catalog

import "slices"

// properties compares "properties" (or "patternProperties") maps. A removed
// property and an added one are reported as a rename only with evidence
// that the added one succeeds the removed one (renames); otherwise as a
// removal and an addition. Either way the change is breaking: arguments
// using the old name no longer fit.
func (w *walker) properties(path string, a, b *value) {
	if a.kind != kObject || b.kind != kObject {
		w.add(path, KindKeywordChanged, "")
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
	for _, r := range w.renames(a, b, removed, added) {
		paired[r.from], paired[r.to] = true, true
		w.renamed = append(w.renamed, renameAt{path: path, from: r.from, to: r.to})
		w.add(joinKey(path, r.from), KindPropertyRenamed, "to "+r.to+" ("+r.evidence+")")
	}
	for _, r := range removed {
		if !paired[r] {
			w.add(joinKey(path, r), KindPropertyRemoved, "")
		}
	}
	for _, n := range added {
		if !paired[n] {
			w.add(joinKey(path, n), KindPropertyAdded, "")
		}
	}
}

// definitions compares "$defs" / "definitions" (section): shared
// subschemas, which mean something only where a "$ref" uses them. An entry
// appearing or disappearing is reported (compatible: the $ref changes that
// use it are judged where they are); a changed entry that the schema uses
// (usedDefs, on either side) is judged where it is used, through viaRefs,
// and one it does not use is reported as one compatible change.
func (w *walker) definitions(path, section string, a, b *value) {
	if a.kind != kObject || b.kind != kObject {
		w.add(path, KindDefinitionsChanged, "")
		return
	}
	top := path == "inputSchema."+section
	if top && w.used[0] == nil {
		w.used = [2]map[string]bool{usedDefs(w.roots[0]), usedDefs(w.roots[1])}
	}
	for _, key := range unionKeys(a, b) {
		av, bv := a.get(key), b.get(key)
		p := joinKey(path, key)
		switch {
		case equal(av, bv):
		case bv == nil:
			w.add(p, KindDefinitionRemoved, "")
		case av == nil:
			w.add(p, KindDefinitionAdded, "")
		case !top:
			// Definitions nested below the root are not reached by
			// "#/$defs/…" references: compare them in place.
			w.schema(p, av, bv)
		case !w.used[0][section+"/"+key] && !w.used[1][section+"/"+key]:
			w.add(p, KindUnusedDefinitionChanged, "")
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
		w.add(path, KindKeywordChanged, "")
		return
	}
	found := false
	au, bu := sortedUnique(as), sortedUnique(bs)
	for _, n := range bu {
		if _, in := slices.BinarySearch(au, n); !in {
			w.add(path, KindRequiredAdded, n)
			found = true
		}
	}
	for _, n := range au {
		if _, in := slices.BinarySearch(bu, n); !in {
			w.add(path, KindRequiredRemoved, n)
			found = true
		}
	}
	if !found {
		w.add(path, KindReordered, "")
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
		w.add(path, KindAdditionalPropertiesClosed, "")
	case isFalse(a) || isOpen(b):
		w.add(path, KindAdditionalPropertiesOpened, "")
	case isOpen(a):
		w.add(path, KindAdditionalPropertiesNarrowed, "")
	default:
		w.schema(path, a, b)
	}
}

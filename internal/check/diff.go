package check

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/report"
)

// structuralDiff lists what changed between two results files beyond the
// metric values — run description, inputs, counts, statistics settings,
// metric table, strategy parameters — one line per changed field, named
// by its path in results.json: "run.seed: 42 → 43",
// "strategies[x].parameters.trigger.budget: 8000 → 16000",
// "strategies[y]: only in current". Arrays of named objects are matched by
// name (inputs by content, then path: inputsDiff). The build versions are left out: check warns
// about them separately. Empty when nothing but metric values changed.
func structuralDiff(base, cur *report.Results) []string {
	a, b := structural(base), structural(cur)
	var out []string
	diffValues("", a, b, &out)
	out = withoutStrategyWording(out, base, cur)
	out = withCatalogsMoved(out, base, cur)
	return withInputDiff(out, inputsDiff(base.Run.Inputs, cur.Run.Inputs))
}

// generic returns v as generic JSON (numbers as json.Number), as
// structural does; nil if it does not marshal.
func generic(v any) any {
	data, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var out any
	if dec.Decode(&out) != nil {
		return nil
	}
	return out
}

// structural returns res as generic JSON without the metric values and
// build versions.
func structural(res *report.Results) any {
	c := *res
	c.GeneratorVersion, c.GoVersion = "", ""
	c.Run.Inputs = nil // inputsDiff matches them by content
	c.Strategies = make([]report.StrategyResult, len(res.Strategies))
	for i, s := range res.Strategies {
		s.Metrics, s.VsBaseline, s.CacheHitByRequest, s.CacheHitByStep = nil, nil, nil, nil
		c.Strategies[i] = s
	}
	return generic(&c) // results hold no values Marshal rejects (no NaN: see report.WriteResults)
}

func diffValues(path string, a, b any, out *[]string) {
	switch av := a.(type) {
	case map[string]any:
		if bv, ok := b.(map[string]any); ok {
			keys := make([]string, 0, len(av)+len(bv))
			for k := range av {
				keys = append(keys, k)
			}
			for k := range bv {
				if _, ok := av[k]; !ok {
					keys = append(keys, k)
				}
			}
			slices.Sort(keys)
			for _, k := range keys {
				x, inA := av[k]
				y, inB := bv[k]
				p := join(path, k)
				switch {
				case !inA && isEmpty(y), !inB && isEmpty(x):
				case !inA:
					*out = append(*out, fmt.Sprintf("%s: (absent) → %s", p, show(y)))
				case !inB:
					*out = append(*out, fmt.Sprintf("%s: %s → (absent)", p, show(x)))
				default:
					diffValues(p, x, y, out)
				}
			}
			return
		}
	case []any:
		if bv, ok := b.([]any); ok {
			if key := arrayKey(av, bv); key != "" {
				diffKeyed(path, key, av, bv, out)
				return
			}
			if len(av) == len(bv) && !scalars(av) {
				for i := range av {
					diffValues(fmt.Sprintf("%s[%d]", path, i), av[i], bv[i], out)
				}
				return
			}
		}
	}
	if show(a) != show(b) {
		*out = append(*out, fmt.Sprintf("%s: %s → %s", path, show(a), show(b)))
	}
}

// diffKeyed matches the objects of two arrays by their key field.
func diffKeyed(path, key string, a, b []any, out *[]string) {
	index := func(xs []any) (map[string]any, []string) {
		m := map[string]any{}
		var order []string
		for _, x := range xs {
			k := fmt.Sprint(x.(map[string]any)[key])
			if _, dup := m[k]; !dup {
				order = append(order, k)
			}
			m[k] = x
		}
		return m, order
	}
	am, aorder := index(a)
	bm, border := index(b)
	for _, k := range aorder {
		p := fmt.Sprintf("%s[%s]", path, k)
		if y, ok := bm[k]; ok {
			diffValues(p, am[k], y, out)
		} else {
			*out = append(*out, p+": only in the baseline")
		}
	}
	for _, k := range border {
		if _, ok := am[k]; !ok {
			*out = append(*out, fmt.Sprintf("%s[%s]: only in current", path, k))
		}
	}
	if slices.Equal(intersect(aorder, bm), intersect(border, am)) {
		return
	}
	*out = append(*out, path+": order changed")
}

func intersect(order []string, in map[string]any) []string {
	var out []string
	for _, k := range order {
		if _, ok := in[k]; ok {
			out = append(out, k)
		}
	}
	return out
}

// arrayKey is the field that names the objects of both arrays: "name",
// else "path"; "" when they are not all objects with it.
func arrayKey(a, b []any) string {
	for _, key := range []string{"name", "path"} {
		ok := len(a)+len(b) > 0
		for _, xs := range [][]any{a, b} {
			for _, x := range xs {
				m, isObj := x.(map[string]any)
				if !isObj {
					ok = false
					break
				}
				if _, has := m[key]; !has {
					ok = false
					break
				}
			}
		}
		if ok {
			return key
		}
	}
	return ""
}

func scalars(xs []any) bool {
	for _, x := range xs {
		switch x.(type) {
		case map[string]any, []any:
			return false
		}
	}
	return true
}

func isEmpty(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case []any:
		return len(x) == 0
	case map[string]any:
		return len(x) == 0
	case string:
		return x == ""
	}
	return false
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// show writes a value compactly: strings without quotes, objects and
// arrays as JSON cut at 120 characters.
func show(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		if x == "" {
			return `""`
		}
		return x
	case json.Number:
		return x.String()
	case bool:
		return fmt.Sprint(x)
	}
	data, _ := json.Marshal(v)
	s := string(data)
	if r := []rune(s); len(r) > 120 {
		s = string(r[:119]) + "…"
	}
	return strings.TrimSpace(s)
}

// catalogChanges lists catalog server versions present in only one of the
// two runs, and servers whose version set changed, as lines like
// "kb: 2.13.0 → 3.0.0" or "+ maps@4.0.0".
func catalogChanges(base, cur *report.Results) []string {
	bv, cv := catalogVersions(base), catalogVersions(cur)
	var out []string
	for _, s := range unionKeys(bv, cv) {
		b, c := bv[s], cv[s]
		switch {
		case len(b) == 0:
			out = append(out, fmt.Sprintf("+ %s@%s", s, strings.Join(keys(c), ",")))
		case len(c) == 0:
			out = append(out, fmt.Sprintf("- %s@%s", s, strings.Join(keys(b), ",")))
		default:
			bk, ck := keys(b), keys(c)
			changed := !slices.Equal(bk, ck)
			for _, v := range bk {
				if c[v] != "" && c[v] != b[v] {
					changed = true
				}
			}
			if changed {
				out = append(out, fmt.Sprintf("~ %s: %s → %s", s, describeVersions(b, c), describeVersions(c, b)))
			}
		}
	}
	return out
}

// describeVersions lists versions, marking with * those whose content
// differs from the same version in other.
func describeVersions(v, other map[string]string) string {
	var parts []string
	for _, k := range keys(v) {
		if o, ok := other[k]; ok && o != v[k] {
			k += "*"
		}
		parts = append(parts, k)
	}
	return strings.Join(parts, ",")
}

// catalogVersions maps server → version → content hash.
func catalogVersions(r *report.Results) map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, in := range r.Run.Inputs {
		if in.Kind != "catalog" || in.Server == "" {
			continue
		}
		if out[in.Server] == nil {
			out[in.Server] = map[string]string{}
		}
		out[in.Server][in.Version] = in.SHA256
	}
	return out
}

// keys lists the versions of m in release order (catalog.CompareVersions:
// 0.9.0 before 0.10.0), as run records them.
func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.SortFunc(out, catalog.CompareVersions)
	return out
}

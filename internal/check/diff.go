package check

import (
	"fmt"
	"slices"
	"strings"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/defersim/defersim/report"
)

// structuralDiff describes what changed between two results files beyond
// the metric values: run description, inputs, counts, statistics settings,
// metric table and strategy parameters (go-cmp's diff: "-" baseline,
// "+" current). It is empty when nothing but metric values changed. The
// text is for people: go-cmp does not promise a stable layout.
func structuralDiff(base, cur *report.Results) string {
	return cmp.Diff(base, cur,
		cmpopts.IgnoreFields(report.StrategyResult{}, "Metrics", "VsBaseline", "CacheHitByRequest"),
		cmpopts.EquateEmpty())
}

// catalogChanges lists catalog server versions present in only one of the
// two runs, and servers whose version set changed, as lines like
// "kb: 2.13.0 → 3.0.0" or "+ maps@4.0.0".
func catalogChanges(base, cur *report.Results) []string {
	bv, cv := catalogVersions(base), catalogVersions(cur)
	var servers []string
	for s := range bv {
		servers = append(servers, s)
	}
	for s := range cv {
		if _, ok := bv[s]; !ok {
			servers = append(servers, s)
		}
	}
	slices.Sort(servers)
	var out []string
	for _, s := range servers {
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

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

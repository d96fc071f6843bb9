package check

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// modelAssumption is the assumption that states the scenario's model, the
// run's model (run.model) again: a difference of it is listed once.
const modelAssumption = "model"

// engineDerived are assumptions that depend on the inputs, not on the
// scenario (they change when a catalog changes).
var engineDerived = map[string]bool{"distinct_schemas_counted": true}

// diffKind is what a scenario difference is a difference of.
type diffKind int

const (
	diffRun        diffKind = iota // the seed, model or baseline
	diffAssumption                 // an assumption in force
	diffDerived                    // an assumption that follows from the strategies
	diffStrategy                   // a strategy's parameters
)

// scenarioDiff is one difference between the scenarios of two results.
type scenarioDiff struct {
	kind      diffKind
	key       string // "seed", an assumption's name, a strategy's name
	base, cur string // the two values; a strategy's changed parameters in base
}

// text is the difference in words: "seed 1 vs 7", "strategy ours
// (warm.max_tools (none) → 2)"; an assumption's values compactly
// (compactPair).
func (d scenarioDiff) text() string {
	switch d.kind {
	case diffStrategy:
		return "strategy " + d.key + " (" + d.base + ")"
	case diffRun:
		return fmt.Sprintf("%s %s vs %s", d.key, d.base, d.cur)
	}
	t := d.key + " " + d.values()
	if d.kind == diffDerived {
		t = strategyDerivedPrefix + t + " (follows from the strategies)"
	}
	return t
}

// values is the two values, "BASE vs CUR" (compactPair), or a strategy's
// changed parameters.
func (d scenarioDiff) values() string {
	switch d.kind {
	case diffStrategy:
		return d.base
	case diffRun:
		return d.base + " vs " + d.cur
	}
	b, c := compactPair(d.base, d.cur)
	return b + " vs " + c
}

// detail is the difference on a line of its own: "seed: 1 vs 7",
// "strategy ours: warm.max_tools (none) → 2".
func (d scenarioDiff) detail() string {
	if d.kind == diffStrategy {
		return "strategy " + d.key + ": " + d.base
	}
	return d.key + ": " + d.values()
}

// ScenarioDifferences lists, in words, what differs between the scenarios
// of two results as far as results files record it: seed, model, the
// assumptions in force, the baseline, and each strategy's parameters.
// Strategy differences are prefixed "strategy ".
func ScenarioDifferences(base, cur *report.Results) []string {
	var out []string
	for _, d := range scenarioDiffs(base, cur) {
		out = append(out, d.text())
	}
	return out
}

// scenarioDiffs is what ScenarioDifferences lists, one scenarioDiff each.
func scenarioDiffs(base, cur *report.Results) []scenarioDiff {
	var out []scenarioDiff
	if base.Run.Seed != cur.Run.Seed {
		out = append(out, scenarioDiff{diffRun, "seed", fmt.Sprint(base.Run.Seed), fmt.Sprint(cur.Run.Seed)})
	}
	if base.Run.Model != cur.Run.Model {
		out = append(out, scenarioDiff{diffRun, "model", base.Run.Model, cur.Run.Model})
	}
	if base.Run.Baseline != cur.Run.Baseline {
		out = append(out, scenarioDiff{diffRun, "baseline", base.Run.Baseline, cur.Run.Baseline})
	}
	ba, ca := assumptionMap(base.Run.Assumptions), assumptionMap(cur.Run.Assumptions)
	bs, cs := assumptionSources(base.Run.Assumptions), assumptionSources(cur.Run.Assumptions)
	for _, k := range unionKeys(ba, ca) {
		if engineDerived[k] || ba[k] == ca[k] || k == catalogsAssumption && catalogsMoved(base, cur) {
			continue
		}
		if k == modelAssumption && ba[k] == base.Run.Model && ca[k] == cur.Run.Model {
			continue // the run's model, listed above
		}
		kind := diffAssumption
		if strategyDerived(k, bs[k]) || strategyDerived(k, cs[k]) {
			kind = diffDerived
		}
		out = append(out, scenarioDiff{kind, k, ba[k], ca[k]})
	}
	for _, bs := range base.Strategies {
		cs := cur.Strategy(bs.Name)
		if cs == nil {
			continue
		}
		if d := strategyDiff(bs.Parameters, cs.Parameters); d != "" {
			out = append(out, scenarioDiff{kind: diffStrategy, key: bs.Name, base: d})
		}
	}
	return out
}

// strategyDerivedPrefix marks an assumption difference that follows from
// the strategies: the query models of their ranked searches
// (query_model.NAME, search.select, which name the strategies) and a
// params key stated not read because no strategy of the run reads it.
const strategyDerivedPrefix = "strategy-dependent assumption "

// strategyDerived says whether the assumption called name, with source
// source on one side, follows from the run's strategies.
func strategyDerived(name, source string) bool {
	return strings.HasPrefix(name, "query_model.") || name == "search.select" ||
		strings.Contains(source, "no strategy of the run reads it")
}

// policyOnly is true when every difference is a strategy's parameters, or
// an assumption that follows from them.
func policyOnly(diffs []scenarioDiff) bool {
	if len(diffs) == 0 {
		return false
	}
	for _, d := range diffs {
		if d.kind != diffStrategy && d.kind != diffDerived {
			return false
		}
	}
	return true
}

// assumptionSources maps each assumption's name to its source.
func assumptionSources(as []sim.Assumption) map[string]string {
	m := map[string]string{}
	for _, a := range as {
		m[a.Name] = a.Source
	}
	return m
}

func assumptionMap(as []sim.Assumption) map[string]string {
	m := map[string]string{}
	for _, a := range as {
		if a.Name == "note" {
			m["note: "+a.Value] = "present"
			continue
		}
		m[a.Name] = a.Value
	}
	return m
}

// unionKeys returns the keys of a and b, each once, sorted.
func unionKeys[V any](a, b map[string]V) []string {
	var keys []string
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// strategyDiff names the parameters that differ, by their JSON keys.
func strategyDiff(a, b sim.Strategy) string {
	a.Description, a.Source, b.Description, b.Source = "", "", "", ""
	am, bm := flatten(a), flatten(b)
	var parts []string
	for _, k := range unionKeys(am, bm) {
		if am[k] != bm[k] {
			parts = append(parts, fmt.Sprintf("%s %s → %s", k, orNone(am[k]), orNone(bm[k])))
		}
	}
	return strings.Join(parts, ", ")
}

// flatten turns a value into dotted JSON keys and compact JSON leaves.
func flatten(v any) map[string]string {
	data, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var x any
	if err := json.Unmarshal(data, &x); err != nil {
		return nil
	}
	out := map[string]string{}
	var walk func(prefix string, x any)
	walk = func(prefix string, x any) {
		if m, ok := x.(map[string]any); ok && len(m) > 0 {
			for k, v := range m {
				key := k
				if prefix != "" {
					key = prefix + "." + k
				}
				walk(key, v)
			}
			return
		}
		b, _ := json.Marshal(x)
		out[prefix] = string(b)
	}
	walk("", x)
	return out
}

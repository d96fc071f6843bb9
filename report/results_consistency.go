package report

import (
	"fmt"
	"math"
	"slices"
)

// consistent checks what every file defersim writes holds and what the
// readers (check, plan, report) rely on without looking: every strategy
// has a distribution for each metric of the table and for no other, each
// over the file's sessions, with its mean and percentiles between its min
// and max. A file that breaks one was cut, merged by hand or edited: a
// metric missing from one strategy read as 0, an edited mean with stale
// percentiles and intervals, would otherwise be compared, projected or
// rendered as if measured.
func (r *Results) consistent() error {
	var table []string
	for _, m := range r.Metrics {
		table = append(table, m.Name)
	}
	for _, s := range r.Strategies {
		for _, name := range table {
			if _, ok := s.Metrics[name]; !ok {
				return fmt.Errorf("results: strategy %q has no values for metric %s of the metrics table", s.Name, name)
			}
		}
		for _, name := range sortedKeys(s.Metrics) {
			d := s.Metrics[name]
			if !slices.Contains(table, name) {
				return fmt.Errorf("results: strategy %q has values for metric %s, which the metrics table does not list", s.Name, name)
			}
			if d.Count != r.Sessions {
				return fmt.Errorf("results: strategy %q metric %s counts %d sessions, the file %d", s.Name, name, d.Count, r.Sessions)
			}
			if d.Count == 0 {
				continue
			}
			for _, v := range []struct {
				stat string
				x    float64
			}{{"mean", d.Mean}, {"p50", d.P50}, {"p90", d.P90}, {"p95", d.P95}, {"p99", d.P99}} {
				if !within(v.x, d.Min, d.Max) {
					return fmt.Errorf("results: strategy %q metric %s: %s %g is outside its min %g and max %g (an edited or damaged file)",
						s.Name, name, v.stat, v.x, d.Min, d.Max)
				}
			}
		}
	}
	return nil
}

// within is lo ≤ x ≤ hi up to rounding (a mean of equal values may differ
// from them in the last bits).
func within(x, lo, hi float64) bool {
	eps := 1e-9 * max(math.Abs(lo), math.Abs(hi))
	return lo <= hi && x >= lo-eps && x <= hi+eps
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

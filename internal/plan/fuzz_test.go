package plan

import "testing"

// FuzzParseSweep: any input either parses into a checked range with at
// most MaxSweepPoints values or is rejected; it never panics.
func FuzzParseSweep(f *testing.F) {
	for _, s := range []string{"strategy.trigger.budget=2000:16000:2000", "params.nudge_prob=0:1:0.25",
		"model.latency.prefill_tps=1e3:1e4:1e3", "x=1:2", "strategy.warm=1:2:1", "params.select_prob=NaN:1:1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sp, err := ParseSweep(s)
		if err != nil {
			return
		}
		vs := sp.Values()
		if len(vs) == 0 || len(vs) > maxSweepPoints {
			t.Fatalf("%q: %d values", s, len(vs))
		}
		if vs[0] != sp.From {
			t.Fatalf("%q: first value %v, from %v", s, vs[0], sp.From)
		}
	})
}

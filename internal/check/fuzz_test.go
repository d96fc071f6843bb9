package check

import "testing"

// FuzzParseSetting: settings parse to a known key and a non-negative value
// that Tolerances accept, or are rejected; nothing panics.
func FuzzParseSetting(f *testing.F) {
	for _, s := range []string{"cost_usd=0.05", "first_reply_ms.p95=10%", "=", "a=b", "cost_usd.p99=1", "malformed_calls=1e-3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k, v, err := ParseSetting(s)
		if err != nil {
			return
		}
		if !(v >= 0) {
			t.Fatalf("%q: value %v", s, v)
		}
		tol := NewTolerances(nil)
		if err := tol.Set(k, v, v); err != nil {
			if _, _, kerr := parseKey(k); kerr == nil {
				t.Fatalf("%q: key parses but Set fails: %v", s, err)
			}
		}
	})
}

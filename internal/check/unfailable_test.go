package check

import (
	"strings"
	"testing"
)

// TestToleranceThatCannotFailIsWarned pins the warning for a check that
// cannot regress: cache_hit_ratio falls at most to 0, so a relative
// tolerance of 100% or more, or an absolute one at least every
// strategy's baseline value, passes any current run. Such a gate used to
// report "no regression" with nothing said.
func TestToleranceThatCannotFailIsWarned(t *testing.T) {
	runs, err := defaultRuns()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		rel, abs float64 // < 0: the default
		warn     bool
	}{
		{"defaults", -1, -1, false},
		{"relative 50%", 0.5, -1, false},
		{"relative 100%", 1, -1, true},
		{"relative 300%", 3, -1, true},
		{"absolute 1 (the whole ratio)", -1, 1, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tol := NewTolerances(nil)
			if err := tol.Set("cache_hit_ratio", tc.rel, tc.abs); err != nil {
				t.Fatal(err)
			}
			rep, err := Run(Config{BaselinePath: runs[0], CurrentPath: runs[1], Rules: tol.Rules()})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range rep.Warnings {
				if strings.Contains(w, "cannot regress") {
					got = append(got, w)
				}
			}
			if tc.warn != (len(got) == 1) || (tc.warn && !strings.HasPrefix(got[0], "check cache_hit_ratio cannot regress")) {
				t.Errorf("warnings %q, want one on cache_hit_ratio: %v", rep.Warnings, tc.warn)
			}
		})
	}
}

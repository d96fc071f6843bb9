package calibrate

import (
	"context"
	"strings"
	"testing"

	"github.com/defersim/defersim/traces"
)

// TestSameDurationEverywhereIsNotFitted pins that a trace whose every
// request records the same duration is not given a fitted latency: the tau2
// telecom run with every duration_ms set to 1000 was calibrated to
// prefill_tps 854902 and decode_tps 676557 marked "fitted", with an R² of
// NaN. Durations that vary, however little, are fitted as before.
func TestSameDurationEverywhereIsNotFitted(t *testing.T) {
	_, cat := recorded(t)
	for _, tc := range []struct {
		name      string
		ms        func(i int) int64
		notFitted bool
	}{
		{"every request 1000 ms", func(int) int64 { return 1000 }, true},
		{"1000 ms and one 1001 ms", func(i int) int64 { return 1000 + int64(min(i, 1)) }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := 0
			trace := rewrite(t, "same.jsonl.gz", func(_ int, s *traces.Session) {
				for i := range s.Events {
					if e := &s.Events[i]; e.Type == traces.ModelRequest {
						e.DurationMs, e.TTFTMs = tc.ms(n), 0
						n++
					}
				}
			})
			res, err := Run(context.Background(), config(t, trace, cat, "claude-sonnet-4.5", FitOn{Kind: FitEven}))
			if err != nil {
				t.Fatal(err)
			}
			mf := res.Models[0]
			said := strings.Contains(strings.Join(mf.Problems, "; "), "latency not fitted: every one of the")
			if tc.notFitted && (mf.Latency != nil || !said) {
				t.Errorf("latency %+v, problems %q: want not fitted, and why", mf.Latency, mf.Problems)
			}
			if !tc.notFitted && (mf.Latency == nil || said) {
				t.Errorf("latency not fitted (%q) on durations that vary", mf.Problems)
			}
		})
	}
}

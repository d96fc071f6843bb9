package ingest

import (
	"math"
	"testing"
	"time"
)

// TestMillisNeverNegative pins a fuzz finding (FuzzImportTau2, timestamps
// in years 0 and 1000): a span longer than a time.Duration holds made
// b.Sub(a) saturate and the rounding's added half millisecond overflow it,
// so Millis returned a negative duration and the importer wrote a
// model_request the trace format forbids.
func TestMillisNeverNegative(t *testing.T) {
	a := time.Date(2, 1, 1, 0, 0, 0, 0, time.UTC) // not time.Time{}: Millis reads that as unknown
	for _, tc := range []struct {
		name string
		b    time.Time
		want int64
	}{
		{"1000 years", time.Date(1000, 1, 1, 0, 0, 0, 0, time.UTC), math.MaxInt64/int64(time.Millisecond) + 1}, // saturated, rounded
		{"exactly the longest duration", a.Add(math.MaxInt64), math.MaxInt64/int64(time.Millisecond) + 1},
		{"half a millisecond rounds up", a.Add(time.Millisecond / 2), 1},
		{"just under half rounds down", a.Add(time.Millisecond/2 - 1), 0},
		{"1.5 ms", a.Add(1500 * time.Microsecond), 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Millis(a, tc.b); got != tc.want {
				t.Errorf("Millis = %d, want %d", got, tc.want)
			}
		})
	}
}

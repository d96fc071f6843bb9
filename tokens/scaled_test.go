package tokens

import "testing"

// TestScaled pins the scaled counter: each count is the inner count times
// the factor rounded to the nearest token (halves away from zero), a
// factor of 1 returns the inner counter itself, and the name carries the
// factor.
func TestScaled(t *testing.T) {
	est := NewEstimator(1) // one token per byte: inner counts are the lengths
	tests := []struct {
		factor float64
		text   string
		want   int64
	}{
		{1.3, "", 0},
		{1.3, "abcdefghij", 13},
		{1.3, "abc", 4},     // 3.9
		{1.5, "a", 2},       // 1.5 rounds away from zero
		{0.5, "abc", 2},     // 1.5
		{0.25, "a", 0},      // 0.25
		{2, "abcd", 8},      // exact
		{1.1, "abcdefg", 8}, // 7.7
	}
	for _, tc := range tests {
		if got := NewScaled(est, tc.factor).Count([]byte(tc.text)); got != tc.want {
			t.Errorf("scale %g of %q = %d, want %d", tc.factor, tc.text, got, tc.want)
		}
	}
	if c := NewScaled(est, 1); c != Counter(est) {
		t.Errorf("factor 1 returned %T, want the inner counter itself", c)
	}
	if got, want := NewScaled(est, 1.3).Name(), "bytes/1×1.3"; got != want {
		t.Errorf("Name() = %q, want %q", got, want)
	}
}

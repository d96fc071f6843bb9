package calibrate

import (
	"math"
	"testing"
)

// TestStudentT975 pins the t quantile the token_scale profile's interval
// bound uses against tabulated values (97.5% of Student's t).
func TestStudentT975(t *testing.T) {
	for _, tc := range []struct{ df, want float64 }{
		{10, 2.2281}, {16, 2.1199}, {30, 2.0423}, {100, 1.9840}, {1000, 1.9623},
	} {
		if got := studentT975(tc.df); math.Abs(got-tc.want) > 0.001*tc.want {
			t.Errorf("df %g: %.4f, want %.4f", tc.df, got, tc.want)
		}
	}
}

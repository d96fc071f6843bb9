package calibrate

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestUnresolvedLimitPrintedAsGiven pins the refusal's limit as the user
// wrote it: --max-unresolved 0.07 was said as "the 7.000000000000001%
// --max-unresolved 0.07 allows" (100*0.07 printed with %g).
func TestUnresolvedLimitPrintedAsGiven(t *testing.T) {
	for _, tc := range []struct {
		limit float64
		given bool
		want  string
	}{
		{0.07, true, "the 7% --max-unresolved 0.07 allows"},
		{0.29, true, "the 29% --max-unresolved 0.29 allows"},
		{0.14, true, "the 14% --max-unresolved 0.14 allows"},
		{sim.DefaultMaxUnresolved, false, "the 1% at which a run stops"},
	} {
		r := &sim.Resolution{Calls: 10, UnknownTool: 9}
		msg := (&UnresolvedError{Fit: r, Limit: tc.limit, Given: tc.given}).Error()
		if !strings.Contains(msg, tc.want) {
			t.Errorf("limit %g: message lacks %q:\n%s", tc.limit, tc.want, msg)
		}
	}
}

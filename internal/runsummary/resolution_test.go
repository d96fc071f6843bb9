package runsummary

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestInputsLineCountOfOne pins the singular on run's "inputs:" line: a
// session with one tool call printed "all 1 tool calls resolved".
func TestInputsLineCountOfOne(t *testing.T) {
	for _, tc := range []struct {
		calls    int64
		standIns int
		want     string
	}{
		{1, 0, "inputs:  all 1 tool call resolved against the catalogs, exact definitions\n"},
		{2, 0, "inputs:  all 2 tool calls resolved against the catalogs, exact definitions\n"},
		{1, 3, "inputs:  all 1 tool call resolved against the catalogs; 3 catalog tools"},
	} {
		var b strings.Builder
		Resolution(&b, &sim.ResolutionInfo{Resolution: sim.Resolution{Calls: tc.calls, Resolved: tc.calls}}, tc.standIns)
		if !strings.HasPrefix(b.String(), tc.want) {
			t.Errorf("calls %d, stand-ins %d: got %q, want it to start with %q", tc.calls, tc.standIns, b.String(), tc.want)
		}
	}
}

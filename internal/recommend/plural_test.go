package recommend

import (
	"strings"
	"testing"
)

// TestCountsOfOneSingular pins the singular in recommend's notes for a
// count of one: a proposal over one tool said "0 of 1 decisions", and a
// validation against one other strategy "than 1 of 1 strategies".
func TestCountsOfOneSingular(t *testing.T) {
	one := &Proposal{Tools: make([]Assessment, 1)}
	two := &Proposal{Tools: make([]Assessment, 2)}
	for _, tc := range []struct {
		name, got, want string
	}{
		{"uncertain line, one tool", uncertainLine(one), "0 of 1 decision at"},
		{"uncertain line, two tools", uncertainLine(two), "0 of 2 decisions at"},
		{"validation, one other strategy", (&Validation{Sessions: 1, Rows: make([]Row, 2)}).Summary(), "on 1 held-out session the proposal is no worse on cost and first reply than 0 of 1 strategy;"},
		{"validation, two other strategies", (&Validation{Sessions: 5, Rows: make([]Row, 3)}).Summary(), "than 0 of 2 strategies;"},
	} {
		if !strings.Contains(tc.got, tc.want) {
			t.Errorf("%s: got %q, want it to hold %q", tc.name, tc.got, tc.want)
		}
	}
}

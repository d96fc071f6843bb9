package nouns

import "testing"

// TestCount pins the singular for 1 and the plural otherwise ("learnt from
// 1 sessions", "sessions over 1 servers" were printed before it).
func TestCount(t *testing.T) {
	for _, tc := range []struct {
		n    int
		noun string
		want string
	}{
		{0, "server", "0 servers"},
		{1, "server", "1 server"},
		{2, "server version", "2 server versions"},
		{1, "held-out session", "1 held-out session"},
		{-1, "tool", "-1 tools"},
	} {
		if got := Count(tc.n, tc.noun); got != tc.want {
			t.Errorf("Count(%d, %q) = %q, want %q", tc.n, tc.noun, got, tc.want)
		}
	}
}

// TestCountAs pins irregular plurals: "1 strategy", "2 strategies" (Count
// would write "strategys").
func TestCountAs(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{
		{0, "0 strategies"},
		{1, "1 strategy"},
		{2, "2 strategies"},
	} {
		if got := CountAs(tc.n, "strategy", "strategies"); got != tc.want {
			t.Errorf("CountAs(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

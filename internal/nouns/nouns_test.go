package nouns

import "testing"

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		n    int
		noun string
		want string
	}{
		{0, "server", "0 servers"},
		{1, "server", "1 server"},
		{2, "server version", "2 server versions"},
		{-1, "tool", "-1 tools"},
	} {
		if got := Count(tc.n, tc.noun); got != tc.want {
			t.Errorf("Count(%d, %q) = %q, want %q", tc.n, tc.noun, got, tc.want)
		}
	}
}

package sim

import (
	"hash/fnv"
	"testing"
)

// TestHashStringIsFNV1a pins hashString to hash/fnv's FNV-1a: block hashes
// and random seeds derive from it.
func TestHashStringIsFNV1a(t *testing.T) {
	for _, s := range []string{"", "a", "\x00tool_search", "session-000123", "Grüße, 世界", string(make([]byte, 300))} {
		h := fnv.New64a()
		h.Write([]byte(s))
		if got, want := hashString(s), h.Sum64(); got != want {
			t.Errorf("hashString(%q) = %x, want %x", s, got, want)
		}
	}
}

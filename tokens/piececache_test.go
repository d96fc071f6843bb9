package tokens

import (
	"fmt"
	"testing"
)

// TestPieceCacheExact pins that the piece cache only answers for the piece
// it stored: a second piece in the same slot replaces the first, and a
// piece of another length or content never matches.
func TestPieceCacheExact(t *testing.T) {
	var c pieceCache
	a := "alpha"
	var b string // another piece in a's slot
	for i := 0; b == ""; i++ {
		if p := fmt.Sprint("p", i); slot(p) == slot(a) {
			b = p
		}
	}
	if _, ok := c.get(a); ok {
		t.Fatal("empty cache answered")
	}
	c.put(a, 3)
	if n, ok := c.get(a); !ok || n != 3 {
		t.Fatalf("get(%q) = %d, %v; want 3, true", a, n, ok)
	}
	for _, p := range []string{"alph", "alphaa", "Alpha", b} {
		if _, ok := c.get(p); ok {
			t.Errorf("get(%q) answered with %q's count", p, a)
		}
	}
	c.put(b, 7)
	if _, ok := c.get(a); ok {
		t.Errorf("get(%q) answered after %q took its slot", a, b)
	}
	if n, ok := c.get(b); !ok || n != 7 {
		t.Errorf("get(%q) = %d, %v; want 7, true", b, n, ok)
	}
}

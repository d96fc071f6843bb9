package check

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestCompactPairShortensEveryLongValue pins that a long value is shown
// compactly whatever the other side is: a value the other extends by a
// long tail (the other a prefix of it, or one short word) was printed
// whole, as was a long value of one word (no space to cut at) that
// differs past its first shownValueChars characters. Each side is now at
// most maxShown characters, and the first character that differs is
// shown on both sides.
func TestCompactPairShortensEveryLongValue(t *testing.T) {
	long := strings.Repeat("shared words here ", 6)
	tail := strings.Repeat("added tail words ", 20)
	oneWord := strings.Repeat("a,", 100)
	tests := []struct {
		name, a, b   string
		wantA, wantB string // "" to check the bound and the difference only
	}{
		{"a long tail added to a short value", "x", "x " + tail, "x", "x added tail words added tail words added tail words added tail words added tail…"},
		{"a long tail added to a long value", long, long + tail,
			"…shared words here", "…shared words here added tail words added tail words added tail words added tail words added tail…"},
		{"a long tail removed", long + tail, long,
			"…shared words here added tail words added tail words added tail words added tail words added tail…", "…shared words here"},
		{"a short value against a long other", "y", "x " + tail, "y", "x added tail words added tail words added tail words added tail words added…"},
		{"one long word differing late", oneWord + "b", oneWord + "c", "", ""},
		{"one long word extended", oneWord, oneWord + tail, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, b := compactPair(tc.a, tc.b)
			if tc.wantA != "" && (a != tc.wantA || b != tc.wantB) {
				t.Errorf("compactPair = %q, %q\nwant %q, %q", a, b, tc.wantA, tc.wantB)
			}
			for _, s := range []string{a, b} {
				if n := utf8.RuneCountInString(s); n > maxShown {
					t.Errorf("%d characters shown, want at most %d: %q", n, maxShown, s)
				}
			}
			if a == b {
				t.Errorf("both sides shown as %q: the difference is not visible", a)
			}
		})
	}
}

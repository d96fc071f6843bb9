package nouns

import "testing"

// TestAndOr pins the one joiner of lists in prose: commas between items and
// "and" (or "or") before the last, no comma before it, nothing for no
// items; four packages wrote their own copy of it before.
func TestAndOr(t *testing.T) {
	for _, tc := range []struct {
		items   []string
		and, or string
	}{
		{nil, "", ""},
		{[]string{"a"}, "a", "a"},
		{[]string{"a", "b"}, "a and b", "a or b"},
		{[]string{"a", "b", "c"}, "a, b and c", "a, b or c"},
		{[]string{"x, y", "z"}, "x, y and z", "x, y or z"},
		{[]string{"", ""}, " and ", " or "},
	} {
		if got := And(tc.items); got != tc.and {
			t.Errorf("And(%q) = %q, want %q", tc.items, got, tc.and)
		}
		if got := Or(tc.items); got != tc.or {
			t.Errorf("Or(%q) = %q, want %q", tc.items, got, tc.or)
		}
	}
}

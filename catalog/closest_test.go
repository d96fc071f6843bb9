package catalog

import (
	"slices"
	"testing"
)

// TestClosestNames pins the suggestions a name no catalog holds gets: a
// typo of a held server's name finds it, unrelated short names do not,
// nearest come first and the list is bounded.
func TestClosestNames(t *testing.T) {
	held := []string{"github", "gitlab", "web", "filesystem", "slack", "git", "mail", "maps"}
	tests := []struct {
		name string
		n    int
		want []string
	}{
		{"githb", 3, []string{"github"}},
		{"gitlab", 3, []string{"github"}}, // itself is never suggested
		{"ghost", 3, nil},
		{"wbe", 3, []string{"web"}}, // a swap is one edit
		{"bwe", 3, nil},
		{"mial", 3, []string{"mail"}}, // docs/engine.md's example
		{"wep", 3, []string{"web"}},
		{"filesytem", 3, []string{"filesystem"}},
		{"gitl", 3, []string{"git"}},
		{"gitlub", 3, []string{"github", "gitlab"}},
		{"gitlub", 1, []string{"github"}},
		{"", 3, nil},
	}
	for _, tt := range tests {
		if got := ClosestNames(tt.name, held, tt.n); !slices.Equal(got, tt.want) {
			t.Errorf("ClosestNames(%q, %d) = %q, want %q", tt.name, tt.n, got, tt.want)
		}
	}
}

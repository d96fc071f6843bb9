package search

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRegexRank(t *testing.T) {
	x := NewRegex(fiveTools, MaxRegexChars)
	tests := []struct {
		pattern string
		k       int
		want    []int
	}{
		{"_file$", 8, []int{0, 1}},
		{"FILE", 8, []int{0, 1}}, // case-insensitive
		{"^(fetch|search)$", 8, []int{3, 4}},
		{"^url$", 8, []int{3}},           // parameter name
		{"^content$", 8, []int{1}},       // nested names count, and so do parameter descriptions
		{"terms", 8, []int{4}},           // (the API reads argument descriptions): "search terms"
		{"^text$", 8, []int{1}},          // write_file's content is described "Text"
		{"indexed", 8, nil},              // the root's own description is not an argument's
		{"^fs$", 8, nil},                 // the server name is not searched
		{"text|page", 8, []int{0, 1, 3}}, // corpus order, not match quality
		{"text|page", 2, []int{0, 1}},
		{"e", 0, nil},
		{"", 8, nil},
		{"  ", 8, nil},
		{"(", 8, nil},                                  // invalid: no results
		{"(?=look)ahead", 8, nil},                      // not RE2
		{strings.Repeat("a", MaxRegexChars+1), 8, nil}, // too long
		{strings.Repeat("é", MaxRegexChars-5) + "|read", 8, []int{0}}, // 200 characters is allowed
	}
	for _, tc := range tests {
		if got := x.Rank(tc.pattern, tc.k); !cmp.Equal(tc.want, got) {
			t.Errorf("Rank(%q, %d) = %v, want %v", tc.pattern, tc.k, got, tc.want)
		}
	}
	if got := NewRegex(fiveTools, 0).Rank(strings.Repeat("a?", 300)+"read", 8); !cmp.Equal(got, []int{0}) {
		t.Errorf("no length limit: got %v", got)
	}
}

func FuzzRegexRank(f *testing.F) {
	for _, s := range []string{"_file$", "(?i)READ", "(", "[[:alpha:]]+", "a{1000}", "\\p{Han}", "x**", ""} {
		f.Add(s, 3)
	}
	x := NewRegex(fiveTools, MaxRegexChars)
	f.Fuzz(func(t *testing.T, pattern string, k int) {
		k = k%10 - 1 // -10 … 8
		got := x.Rank(pattern, k)
		if k <= 0 && got != nil {
			t.Fatalf("k = %d gave %v", k, got)
		}
		if len(got) > max(k, 0) {
			t.Fatalf("k = %d gave %d results", k, len(got))
		}
		for i, idx := range got {
			if idx < 0 || idx >= len(fiveTools) || (i > 0 && idx <= got[i-1]) {
				t.Fatalf("results %v not increasing corpus indices", got)
			}
		}
	})
}

func TestSubstringRank(t *testing.T) {
	x := NewSubstring(fiveTools)
	tests := []struct {
		query string
		k     int
		want  []int
	}{
		{"file", 8, []int{0, 1}},
		{"FILE", 8, []int{0, 1}},
		{" text ", 8, []int{0, 1}}, // trimmed
		{"read file", 8, nil},      // not a substring of "read_file"
		{"read_f", 8, []int{0}},
		{"e", 8, []int{0, 1, 2, 3, 4}},
		{"e", 3, []int{0, 1, 2}},
		{"e", 0, nil},
		{"path", 8, nil}, // parameters are not searched
		{"web", 8, []int{4}},
		{"", 8, nil},
		{"WRITE TEXT TO", 8, []int{1}},
	}
	for _, tc := range tests {
		if got := x.Rank(tc.query, tc.k); !cmp.Equal(tc.want, got) {
			t.Errorf("Rank(%q, %d) = %v, want %v", tc.query, tc.k, got, tc.want)
		}
	}
}

package sim

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode"
)

func TestKeywordQuery(t *testing.T) {
	const user = "Could you please check the weather forecast for Paris tomorrow?"
	for _, tc := range []struct {
		model, mode string
		names       bool
		user, tool  string
		want        string
	}{
		{"auto", "bm25", true, user, "get_weather_forecast", user},
		{"auto", "bm25f", true, user, "get_weather_forecast", user},
		{"auto", "routed-fused", false, user, "get_weather_forecast", user},
		{"auto", "keyword", true, user, "get_weather_forecast", "check weather forecast paris"},
		{"auto", "substring", true, user, "get_weather_forecast", "forecast"},
		{"auto", "regex", false, user, "get_weather_forecast", "forecast"}, // longest content word of the user text
		{"auto", "substring", true, "", "x", "x"},
		{"auto", "bm25", true, "", "listOpenIssues", "list open issues"},
		{"user-text", "substring", true, user, "get_weather_forecast", user},
		{"name-words", "bm25", true, user, "browser_take-screenshot", "browser take screenshot"},
	} {
		if got := keywordQuery(tc.model, tc.mode, tc.names, tc.user, tc.tool); got != tc.want {
			t.Errorf("keywordQuery(%s, %s, names=%v, %q) = %q, want %q", tc.model, tc.mode, tc.names, tc.tool, got, tc.want)
		}
	}
}

// fieldsContentWords is contentWords as it was first written (FieldsFunc
// and a map): appendContentWords must split and dedupe exactly as it did.
func fieldsContentWords(s string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if len(w) < 2 || isStopword(w) || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
}

func TestAppendContentWords(t *testing.T) {
	var long []string // more distinct words than are compared one by one, with repeats
	for i := range 3 * seenWordsAfter {
		long = append(long, fmt.Sprintf("w%d", i%(2*seenWordsAfter)), "the")
	}
	texts := []string{
		"",
		"Could you please check the weather forecast for Paris tomorrow?",
		"a b c ab AB Ab aB ab",
		"read_file, READ-file; ReadFile read.file",
		"naïve café — ÉCOLE école 東京 東京 ½ ٣٤ x9 9x",
		"bad \xff\xfe bytes\xffbetween words",
		strings.Join(long, " "),
		strings.Join(long, ", ") + " W1 w33 w0",
	}
	// One scratch map through every text, as a replayer uses it.
	var seen map[string]bool
	var dst []string
	for _, s := range texts {
		want := fieldsContentWords(s)
		if got := contentWords(s); !slices.Equal(got, want) {
			t.Errorf("contentWords(%q) = %q, want %q", s, got, want)
		}
		dst = append(dst[:0], "kept")
		dst = appendContentWords(dst, s, &seen)
		if dst[0] != "kept" || !slices.Equal(dst[1:], want) {
			t.Errorf("appendContentWords([kept], %q) = %q, want kept + %q", s, dst, want)
		}
	}
}

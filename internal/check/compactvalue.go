package check

import (
	"strings"
	"unicode/utf8"
)

// shownValueChars is how long an assumption's value may be and still be
// shown whole in a message that compares two runs; a longer value is
// shown by the part that differs from the other run's (with
// contextWords words around it), that part cut at shownValueChars, and a
// value the other run lacks by its first shownValueChars characters.
// results.json's run.assumptions holds every value whole.
const shownValueChars = 80

// contextWords is how many words of the text two values share are shown
// on each side of the part that differs.
const contextWords = 3

// contextChars is how much shared text is shown before the first
// character that differs when the two values share more of the word it
// is in (a long value of one word).
const contextChars = 20

// contextWordsChars bounds the context words on each side, in bytes (a
// long word is cut to it).
const contextWordsChars = 40

// maxShown bounds the characters a compacted value is shown with: the
// part that differs, its context on each side and the spaces between,
// each elision marked by "…".
const maxShown = shownValueChars + 2*contextWordsChars + 4

// compactPair shows two values of one assumption compactly: whole when
// both are short, else by the words that differ with contextWords words
// of the shared text around them, elided with "…"; a part that differs
// longer than shownValueChars (a long tail one value adds) is cut there,
// and when the two share the start of that part (one long word) it is
// shown from contextChars characters before the first that differs. An
// absent value is "(none)", and the other is cut at shownValueChars.
func compactPair(a, b string) (string, string) {
	switch {
	case len(a) <= shownValueChars && len(b) <= shownValueChars:
		return orNone(a), orNone(b)
	case a == "":
		return orNone(a), cut(b)
	case b == "":
		return cut(a), orNone(b)
	}
	aw, bw := strings.Split(a, " "), strings.Split(b, " ")
	p := 0
	for p < len(aw) && p < len(bw) && aw[p] == bw[p] {
		p++
	}
	s := 0
	for s < len(aw)-p && s < len(bw)-p && aw[len(aw)-1-s] == bw[len(bw)-1-s] {
		s++
	}
	am, bm := strings.Join(aw[p:len(aw)-s], " "), strings.Join(bw[p:len(bw)-s], " ")
	q := commonPrefix(am, bm)
	show := func(w []string, mid string) string {
		from, to := max(p-contextWords, 0), min(len(w)-s+contextWords, len(w))
		before, after := strings.Join(w[from:p], " "), strings.Join(w[len(w)-s:to], " ")
		head, tail := from > 0, to < len(w)
		if q > contextChars {
			// The part that differs starts with shared text: show
			// it from shortly before the first character that differs.
			mid, before, head = mid[runeStart(mid, q-contextChars):], "", true
		}
		if len(mid) > shownValueChars {
			mid, after, tail = cut(mid), "", false
		}
		if len(before) > contextWordsChars {
			before, head = before[runeStart(before, len(before)-contextWordsChars):], true
		}
		if len(after) > contextWordsChars {
			after, tail = after[:runeStart(after, contextWordsChars)], true
		}
		var parts []string
		for _, x := range []string{before, mid, after} {
			if x != "" {
				parts = append(parts, x)
			}
		}
		out := strings.Join(parts, " ")
		if head {
			out = "…" + out
		}
		if tail {
			out += "…"
		}
		return out
	}
	return show(aw, am), show(bw, bm)
}

// commonPrefix is the length in bytes of the longest common prefix of a
// and b that ends at a character boundary.
func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return runeStart(a, n)
}

// runeStart is i, moved back to the start of the character it falls in.
func runeStart(s string, i int) int {
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}

// cut shortens s to at most shownValueChars bytes at a word boundary,
// marking the cut with "…".
func cut(s string) string {
	if len(s) <= shownValueChars {
		return s
	}
	i := strings.LastIndexByte(s[:shownValueChars], ' ')
	if i <= 0 {
		i = runeStart(s, shownValueChars)
	}
	return s[:i] + "…"
}

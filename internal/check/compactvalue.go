package check

import (
	"strings"
	"unicode/utf8"
)

// shownValueChars is how long an assumption's value may be and still be
// shown whole in a message that compares two runs; a longer value is
// shown by the part that differs from the other run's (with
// contextWords words around it), and a value the other run lacks by its
// first shownValueChars characters. results.json's run.assumptions holds
// every value whole.
const shownValueChars = 80

// contextWords is how many words of the text two values share are shown
// on each side of the part that differs.
const contextWords = 3

// compactPair shows two values of one assumption compactly: whole when
// both are short, else by the words that differ with contextWords words
// of the shared text around them, elided with "…". An absent value is
// "(none)", and the other is cut at shownValueChars.
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
	show := func(w []string) string {
		head, tail := "", ""
		from, to := max(p-contextWords, 0), min(len(w)-s+contextWords, len(w))
		if from > 0 {
			head = "…"
		}
		if to < len(w) {
			tail = "…"
		}
		return head + strings.Join(w[from:to], " ") + tail
	}
	return show(aw), show(bw)
}

// cut shortens s to at most shownValueChars bytes at a word boundary,
// marking the cut with "…".
func cut(s string) string {
	if len(s) <= shownValueChars {
		return s
	}
	i := strings.LastIndexByte(s[:shownValueChars], ' ')
	if i <= 0 {
		i = shownValueChars
		for i > 0 && !utf8.RuneStart(s[i]) {
			i--
		}
	}
	return s[:i] + "…"
}

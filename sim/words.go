package sim

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// isStopword reports whether w is an English function word a model leaves
// out of a keyword query (the project's own short list).
func isStopword(w string) bool {
	switch w {
	case "a", "an", "the", "and", "or", "but", "if", "then", "so", "to", "of", "in", "on", "at", "by",
		"for", "with", "from", "into", "onto", "about", "as", "is", "are", "was", "were", "be", "been",
		"being", "do", "does", "did", "have", "has", "had", "i", "me", "my", "we", "our", "you", "your",
		"he", "she", "it", "its", "they", "them", "their", "this", "that", "these", "those", "what",
		"which", "who", "whom", "when", "where", "why", "how", "can", "could", "would", "should", "will",
		"shall", "may", "might", "must", "please", "thanks", "thank", "hi", "hello", "hey", "yes", "no",
		"not", "just", "also", "any", "some", "all", "there", "here", "up", "down", "out", "over",
		"again", "very", "more", "most", "much", "many", "one", "two", "get", "got", "let", "make",
		"want", "need", "like":
		return true
	}
	return false
}

// contentWords returns the words of s that are not stopwords, lowercased,
// in order, without repeats.
func contentWords(s string) []string {
	return appendContentWords(nil, s, nil)
}

// seenWordsAfter is how many words appendContentWords compares one by one
// before it looks repeats up in a map.
const seenWordsAfter = 16

// appendContentWords appends contentWords(s) to dst. A word is a maximal
// run of letters and digits of the lowercased text (as strings.FieldsFunc
// splits it); the words are substrings of that text. seen is scratch
// space for long texts (nil: allocate when needed).
func appendContentWords(dst []string, s string, seen *map[string]bool) []string {
	lower := strings.ToLower(s)
	start := len(dst)
	var m map[string]bool
	if seen != nil {
		m = *seen
		clear(m)
	}
	add := func(w string) {
		if len(w) < 2 || isStopword(w) {
			return
		}
		if words := dst[start:]; len(words) < seenWordsAfter {
			if slices.Contains(words, w) {
				return
			}
		} else {
			if m == nil {
				m = map[string]bool{}
			}
			if len(m) == 0 {
				for _, x := range words {
					m[x] = true
				}
			}
			if m[w] {
				return
			}
			m[w] = true
		}
		dst = append(dst, w)
	}
	from := -1 // start of the current word
	for i := 0; i < len(lower); {
		var inWord bool
		c, n := lower[i], 1
		if c < utf8.RuneSelf {
			inWord = 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || 'A' <= c && c <= 'Z'
		} else {
			var r rune
			r, n = utf8.DecodeRuneInString(lower[i:]) // RuneError (not a letter) for a bad byte, as range does
			inWord = unicode.IsLetter(r) || unicode.IsDigit(r)
		}
		if inWord {
			if from < 0 {
				from = i
			}
		} else if from >= 0 {
			add(lower[from:i])
			from = -1
		}
		i += n
	}
	if from >= 0 {
		add(lower[from:])
	}
	if seen != nil {
		if len(m) > maxReusedWords {
			m = nil // do not keep a very long text's map
		}
		clear(m)
		*seen = m
	}
	return dst
}

// nameWords splits a tool name into words (snake, kebab and camel case).
func nameWords(name string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	prevLower := false
	for _, r := range name {
		switch {
		case r == '_' || r == '-' || r == '.' || r == ' ':
			flush()
			prevLower = false
		case unicode.IsUpper(r) && prevLower:
			flush()
			cur = append(cur, r)
			prevLower = false
		default:
			cur = append(cur, r)
			prevLower = unicode.IsLower(r)
		}
	}
	flush()
	return out
}

package sim

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
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
	for i, r := range lower {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if from < 0 {
				from = i
			}
			continue
		}
		if from >= 0 {
			add(lower[from:i])
			from = -1
		}
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

// keywordQuery is the query the model writes for a needed tool when the
// trace recorded none (Params.QueryModel).
func keywordQuery(model, mode string, dirShowsNames bool, userText, tool string) string {
	words := nameWords(tool)
	return queryFor(model, mode, dirShowsNames, queryText{user: userText,
		userWords: func() []string { return contentWords(userText) },
		toolWords: words, toolQuery: strings.Join(words, " ")})
}

// queryText is what the query model reads: the latest user text and the
// needed tool's name. The replay memoises the words of both.
type queryText struct {
	user      string
	userWords func() []string // contentWords(user), called only when needed
	toolWords []string        // nameWords(tool)
	toolQuery string          // toolWords joined by spaces
}

// queryFor is keywordQuery over the words of its text.
func queryFor(model, mode string, dirShowsNames bool, t queryText) string {
	switch model {
	case "user-text":
		if t.user != "" {
			return t.user
		}
		return t.toolQuery
	case "name-words":
		return t.toolQuery
	}
	switch mode {
	case "bm25", "bm25-anthropic", "routed", "routed-hard", "bm25f", "routed-fused":
		if t.user != "" {
			return t.user
		}
	case "keyword":
		if cw := t.userWords(); len(cw) > 0 {
			return strings.Join(cw[:min(4, len(cw))], " ")
		}
	case "regex":
		return regexp.QuoteMeta(queryFor(model, "substring", dirShowsNames, t))
	default: // substring and other pattern modes: one short term
		if dirShowsNames {
			best := ""
			for _, w := range t.toolWords {
				if len(w) > len(best) {
					best = w
				}
			}
			if len(best) >= 3 {
				return best
			}
		}
		if cw := t.userWords(); len(cw) > 0 {
			best := cw[0]
			for _, w := range cw {
				if len(w) > len(best) {
					best = w
				}
			}
			return best
		}
	}
	return t.toolQuery
}

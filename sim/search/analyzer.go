package search

import (
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/english"
)

// Analyzer turns text into index terms for the fielded rankers. The zero
// value tokenises exactly as Tokenize does; each option adds one step:
//
//   - SplitIdentifiers splits words at case changes as identifiers are
//     written in camel and Pascal case ("getIssue" → get, issue;
//     "HTMLParser" → html, parser). Snake and kebab case are split by
//     Tokenize already ("_" and "-" separate words).
//   - Stopwords drops English function words (the snowball English list)
//     from documents and queries alike.
//   - Stem reduces each word of letters a–z to its snowball (Porter 2)
//     English stem ("adults" → adult, "searching" → search). Words with
//     digits or other letters, and CJK tokens, are kept as they are.
//
// CJK runs give unigrams and bigrams, as in Tokenize. An Analyzer is a value;
// a built one keeps a bounded cache of stems and is safe for concurrent
// use.
type Analyzer struct {
	SplitIdentifiers bool
	Stopwords        bool
	Stem             bool
}

// DefaultAnalyzer is the analyzer of the fielded rankers: identifiers
// split, stopwords dropped, English stems.
func DefaultAnalyzer() Analyzer {
	return Analyzer{SplitIdentifiers: true, Stopwords: true, Stem: true}
}

// stemCacheMax bounds the stems a built analyzer remembers.
const stemCacheMax = 1 << 16

// analyzer is a built Analyzer with its stem cache.
type analyzer struct {
	Analyzer
	mu    sync.RWMutex
	stems map[string]string
}

func (a Analyzer) build() *analyzer {
	return &analyzer{Analyzer: a, stems: map[string]string{}}
}

// Terms returns the terms of s, in text order (repeats kept).
func (a Analyzer) Terms(s string) []string {
	var out []string
	a.build().each(s, func(t string) { out = append(out, t) })
	return out
}

// each calls emit with every term of s.
func (a *analyzer) each(s string, emit func(string)) {
	var buf [64]byte
	eachCased(s, buf[:0], a.SplitIdentifiers, func(tok []byte, cjk bool) {
		if cjk {
			emit(string(tok))
			return
		}
		lowerASCII(tok)
		if a.Stopwords && isStopword(tok) {
			return
		}
		if a.Stem && isASCIILetters(tok) {
			emit(a.stem(tok))
			return
		}
		emit(string(tok))
	})
}

func (a *analyzer) stem(tok []byte) string {
	a.mu.RLock()
	s, ok := a.stems[string(tok)]
	a.mu.RUnlock()
	if ok {
		return s
	}
	w := string(tok)
	env := snowballstem.NewEnv(w)
	english.Stem(env)
	s = env.Current()
	a.mu.Lock()
	if len(a.stems) < stemCacheMax {
		a.stems[w] = s
	}
	a.mu.Unlock()
	return s
}

func isASCIILetters(b []byte) bool {
	for _, c := range b {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return len(b) > 0
}

// lowerASCII lower-cases b's ASCII letters in place (other runes were
// lower-cased by eachCased).
func lowerASCII(b []byte) {
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
}

// eachCased is eachToken keeping ASCII case until the word is complete, so
// that it can split identifiers at case changes (split). Non-ASCII letters
// are lower-cased as they are read. emit's slice is only valid during the
// call; cjk says the token is a CJK unigram or bigram.
func eachCased(s string, buf []byte, split bool, emit func(tok []byte, cjk bool)) {
	word := buf[:0]
	prevCJK := -1
	flush := func() {
		if len(word) == 0 {
			return
		}
		if split {
			splitCamel(word, func(part []byte) { emit(part, false) })
		} else {
			emit(word, false)
		}
		word = word[:0]
	}
	for i := 0; i < len(s); {
		r, n := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(s[i:])
		}
		switch {
		case r < utf8.RuneSelf && isWord(r):
			prevCJK = -1
			word = append(word, byte(r))
		case isCJK(r):
			flush()
			word = append(word, s[i:i+n]...)
			emit(word, true)
			word = word[:0]
			if prevCJK >= 0 {
				word = append(word, s[prevCJK:i+n]...)
				emit(word, true)
				word = word[:0]
			}
			prevCJK = i
		case isWord(r):
			prevCJK = -1
			word = utf8.AppendRune(word, unicode.ToLower(r))
		default:
			prevCJK = -1
			flush()
		}
		i += n
	}
	flush()
}

// splitCamel calls emit with the parts of an ASCII-cased word: a new part
// starts at an upper-case letter after a lower-case letter or digit
// ("getIssue", "v2Api") and at the last upper-case letter of a run followed
// by a lower-case one ("HTMLParser" → HTML, Parser). Digits stay with the
// letters before them ("base64").
func splitCamel(w []byte, emit func([]byte)) {
	start := 0
	for i := 1; i < len(w); i++ {
		c, p := w[i], w[i-1]
		upper := 'A' <= c && c <= 'Z'
		switch {
		case upper && ('a' <= p && p <= 'z' || '0' <= p && p <= '9'):
		case upper && 'A' <= p && p <= 'Z' && i+1 < len(w) && 'a' <= w[i+1] && w[i+1] <= 'z':
		default:
			continue
		}
		emit(w[start:i])
		start = i
	}
	emit(w[start:])
}

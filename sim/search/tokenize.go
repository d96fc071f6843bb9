package search

import (
	"unicode"
	"unicode/utf8"
)

// Tokenize splits s into lower-case search tokens:
//
//   - a word is a maximal run of letters, digits and combining marks
//     (Unicode categories L, N and M) that are not CJK; it is lower-cased
//     rune by rune (unicode.ToLower) and emitted whole. Everything else —
//     spaces, punctuation, symbols, "_", "-", "." — separates words, so
//     "read_file" is "read" + "file". Case changes do not split
//     ("getIssue" is one token, "getissue"); nothing is stemmed.
//   - a CJK run (Han, Hiragana, Katakana, Hangul) is emitted as its
//     single characters (unigrams) and every pair of adjacent characters
//     (bigrams): "文件夹" gives 文, 件, 文件, 夹, 件夹.
//
// Tokens come out in text order (a bigram right after its second
// character). Tokenize never fails; invalid UTF-8 bytes separate words.
func Tokenize(s string) []string {
	return appendTokens(nil, s)
}

// appendTokens appends the tokens of s to dst.
func appendTokens(dst []string, s string) []string {
	var buf [64]byte
	eachToken(s, buf[:0], func(tok []byte) { dst = append(dst, string(tok)) })
	return dst
}

// firstCJK is below every rune of the CJK scripts (Hangul Jamo, U+1100).
const firstCJK = 0x1100

// isCJK reports a rune of a script written without spaces between words.
func isCJK(r rune) bool {
	return r >= firstCJK && unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// isWord reports a rune that belongs to a (non-CJK) word.
func isWord(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r))
}

// eachToken calls emit with each token of s (see Tokenize). The slice
// passed to emit is only valid during the call; buf is scratch space.
func eachToken(s string, buf []byte, emit func(tok []byte)) {
	word := buf[:0]
	prevCJK := -1 // byte offset of the previous rune when it was CJK
	flush := func() {
		if len(word) > 0 {
			emit(word)
			word = word[:0]
		}
	}
	for i := 0; i < len(s); {
		r, n := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(s[i:])
		}
		switch {
		case r < utf8.RuneSelf && isWord(r):
			prevCJK = -1
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
			word = append(word, byte(r))
		case isCJK(r):
			flush()
			word = append(word, s[i:i+n]...)
			emit(word)
			word = word[:0]
			if prevCJK >= 0 {
				word = append(word, s[prevCJK:i+n]...)
				emit(word)
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

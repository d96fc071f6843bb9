package search

import (
	"strings"
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

// isCJK reports a rune of a script written without spaces between words.
func isCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// isWord reports a rune that belongs to a (non-CJK) word.
func isWord(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r))
}

// appendTokens appends the tokens of s to dst.
func appendTokens(dst []string, s string) []string {
	var word strings.Builder
	flush := func() {
		if word.Len() > 0 {
			dst = append(dst, word.String())
			word.Reset()
		}
	}
	prevCJK := -1 // byte offset of the previous rune when it was CJK
	for i, r := range s {
		switch {
		case isCJK(r):
			flush()
			n := utf8.RuneLen(r)
			dst = append(dst, s[i:i+n])
			if prevCJK >= 0 {
				dst = append(dst, s[prevCJK:i+n])
			}
			prevCJK = i
		case isWord(r):
			prevCJK = -1
			word.WriteRune(unicode.ToLower(r))
		default:
			prevCJK = -1
			flush()
		}
	}
	flush()
	return dst
}

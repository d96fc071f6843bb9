package tokens

import (
	"unicode"
	"unicode/utf8"
)

// The pre-tokenisers below cut text into the pieces that the BPE then
// encodes, exactly as the split patterns of o200k_base and cl100k_base do
// when run by a backtracking regular-expression engine (the engine
// tiktoken-go uses): at each position the pattern's alternatives are tried
// in order and the first that matches, with its quantifiers as greedy as
// the rest of the alternative allows, gives the piece. Each alternative is
// one function here that resolves its backtracking directly, so a piece
// costs a scan of its characters instead of a regex run. Character classes
// use Go's unicode tables, as the regex engine does (\s is
// unicode.IsSpace, \p{X} is unicode category X). FuzzCountMatchesReference
// compares the whole count with tiktoken-go on arbitrary text.

// Character class bits of one rune.
const (
	cLetter  = 1 << iota // \p{L}
	cNumber              // \p{N}
	cUpper               // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]: a word's leading run (o200k)
	cLower               // [\p{Ll}\p{Lm}\p{Lo}\p{M}]: a word's trailing run (o200k)
	cSpace               // \s
	cNewline             // [\r\n]
)

// cMulti marks, in byteClass, a byte that starts or continues a multi-byte
// rune: its class needs the whole rune.
const cMulti = 1 << 7

// byteClass holds the class bits of the 128 ASCII runes, and cMulti for
// every other byte.
var byteClass = func() (t [256]uint8) {
	for b := range 256 {
		if b < utf8.RuneSelf {
			t[b] = slowClass(rune(b))
		} else {
			t[b] = cMulti
		}
	}
	return t
}()

// slowClass computes the class bits of r from the unicode tables.
func slowClass(r rune) uint8 {
	var c uint8
	if unicode.IsLetter(r) {
		c |= cLetter
	}
	if unicode.IsNumber(r) {
		c |= cNumber
	}
	mark := unicode.IsMark(r)
	if mark || unicode.In(r, unicode.Lu, unicode.Lt, unicode.Lm, unicode.Lo) {
		c |= cUpper
	}
	if mark || unicode.In(r, unicode.Ll, unicode.Lm, unicode.Lo) {
		c |= cLower
	}
	if unicode.IsSpace(r) {
		c |= cSpace
	}
	if r == '\r' || r == '\n' {
		c |= cNewline
	}
	return c
}

// classAt returns the class bits and byte width of the rune at s[i]
// (i < len(s); s is valid UTF-8).
func classAt(s string, i int) (uint8, int) {
	if c := byteClass[s[i]]; c != cMulti {
		return c, 1
	}
	return classAtSlow(s, i)
}

// classAtSlow is classAt for a non-ASCII rune (kept out of classAt so that
// classAt is inlined).
func classAtSlow(s string, i int) (uint8, int) {
	r, w := utf8.DecodeRuneInString(s[i:])
	return slowClass(r), w
}

// run returns the end of the longest run of runes from i whose class has
// any bit of want.
func run(s string, i int, want uint8) int {
	for i < len(s) {
		if c := byteClass[s[i]]; c != cMulti { // ASCII, inline
			if c&want == 0 {
				break
			}
			i++
			continue
		}
		c, w := classAtSlow(s, i)
		if c&want == 0 {
			break
		}
		i += w
	}
	return i
}

// notLetterNumberNewline reports whether c is in [^\r\n\p{L}\p{N}], the
// optional character before a word.
func notLetterNumberNewline(c uint8) bool { return c&(cLetter|cNumber|cNewline) == 0 }

// punct reports whether c is in [^\s\p{L}\p{N}].
func punct(c uint8) bool { return c&(cSpace|cLetter|cNumber) == 0 }

// contraction returns the end of (?i:'s|'t|'re|'ve|'m|'ll|'d) at i, or -1.
// Only ASCII letters lower-case to these letters, so the comparison is on
// bytes.
func contraction(s string, i int) int {
	if i+1 >= len(s) || s[i] != '\'' {
		return -1
	}
	switch s[i+1] | 0x20 {
	case 's', 't', 'm', 'd':
		return i + 2
	case 'r', 'v':
		if i+2 < len(s) && s[i+2]|0x20 == 'e' {
			return i + 3
		}
	case 'l':
		if i+2 < len(s) && s[i+2]|0x20 == 'l' {
			return i + 3
		}
	}
	return -1
}

// optContraction is contraction(s, i) when it matches, else i.
func optContraction(s string, i int) int {
	if e := contraction(s, i); e >= 0 {
		return e
	}
	return i
}

// numbers is \p{N}{1,3} at i, or -1.
func numbers(s string, i int) int {
	j := i
	for range 3 {
		if j >= len(s) {
			break
		}
		c, w := byteClass[s[j]], 1 // classAt, with its ASCII path inline
		if c == cMulti {
			c, w = classAtSlow(s, j)
		}
		if c&cNumber == 0 {
			break
		}
		j += w
	}
	if j == i {
		return -1
	}
	return j
}

// punctRun is ` ?[^\s\p{L}\p{N}]+` followed by `[tail]*` (tail: bytes) at
// i, or -1.
func punctRun(s string, i int, tail string) int {
	q := i
	if s[i] == ' ' {
		q = i + 1 // a space is not punctuation: without it there is no match
	}
	if q >= len(s) {
		return -1
	}
	if c, _ := classAt(s, q); !punct(c) {
		return -1
	}
	j := q
	for j < len(s) {
		c, w := byteClass[s[j]], 1 // classAt, with its ASCII path inline
		if c == cMulti {
			c, w = classAtSlow(s, j)
		}
		if !punct(c) {
			break
		}
		j += w
	}
	for j < len(s) && containsByte(tail, s[j]) {
		j++
	}
	return j
}

func containsByte(s string, b byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == b {
			return true
		}
	}
	return false
}

// spaceNewlines is `\s*[\r\n]+` at i, or -1: the whitespace up to and
// including the run's last line break.
func spaceNewlines(s string, i int) int {
	_, end := runMarked(s, i, cSpace, cNewline)
	return end
}

// runMarked returns the end of the longest run of runes from i whose class
// has a bit of want, and the end of the last rune in that run whose class
// also has a bit of mark (-1 if none).
func runMarked(s string, i int, want, mark uint8) (end, lastMark int) {
	lastMark = -1
	for i < len(s) {
		c, w := byteClass[s[i]], 1 // classAt, with its ASCII path inline
		if c == cMulti {
			c, w = classAtSlow(s, i)
		}
		if c&want == 0 {
			break
		}
		i += w
		if c&mark != 0 {
			lastMark = i
		}
	}
	return i, lastMark
}

// spaces is `\s+(?!\S)|\s+` at i, or -1: a whitespace run, less its last
// character when a non-space follows and the run has more than one.
func spaces(s string, i int) int {
	j, last := i, i
	for j < len(s) {
		c, w := byteClass[s[j]], 1 // classAt, with its ASCII path inline
		if c == cMulti {
			c, w = classAtSlow(s, j)
		}
		if c&cSpace == 0 {
			break
		}
		last = j
		j += w
	}
	switch {
	case j == i:
		return -1
	case j == len(s) || last == i:
		return j
	default:
		return last
	}
}

// o200kNext returns the end of the o200k_base piece that starts at i.
func o200kNext(s string, i int) int {
	c0, w0 := byteClass[s[i]], 1 // classAt, with its ASCII path inline
	if c0 == cMulti {
		c0, w0 = classAtSlow(s, i)
	}
	// [^\r\n\p{L}\p{N}]?[U]*[W]+'x? then [^\r\n\p{L}\p{N}]?[U]+[W]*'x?
	// Both need a [U] or [W] character (every letter is one) at i, or
	// after the optional leading character: skip them otherwise.
	if c0&(cUpper|cLower) != 0 || notLetterNumberNewline(c0) && wordAt(s, i+w0) {
		if notLetterNumberNewline(c0) {
			if e := o200kLowerWord(s, i+w0); e >= 0 {
				return e
			}
		}
		if e := o200kLowerWord(s, i); e >= 0 {
			return e
		}
		if notLetterNumberNewline(c0) {
			if e := o200kUpperWord(s, i+w0); e >= 0 {
				return e
			}
		}
		if e := o200kUpperWord(s, i); e >= 0 {
			return e
		}
	}
	return rest(s, i, c0, w0, "\r\n/")
}

// rest tries the alternatives both patterns share after the word ones:
// \p{N}{1,3}, punctuation (with tail), line breaks, spaces.
func rest(s string, i int, c0 uint8, w0 int, tail string) int {
	if c0&cNumber != 0 {
		return numbers(s, i)
	}
	if e := punctRun(s, i, tail); e >= 0 {
		return e
	}
	if c0&cSpace != 0 {
		if e := spaceNewlines(s, i); e >= 0 {
			return e
		}
		return spaces(s, i)
	}
	return i + w0 // unreachable for valid text: every rune is in some class
}

// wordAt reports whether the rune at i (if any) is in [U] or [W].
func wordAt(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	c, _ := classAt(s, i)
	return c&(cUpper|cLower) != 0
}

// o200kLowerWord is [U]*[W]+ and an optional contraction at i, or -1. The
// greedy [U]* gives back characters until [W]+ can start: either right
// after the [U] run, or at its last character that is also in [W].
func o200kLowerWord(s string, i int) int {
	j, lastW := runMarked(s, i, cUpper, cLower)
	if j < len(s) {
		if c, _ := classAt(s, j); c&cLower != 0 {
			return optContraction(s, run(s, j, cLower))
		}
	}
	if lastW >= 0 {
		return optContraction(s, lastW)
	}
	return -1
}

// o200kUpperWord is [U]+[W]* and an optional contraction at i, or -1.
func o200kUpperWord(s string, i int) int {
	if i >= len(s) {
		return -1
	}
	j := run(s, i, cUpper)
	if j == i {
		return -1
	}
	return optContraction(s, run(s, j, cLower))
}

// cl100kNext returns the end of the cl100k_base piece that starts at i.
func cl100kNext(s string, i int) int {
	if e := contraction(s, i); e >= 0 {
		return e
	}
	c0, w0 := byteClass[s[i]], 1 // classAt, with its ASCII path inline
	if c0 == cMulti {
		c0, w0 = classAtSlow(s, i)
	}
	// [^\r\n\p{L}\p{N}]?\p{L}+
	if notLetterNumberNewline(c0) && i+w0 < len(s) {
		if c1, _ := classAt(s, i+w0); c1&cLetter != 0 {
			return run(s, i+w0, cLetter)
		}
	}
	if c0&cLetter != 0 {
		return run(s, i, cLetter)
	}
	return rest(s, i, c0, w0, "\r\n")
}

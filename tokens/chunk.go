package tokens

import "unicode/utf8"

// Long inputs are counted in chunks. tiktoken-go's byte-pair merge is
// quadratic in the length of one pre-tokenised piece, so a run of tens of
// kilobytes without a word break (a padded field, a base64 blob of zeros,
// a line of '=') would take minutes to hours. Chunks end at piece
// boundaries, where the counts add up exactly; only a run longer than
// maxRun bytes without one is cut inside, which may count a token or two
// more than the whole run would.
const (
	// chunkBytes is the size at which a chunk ends at the next boundary.
	chunkBytes = 4096
	// maxRun is the longest stretch without a boundary counted whole.
	maxRun = 256
)

// countChunks returns the sum of count over the chunks of b (one chunk when
// b is at most maxRun bytes); s holds b's bytes as a string, and count is
// given substrings of it.
func countChunks(b []byte, s string, count func(string) int) int64 {
	if len(b) <= maxRun {
		return int64(count(s))
	}
	var n int64
	off := 0
	chunks(b, func(c []byte) {
		n += int64(count(s[off : off+len(c)]))
		off += len(c)
	})
	return n
}

// chunks calls f with consecutive pieces of b that together are b.
func chunks(b []byte, f func([]byte)) {
	start, last := 0, 0 // chunk start; last boundary or cut
	for i := 1; i < len(b); i++ {
		if boundaryAt(b, i) {
			if i-start >= chunkBytes {
				f(b[start:i])
				start = i
			}
			last = i
			continue
		}
		if i-last >= maxRun && utf8.RuneStart(b[i]) {
			f(b[start:i])
			start, last = i, i
		}
	}
	f(b[start:])
}

// isBoundary reports whether no piece of the o200k_base or cl100k_base
// pre-tokeniser spans position i of b, and the piece after i starts there
// whatever precedes it. Only ASCII is classified:
//
//   - a space between two non-space bytes (a space only starts a piece);
//   - a letter or digit after a newline;
//   - between a letter and a digit, either way (no piece holds both);
//   - after a letter or digit, before punctuation other than an apostrophe
//     (a word piece ends there; "'s" and the like continue it);
//   - after punctuation, before a digit.
//
// Punctuation before a letter is not a boundary: it starts the word's piece.
func isBoundary(b []byte, i int) bool {
	p, c := b[i-1], b[i]
	switch {
	case c == ' ':
		return !isSpace(p) && i+1 < len(b) && !isSpace(b[i+1])
	case p == '\n':
		return isLetter(c) || isDigit(c)
	case isLetter(p):
		return isDigit(c) || isPunct(c) && c != '\''
	case isDigit(p):
		return isLetter(c) || isPunct(c)
	case isPunct(p):
		return isDigit(c)
	}
	return false
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isPunct(c byte) bool  { return c > ' ' && c < 0x7f && !isLetter(c) && !isDigit(c) }

// boundaryAt is isBoundary through tables: the byte pair's classes give
// the answer, or say that it depends on the byte after i (a space).
func boundaryAt(b []byte, i int) bool {
	switch boundaryTable[boundaryClass[b[i-1]]][boundaryClass[b[i]]] {
	case bYes:
		return true
	case bIfNextNotSpace:
		return i+1 < len(b) && !isSpace(b[i+1])
	}
	return false
}

// Byte classes for boundaryAt: isBoundary treats the bytes of a class
// alike (TestBoundaryTableMatchesDefinition checks every pair).
const (
	bcOther = iota
	bcSpace
	bcNewline
	bcBlank // other white space
	bcLetter
	bcDigit
	bcApostrophe
	bcPunct
	numBoundaryClasses
)

// Answers in boundaryTable.
const (
	bNo = iota
	bYes
	bIfNextNotSpace
)

var boundaryClass = func() (t [256]uint8) {
	for c := range 256 {
		b := byte(c)
		switch {
		case b == ' ':
			t[c] = bcSpace
		case b == '\n':
			t[c] = bcNewline
		case isSpace(b):
			t[c] = bcBlank
		case isLetter(b):
			t[c] = bcLetter
		case isDigit(b):
			t[c] = bcDigit
		case b == '\'':
			t[c] = bcApostrophe
		case isPunct(b):
			t[c] = bcPunct
		default:
			t[c] = bcOther
		}
	}
	return t
}()

// boundaryTable is isBoundary evaluated on one byte of each class (a
// space's answer depends on the next byte: bIfNextNotSpace).
var boundaryTable = func() (t [numBoundaryClasses][numBoundaryClasses]uint8) {
	var rep [numBoundaryClasses]byte
	for c := 255; c >= 0; c-- { // the lowest byte of each class
		rep[boundaryClass[c]] = byte(c)
	}
	for p := range numBoundaryClasses {
		for c := range numBoundaryClasses {
			switch {
			case c == bcSpace && isBoundary([]byte{rep[p], ' ', 'x'}, 1):
				t[p][c] = bIfNextNotSpace
			case isBoundary([]byte{rep[p], rep[c]}, 1):
				t[p][c] = bYes
			}
		}
	}
	return t
}()

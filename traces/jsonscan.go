package traces

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// This file holds the JSON scanning primitives of the layout decoder
// (layout.go). Each works on one line at an offset and returns the offset
// after what it scanned, or -1 when the input is not what it accepts. -1
// does not mean the JSON is invalid, only that the fast path declines: the
// line then goes to the general decoders, which decide and explain.

// maxSkipDepth bounds the nesting the scanner follows inside skipped
// values (args, unknown fields); deeper lines go to the general decoders.
const maxSkipDepth = 512

// skipWS returns the offset of the first byte at or after i that is not
// JSON whitespace.
func skipWS(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// scanString scans the JSON string starting at b[i] (which must be '"').
// It returns the offset after the closing quote and whether the string
// holds an escape sequence, or -1 when the string is not valid JSON (a
// control character, a bad escape, no closing quote) or not valid UTF-8.
// Since bytes above 0x7F can only be inside strings, a line whose every
// string scanString accepts is valid UTF-8 (and, as control characters are
// refused, holds no NUL byte).
func scanString(b []byte, i int) (end int, escaped bool) {
	if i >= len(b) || b[i] != '"' {
		return -1, false
	}
	i++
	for i < len(b) {
		// Eight bytes at a time while none of them ends the string, starts
		// an escape, is a control character or is above 0x7F; then straight
		// to the first that does.
		if i+8 <= len(b) {
			k := firstSpecial(binary.LittleEndian.Uint64(b[i:]))
			if i += k; k == 8 {
				continue
			}
		}
		c := b[i]
		switch {
		case c == '"':
			return i + 1, escaped
		case c == '\\':
			escaped = true
			if i+1 >= len(b) {
				return -1, false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) || !isHex4(b[i+2:i+6]) {
					return -1, false
				}
				i += 6
			default:
				return -1, false
			}
		case c < 0x20:
			return -1, false
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				return -1, false
			}
			i += size
		default:
			i++
		}
	}
	return -1, false
}

// firstSpecial returns the index of the first of the eight bytes of w
// (little-endian: the first in memory is the lowest) that is '"', '\\',
// below 0x20 or above 0x7F, or 8 when none is. It uses the classic SWAR
// tests for a zero byte and for a byte below n, whose lowest flagged byte
// is always a match (a borrow only flags bytes above a true match).
func firstSpecial(w uint64) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	quote := w ^ (ones * '"')
	backslash := w ^ (ones * '\\')
	return bits.TrailingZeros64(((quote-ones)&^quote|(backslash-ones)&^backslash|(w-ones*0x20)&^w|w)&highs) / 8
}

func isHex4(h []byte) bool {
	for _, c := range h[:4] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func hex4(h []byte) rune {
	var r rune
	for _, c := range h[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		default:
			c = c - 'A' + 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

// unescape writes the content of the JSON string body s (between its
// quotes, already checked by scanString) to sb, resolving escapes. It
// reports false for a \u escape of a UTF-16 surrogate, which the fast path
// leaves to the general decoders (they replace a lone one by U+FFFD).
func unescape(sb *strings.Builder, s []byte) bool {
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			j := i + 1
			for j < len(s) && s[j] != '\\' {
				j++
			}
			sb.Write(s[i:j])
			i = j
			continue
		}
		switch s[i+1] {
		case 'b':
			sb.WriteByte('\b')
		case 'f':
			sb.WriteByte('\f')
		case 'n':
			sb.WriteByte('\n')
		case 'r':
			sb.WriteByte('\r')
		case 't':
			sb.WriteByte('\t')
		case 'u':
			r := hex4(s[i+2:])
			if utf16.IsSurrogate(r) {
				return false
			}
			sb.WriteRune(r)
			i += 6
			continue
		default: // '"', '\\', '/'
			sb.WriteByte(s[i+1])
		}
		i += 2
	}
	return true
}

// scanNumber scans a JSON number at b[i] and returns the offset after it
// and whether it is an integer (no fraction, no exponent).
func scanNumber(b []byte, i int) (end int, integer bool) {
	start := i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		return -1, false
	}
	integer = true
	if i < len(b) && b[i] == '.' {
		integer = false
		i++
		d := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == d {
			return -1, false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		integer = false
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		d := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == d {
			return -1, false
		}
	}
	if i == start {
		return -1, false
	}
	return i, integer
}

// parseInt parses the JSON integer b[i:end] (as scanNumber found it) into
// an int64; it reports false when it has a fraction or exponent or does
// not fit.
func parseInt(b []byte) (int64, bool) {
	neg := false
	if len(b) > 0 && b[0] == '-' {
		neg, b = true, b[1:]
	}
	if len(b) == 0 || len(b) > 18 { // 18 digits always fit; longer: the general decoders
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// skipLiteral scans the literal lit (true, false or null) at b[i].
func skipLiteral(b []byte, i int, lit string) int {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return -1
	}
	return i + len(lit)
}

// keyStack holds the keys of the objects being decoded or scanned,
// innermost last, so that a key repeated in one object is found: the
// layout decoder then declines the line, and the general path reports the
// duplicate (dupkeys.go). It compares keys as findDuplicateKey does: keys
// of the event, of usage and of a server entry without regard to ASCII
// case, keys inside content (args, x_ values) exactly.
type keyStack struct {
	b    []byte // the line
	keys [maxObjectKeys]struct{ off, end uint32 }
	n    int
}

// maxObjectKeys bounds the keys the stack holds; a line with more open at
// once goes to the general path.
const maxObjectKeys = 64

// objectKeys is one object's part of a keyStack.
type objectKeys struct {
	start int
	seen  uint64 // a bit per key, by keyBit: a key whose bit is clear is new
}

func (ks *keyStack) open() objectKeys    { return objectKeys{start: ks.n} }
func (ks *keyStack) close(o *objectKeys) { ks.n = o.start }

// add records the key ks.b[off:end] (as written; it has no escapes) in the
// object o and reports false when o already has it, or when the stack is
// full.
func (ks *keyStack) add(o *objectKeys, off, end int, fold bool) bool {
	key := ks.b[off:end]
	bit := keyBit(key)
	if o.seen&bit != 0 {
		for _, k := range ks.keys[o.start:ks.n] {
			prev := ks.b[k.off:k.end]
			if len(prev) == len(key) && (string(prev) == string(key) || fold && bytes.EqualFold(prev, key)) {
				return false
			}
		}
	}
	if ks.n == maxObjectKeys {
		return false
	}
	o.seen |= bit
	ks.keys[ks.n] = struct{ off, end uint32 }{uint32(off), uint32(end)}
	ks.n++
	return true
}

// keyBit hashes a key's length and its first and last bytes, lower-cased
// (so that keys equal without regard to case have the same bit).
func keyBit(key []byte) uint64 {
	h := uint(len(key))
	if len(key) > 0 {
		h = h*31 + uint(key[0]|0x20)
		h = h*31 + uint(key[len(key)-1]|0x20)
	}
	return 1 << (h & 63)
}

// skipValue scans any JSON value at b[i] (whitespace before it already
// skipped) and returns the offset after it, checking its syntax and that
// no object in it repeats a key (-1 otherwise, or for a key with escapes).
func skipValue(b []byte, i, depth int, ks *keyStack) int {
	if i >= len(b) {
		return -1
	}
	switch c := b[i]; {
	case c == '"':
		end, _ := scanString(b, i)
		return end
	case c == '{':
		if depth >= maxSkipDepth {
			return -1
		}
		i = skipWS(b, i+1)
		if i < len(b) && b[i] == '}' {
			return i + 1
		}
		o := ks.open()
		for {
			end, escaped := scanString(b, i)
			if end < 0 || escaped || !ks.add(&o, i+1, end-1, false) {
				return -1
			}
			if i = skipWS(b, end); i >= len(b) || b[i] != ':' {
				return -1
			}
			if i = skipValue(b, skipWS(b, i+1), depth+1, ks); i < 0 {
				return -1
			}
			i = skipWS(b, i)
			if i >= len(b) {
				return -1
			}
			if b[i] == '}' {
				ks.close(&o)
				return i + 1
			}
			if b[i] != ',' {
				return -1
			}
			i = skipWS(b, i+1)
		}
	case c == '[':
		if depth >= maxSkipDepth {
			return -1
		}
		i = skipWS(b, i+1)
		if i < len(b) && b[i] == ']' {
			return i + 1
		}
		for {
			if i = skipValue(b, i, depth+1, ks); i < 0 {
				return -1
			}
			i = skipWS(b, i)
			if i >= len(b) {
				return -1
			}
			if b[i] == ']' {
				return i + 1
			}
			if b[i] != ',' {
				return -1
			}
			i = skipWS(b, i+1)
		}
	case c == 't':
		return skipLiteral(b, i, "true")
	case c == 'f':
		return skipLiteral(b, i, "false")
	case c == 'n':
		return skipLiteral(b, i, "null")
	default:
		end, _ := scanNumber(b, i)
		return end
	}
}

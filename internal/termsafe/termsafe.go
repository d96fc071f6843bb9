// Package termsafe makes names that come from inputs (tool, server and
// session names of traces and catalogs) safe to print on a terminal and in
// a text table: control characters (C0 including newline, tab and ESC,
// DEL, C1), Unicode bidirectional overrides and bytes that are not UTF-8
// are written as Go-style escapes (\n, \t, \x1b, \u202e), so a name
// cannot move the cursor, recolour or clear the screen, forge a line of
// output or break a table's columns. A name without such characters is
// returned as it is.
package termsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Lines is String applied to each line of s: the line breaks stay, every
// other unsafe character is escaped. For messages built of several lines
// that quote input (an error listing refusals, one per line).
func Lines(s string) string {
	if !needsEscape(s) {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = String(l)
	}
	return strings.Join(lines, "\n")
}

// String returns s with every unsafe character escaped.
func String(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// Strings returns the escaped form of every element of ss (ss itself when
// none needs escaping).
func Strings(ss []string) []string {
	for i, s := range ss {
		if needsEscape(s) {
			out := make([]string, len(ss))
			copy(out, ss[:i])
			for j := i; j < len(ss); j++ {
				out[j] = String(ss[j])
			}
			return out
		}
	}
	return ss
}

func needsEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c >= utf8.RuneSelf {
			if c < utf8.RuneSelf {
				return true
			}
			for _, r := range s[i:] {
				if r == utf8.RuneError || r < 0x20 || r == 0x7f || unsafeRune(r) {
					return true
				}
			}
			return !utf8.ValidString(s)
		}
	}
	return false
}

// unsafeRune reports C1 controls and the bidirectional formatting
// characters (embeddings, overrides, isolates, marks).
func unsafeRune(r rune) bool {
	return r >= 0x80 && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 ||
		r == 0x200e || r == 0x200f || r == 0x061c
}

package srd

import (
	"strings"
	"testing"
	"unicode/utf16"
)

// TestParseSyntaxErrorLine pins the line of a JSON SRD's syntax error to
// the line holding it, in UTF-8 and in UTF-16 (which the YAML reader takes
// and NotUTF8 lets through): the YAML library counts a parser error's line
// from 0, so `"summary": "a" "b"` on line 5, after two blank lines, was
// reported on line 4, a blank line. A .json file's syntax error is now
// JSON's own (NotJSON), on the same line.
func TestParseSyntaxErrorLine(t *testing.T) {
	src := "{\"srd_version\": 1,\n\"server_id\": \"acme\",\n\n\n\"summary\": \"a\" \"b\"\n}\n"
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"UTF-8", []byte(src)},
		{"UTF-16LE with BOM", utf16LE(src)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, probs := Parse("f.json", tc.data)
			if len(probs) != 1 {
				t.Fatalf("problems = %v, want one", probs)
			}
			if got := probs[0].String(); !strings.HasPrefix(got, "f.json:5: invalid JSON: invalid character '\"' after object key:value pair at column 16") {
				t.Errorf("problem = %q, want it on line 5", got)
			}
		})
	}
}

func utf16LE(s string) []byte {
	out := []byte{0xFF, 0xFE}
	for _, u := range utf16.Encode([]rune(s)) {
		out = append(out, byte(u), byte(u>>8))
	}
	return out
}

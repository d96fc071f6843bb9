package catalog

import (
	"strings"
	"testing"
	"unicode/utf16"
)

// TestParseNamesTheEncodingAndTheFix pins the errors for a catalog that is
// not UTF-8: a UTF-16 file (what Windows PowerShell's > writes), with or
// without its byte order mark, is named as UTF-16 with the fix, where it
// was "invalid UTF-8 at byte offset 0" or "invalid character '\x00'"; an
// invalid UTF-8 byte is given with its line and how to re-encode the file.
func TestParseNamesTheEncodingAndTheFix(t *testing.T) {
	doc := `{"tools":[{"name":"greet","description":"Say hello.","inputSchema":{"type":"object"}}]}`
	le := func(bom bool) string {
		var b []byte
		if bom {
			b = []byte{0xff, 0xfe}
		}
		for _, u := range utf16.Encode([]rune(doc)) {
			b = append(b, byte(u), byte(u>>8))
		}
		return string(b)
	}
	be := func(bom bool) string {
		var b []byte
		if bom {
			b = []byte{0xfe, 0xff}
		}
		for _, u := range utf16.Encode([]rune(doc)) {
			b = append(b, byte(u>>8), byte(u))
		}
		return string(b)
	}
	tests := []struct {
		name, in, want string
	}{
		{"utf-16le with bom", le(true), "the file is UTF-16 little-endian (byte order mark FF FE), not UTF-8 (as Windows PowerShell's > and Out-File write): a catalog is JSON, which is UTF-8; re-save it as UTF-8"},
		{"utf-16be with bom", be(true), "the file is UTF-16 big-endian (byte order mark FE FF), not UTF-8"},
		{"utf-16le without bom", le(false), "the file is UTF-16 little-endian, not UTF-8"},
		{"utf-16be without bom", be(false), "the file is UTF-16 big-endian, not UTF-8"},
		{"latin-1 on line 3", "{\"tools\":[\n{\"name\":\"a\",\n\"description\":\"caf\xe9\"}]}", "invalid UTF-8 at byte offset 42 (line 3): a catalog is JSON, which is UTF-8; re-encode the file as UTF-8"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.in), "srv", "1", "")
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("error = %v, want it to start with %q", err, tc.want)
			}
		})
	}
	if s, err := Parse([]byte(doc), "srv", "1", ""); err != nil || len(s.Tools) != 1 {
		t.Fatalf("the same catalog in UTF-8: %v", err)
	}
}

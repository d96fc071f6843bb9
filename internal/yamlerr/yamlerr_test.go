package yamlerr

import (
	"errors"
	"strconv"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestLocate pins the line of a YAML syntax error to the line an editor
// shows: the library gave a parser error's line counted from 0 (a JSON
// file's `"b": "x" "y"` on line 3 was reported on line 2, a flow sequence
// left open on line 2 on line 1, an error on the first line on none),
// while its scanner errors, counted from 1, stay as they were; an error
// found at the end of the file is on its last line.
func TestLocate(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		line     int
		msg      string
	}{
		{"JSON, two strings in a row", "{\n\"a\": 1,\n\"b\": \"x\" \"y\"\n}\n", 3, "did not find expected ',' or '}'"},
		{"JSON, blank lines before the error", "{\n\"a\": 1,\n\n\n\"b\": \"x\" \"y\"\n}\n", 5, "did not find expected ',' or '}'"},
		{"JSON, comma missing", "{\n\"a\": 1\n\"b\": 2\n}\n", 3, "did not find expected ',' or '}'"},
		{"JSON on one line", "{\"a\": 1, \"b\": \"x\" \"y\"}\n", 1, "did not find expected ',' or '}'"},
		{"flow sequence left open: its line", "a: 1\nb: [1, 2\nc: 3\n", 2, "did not find expected ',' or ']'"},
		{"key expected", "a: 1\nb:\n  - x\n y: 2\n", 4, "did not find expected key"},
		{"scanner error, already 1-based", "a: 1\nb: 2\n  c: 3\n", 3, "mapping values are not allowed in this context"},
		{"scanner error on line 1", "a: b: c\n", 1, "mapping values are not allowed in this context"},
		{"bracket never closed: the last line, not the one after", "a: 1\nb: [x\n\n", 2, "did not find expected ',' or ']'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var n yaml.Node
			err := yaml.Unmarshal([]byte(tc.in), &n)
			if err == nil {
				t.Fatal("no error")
			}
			line, msg := Locate(err, []byte(tc.in))
			if line != tc.line || msg != tc.msg {
				t.Errorf("Locate(%q) = %d, %q; want %d, %q", err, line, msg, tc.line, tc.msg)
			}
			fixed := Fix(err, []byte(tc.in))
			if want := "yaml: line " + strconv.Itoa(tc.line) + ": " + tc.msg; fixed.Error() != want {
				t.Errorf("Fix = %q, want %q", fixed, want)
			}
			if !errors.Is(fixed, err) {
				t.Error("Fix does not wrap the library's error")
			}
		})
	}
}

// TestFixKeepsOtherErrors pins that an error that is no syntax error (a
// decode's type error, numbered from 1 by the library; nil) is returned
// as it was.
func TestFixKeepsOtherErrors(t *testing.T) {
	var v struct{ A int }
	err := yaml.Unmarshal([]byte("a: x\n"), &v)
	if err == nil {
		t.Fatal("no error")
	}
	if got := Fix(err, nil); got.Error() != err.Error() {
		t.Errorf("Fix(%q) = %q", err, got)
	}
	if Fix(nil, nil) != nil {
		t.Error("Fix(nil) != nil")
	}
}

// TestLocateReaderError pins that a reader error (a UTF-16 file cut in the
// middle of a character), which the library locates by byte offset only,
// names no line rather than line 1.
func TestLocateReaderError(t *testing.T) {
	var n yaml.Node
	err := yaml.Unmarshal([]byte("\xff\xfea\x00:\x00 \x00b"), &n)
	if err == nil {
		t.Fatal("no error")
	}
	if line, msg := Locate(err, nil); line != 0 || msg != "incomplete UTF-16 character" {
		t.Errorf("Locate(%q) = %d, %q", err, line, msg)
	}
}

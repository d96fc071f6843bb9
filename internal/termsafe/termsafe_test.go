package termsafe

import "testing"

// TestString pins issue 18.6: ESC, NUL and newlines in tool names were
// printed raw by trace stats, catalog stats and catalog diff. They are
// escaped; ordinary names (non-ASCII letters included) are unchanged.
func TestString(t *testing.T) {
	for in, want := range map[string]string{
		"read_file":            "read_file",
		"café_工具":              "café_工具",
		"evil\x1b[2Jname":      `evil\x1b[2Jname`,
		"nul\x00byte":          `nul\x00byte`,
		"two\nlines\r\tx":      `two\nlines\r\tx`,
		"del\x7f":              `del\x7f`,
		"c1\u0085":             `c1\u0085`,
		"bidi\u202eevil":       `bidi\u202eevil`,
		"bad\xffutf8":          `bad\xffutf8`,
		"replacement\uFFFD ok": "replacement\uFFFD ok",
	} {
		if got := String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Strings([]string{"a", "b\x1b"}); got[0] != "a" || got[1] != `b\x1b` {
		t.Errorf("Strings = %q", got)
	}
}

func TestLines(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain", "plain"},
		{"two\n  lines", "two\n  lines"},
		{"open a\x1b[2J.json: no such file\n  b\tc", "open a\\x1b[2J.json: no such file\n  b\\tc"},
		{"\r\n", "\\r\n"},
	} {
		if got := Lines(tc.in); got != tc.want {
			t.Errorf("Lines(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

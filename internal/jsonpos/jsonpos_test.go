package jsonpos

import (
	"encoding/json"
	"fmt"
	"testing"
)

// TestLineColOfDecodeErrors pins the positions both the importers and the
// results reader report: the line and column just past the fault, for a
// syntax error, a type error and offsets beyond the data.
func TestLineColOfDecodeErrors(t *testing.T) {
	var v struct{ N int }
	for _, tc := range []struct {
		data      string
		line, col int
		ok        bool
	}{
		{"{\n  \"N\": \"x\"\n}", 2, 11, true}, // past the string value
		{"{\n  \"N\": 1,\n}", 3, 2, true},     // the byte at fault
		{"{\"N\":", 1, 6, true},               // unexpected end
	} {
		err := json.Unmarshal([]byte(tc.data), &v)
		off, ok := Offset(fmt.Errorf("wrapped: %w", err))
		if ok != tc.ok {
			t.Fatalf("%q: Offset ok = %v (err %v)", tc.data, ok, err)
		}
		if line, col := LineCol([]byte(tc.data), off); line != tc.line || col != tc.col {
			t.Errorf("%q (%v): line %d col %d, want %d %d", tc.data, err, line, col, tc.line, tc.col)
		}
	}
	if _, ok := Offset(fmt.Errorf("other")); ok {
		t.Error("Offset found an offset in a plain error")
	}
	if line, col := LineCol([]byte("a\nb"), 99); line != 2 || col != 2 {
		t.Errorf("clamped: line %d col %d, want 2 2", line, col)
	}
}

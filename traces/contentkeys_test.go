package traces

import "testing"

// TestHasDuplicateKey pins that a value's keys are compared as the reader
// compares keys inside content: exactly, in every nested object, and not
// across objects.
func TestHasDuplicateKey(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{`{}`, false},
		{`{"a":1,"b":2}`, false},
		{`{"a":1,"A":2}`, false}, // content keys are case-sensitive
		{`{"a":1,"a":2}`, true},
		{`{"":"","":{}}`, true}, // the fuzz finding of FuzzImportAnthropicMessages
		{`{"x":{"k":1,"k":2}}`, true},
		{`[{"k":1},{"k":2}]`, false},
		{`{"k":{"k":1}}`, false},
		{`"{\"a\":1,\"a\":2}"`, false}, // a string is not an object
	} {
		if got := HasDuplicateKey([]byte(tc.in)); got != tc.want {
			t.Errorf("HasDuplicateKey(%s) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

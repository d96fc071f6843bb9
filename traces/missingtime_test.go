package traces

import (
	"bytes"
	"strings"
	"testing"
)

// TestMissingTimeSaysHowToWriteNone pins that a line without "t" is told
// how a source that records no times writes a trace (placeholder times and
// meta timing "synthetic", as the importers do): it used to stop at
// `missing required field "t"`, which left a user whose logs have no
// timestamps without the way forward.
func TestMissingTimeSaysHowToWriteNone(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		hint       bool
	}{
		{"no t", `{"v":1,"type":"session_start","session":"s1"}`, true},
		{"zero t", `{"v":1,"type":"session_start","session":"s1","t":"0001-01-01T00:00:00Z"}`, true},
		{"placeholder t", `{"v":1,"type":"session_start","session":"s1","t":"1970-01-01T00:00:00Z","meta":{"timing":"synthetic"}}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := lines(tc.line, strings.Replace(strings.Replace(tc.line, "session_start", "session_end", 1), `"v":1,`, "", 1))
			probs, _, err := ValidateReader(bytes.NewReader(data), "mem.jsonl", ValidateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var all []string
			for _, p := range probs {
				all = append(all, p.String())
			}
			got := strings.Join(all, "\n")
			for _, want := range []string{`missing required field "t"`, `"t":"1970-01-01T00:00:00Z"`, `"timing":"synthetic"`, "docs/trace-format.md"} {
				if strings.Contains(got, want) != tc.hint {
					t.Errorf("problems say %q: %v, want %v:\n%s", want, !tc.hint, tc.hint, got)
				}
			}
		})
	}
}

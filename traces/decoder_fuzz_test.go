package traces

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// FuzzDecoderAgreement checks the premise of unmarshalGeneral: every line the
// fast decoder accepts (among those decodeJSON hands it: valid UTF-8, no
// NUL) is accepted by encoding/json too, with the same Event.
func FuzzDecoderAgreement(f *testing.F) {
	for _, l := range okSession("s1", 0) {
		f.Add([]byte(l))
	}
	for _, l := range []string{
		`{"type":"user","session":"s","t":"2026-01-01T00:00:00Z","TEXT":"upper-case key"}`,
		`{"type":"user","session":"s","session":"t","t":"2026-01-01T00:00:00Z"}`,
		`{"type":"tool_call","session":"s","t":"2026-01-01T00:00:00Z","args":{"a":[1,2,{"b":null}]}}`,
		`{"type":"user","session":"s","t":"2026-01-01T00:00:00Z","text_tokens":1e3}`,
		`{"type":"user","session":"s","t":"2026-01-01T00:00:00Z","text_tokens":99999999999999999999}`,
		`{"type":"user","session":"s","t":"2026-01-01T00:00:00+25:00"}`,
		`{"type":"user","session":null,"t":"2026-01-01T00:00:00Z","meta":{"k":"v","k":"w"}}`,
		`{"type":"user","session":"s","t":"2026-01-01T00:00:00Z","text":"\ud800 lone surrogate"} `,
		`{"type":"user","session":"s","t":"2026-01-01T00:00:00Z"} {}`,
		`{"usage":{"input":1,"output":2,"extra":3},"servers":[{"name":"a"},{"NAME":"b"}]}`,
		`{"type":"tool_call","session":"s","t":"2026-01-01T00:00:00Z","args_unrecorded":true}`,
		`{"type":"tool_call","args_unrecorded":fals}`,
		`{"type":"tool_call","session":"s","t":"2026-01-01T00:00:00Z","result_unrecorded":true}`,
		`{"type":"tool_call","result_unrecorded":nul}`,
		`{"t":"0000-01-01V00:00:00Z"}`, // the fast decoder's own time parser accepts this
		`{"t":"2026-01-01T00:00:00Z","t":null}`,
		`{"type":"tool_call","args":` + strings.Repeat("[", stdMaxDepth+1) + strings.Repeat("]", stdMaxDepth+1) + `}`,
	} {
		f.Add([]byte(l))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if bytes.IndexByte(line, 0) >= 0 || !utf8.Valid(line) {
			return // decodeJSON rejects these before any decoder runs
		}
		var fast Event
		if !decodeFast(line, &fast) {
			return // encoding/json decides (unmarshalGeneral falls back)
		}
		var std Event
		if err := json.Unmarshal(line, &std); err != nil {
			t.Fatalf("fast decoder accepts %q, encoding/json rejects it: %v", line, err)
		}
		if diff := cmp.Diff(std, fast); diff != "" {
			t.Fatalf("decoders disagree on %q (-encoding/json +fast):\n%s", line, diff)
		}
	})
}

func TestNestedDeeperThan(t *testing.T) {
	for _, tc := range []struct {
		name string
		line string
		max  int
		want bool
	}{
		{"flat", `{"a":1}`, 1, false},
		{"at the limit", `{"a":[[1]]}`, 3, false},
		{"over the limit", `{"a":[[[1]]]}`, 3, true},
		{"siblings do not add up", `{"a":[1],"b":[2],"c":{"d":3}}`, 2, false},
		{"brackets in strings", `{"a":"[[[[{{{{"}`, 2, false},
		{"escaped quote keeps the string open", `{"a":"\"[[[["}`, 2, false},
		{"escaped backslash closes it", `{"a":"\\","b":[[[1]]]}`, 3, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := nestedDeeperThan([]byte(tc.line), tc.max); got != tc.want {
				t.Errorf("nestedDeeperThan(%s, %d) = %v, want %v", tc.line, tc.max, got, tc.want)
			}
		})
	}
}

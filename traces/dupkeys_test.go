package traces

import (
	"strings"
	"testing"
)

// TestDuplicateKeys pins issue 18.5: duplicate JSON keys in a trace line
// were accepted with the last one winning, so {"type":"user",…,
// "type":"session_end"} was read as a session_end. Every object of a line
// is checked; keys that encoding/json would match to the same field (by
// case, by escapes) count as duplicates; keys of content objects (args,
// meta) are compared exactly and not quoted in the message.
func TestDuplicateKeys(t *testing.T) {
	const head = `{"type":"user","session":"s","t":"2026-01-01T00:00:00Z"`
	for _, tc := range []struct {
		name, line, want string
	}{
		{"top level", head + `,"text":"hi","type":"session_end"}`, `invalid JSON: duplicate key "type"`},
		{"top level, other case", head + `,"TYPE":"session_end"}`, `invalid JSON: duplicate key "TYPE"`},
		{"top level, escaped", head + `,"t\u0079pe":"session_end"}`, `invalid JSON: duplicate key "type"`},
		{"usage", `{"type":"model_request","session":"s","t":"2026-01-01T00:00:00Z","id":"r","usage":{"input":1,"Input":2}}`, `invalid JSON: duplicate key "Input" in field "usage"`},
		{"servers", `{"v":1,"type":"session_start","session":"s","t":"2026-01-01T00:00:00Z","servers":[{"name":"a","name":"b"}]}`, `invalid JSON: duplicate key "name" in field "servers"`},
		{"args (content: not quoted)", `{"type":"tool_call","session":"s","t":"2026-01-01T00:00:00Z","call_id":"c","tool":"x","server":"y","args":{"secret":1,"secret":2}}`, `invalid JSON: duplicate key in field "args"`},
		{"meta", `{"v":1,"type":"session_start","session":"s","t":"2026-01-01T00:00:00Z","meta":{"k":"1","k":"2"}}`, `invalid JSON: duplicate key in field "meta"`},
		{"args, nested", `{"type":"tool_call","session":"s","t":"2026-01-01T00:00:00Z","call_id":"c","tool":"x","server":"y","args":{"a":[{"k":1,"k":2}]}}`, `invalid JSON: duplicate key in field "args"`},
		{"args keys differing in case are distinct", `{"type":"tool_call","session":"s","t":"2026-01-01T00:00:00Z","call_id":"c","tool":"x","server":"y","args":{"Path":1,"path":2}}`, ""},
		{"same key in sibling objects", `{"type":"tool_call","session":"s","t":"2026-01-01T00:00:00Z","call_id":"c","tool":"x","server":"y","args":{"a":{"k":1},"b":{"k":1},"l":[{"k":1},{"k":2}]}}`, ""},
		{"quotes and braces inside strings", head + `,"text":"\"type\": {\"x\",\"type\"} \\\\"}`, ""},
		{"a key inside a string", head + `,"text":"\",\"type\":\""}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ev Event
			err := decodeEvent([]byte(tc.line), &ev)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	// An object with more keys than the scanner compares pairwise.
	var b strings.Builder
	b.WriteString(`{"type":"tool_call","session":"s","t":"2026-01-01T00:00:00Z","call_id":"c","tool":"x","server":"y","args":{`)
	for i := range 200 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"k` + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + string(rune('a'+i/26)) + `":1`)
	}
	var ev Event
	if err := decodeEvent([]byte(b.String()+`}}`), &ev); err != nil {
		t.Errorf("200 distinct keys: %v", err)
	}
	if err := decodeEvent([]byte(b.String()+`,"kaa":2}}`), &ev); err == nil || err.Error() != `invalid JSON: duplicate key in field "args"` {
		t.Errorf("a duplicate among 200 keys: %v", err)
	}
}

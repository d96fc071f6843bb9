package catalog

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestParseUserShapes pins that the catalog shapes users hold read as the
// same tool as the MCP form (same fingerprint and wire bytes): Anthropic's
// input_schema, a flat parameters (OpenAI Responses, Gemini), a file with a
// UTF-8 byte order mark. Before, input_schema and parameters were ignored and
// the tool was counted as {"type":"object"} (19 tokens instead of 44 for a
// one-tool file), and a BOM stopped the load with "invalid character 'ï'".
func TestParseUserShapes(t *testing.T) {
	schema := `{"type":"object","properties":{"who":{"type":"string"}},"required":["who"]}`
	tests := []struct {
		name string
		in   string
	}{
		{"anthropic bare array", `[{"name":"greet","description":"Say hello to someone.","input_schema":` + schema + `}]`},
		{"anthropic in tools object", `{"tools":[{"name":"greet","description":"Say hello to someone.","input_schema":` + schema + `}]}`},
		{"flat parameters", `[{"name":"greet","description":"Say hello to someone.","parameters":` + schema + `}]`},
		{"openai responses", `[{"type":"function","name":"greet","description":"Say hello to someone.","parameters":` + schema + `,"strict":true}]`},
		{"byte order mark", "\xef\xbb\xbf[" + toolGreet + "]"},
		{"empty nextCursor", `{"tools":[` + toolGreet + `],"nextCursor":""}`},
	}
	want, err := NewTool([]byte(toolGreet))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Parse([]byte(tc.in), "srv", "1", "")
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Tools) != 1 {
				t.Fatalf("got %d tools", len(s.Tools))
			}
			got := s.Tools[0]
			if got.Warning != "" {
				t.Errorf("warning %q", got.Warning)
			}
			if got.ModelFingerprint != want.ModelFingerprint || string(got.Wire) != string(want.Wire) || string(got.WireOpenAI) != string(want.WireOpenAI) {
				t.Errorf("read differently from the MCP form:\n got  %s\n want %s", got.Wire, want.Wire)
			}
		})
	}
}

// TestParseUserShapeErrors pins the files that load no faithful catalog and
// must stop with a reason: one page of a paginated tools/list (its other
// pages' tools were silently missing), a JSON-RPC error response (was "no
// tools member"), a schema under two names, and an input schema typed other
// than object (loaded, and counted, though no call can match it).
func TestParseUserShapeErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"paginated page", `{"tools":[` + toolGreet + `],"nextCursor":"abc"}`, `nextCursor "abc": this is one page of a paginated tools/list`},
		{"paginated page in json-rpc", `{"jsonrpc":"2.0","id":1,"result":{"tools":[],"nextCursor":"2"}}`, `nextCursor "2": this is one page`},
		{"json-rpc error", `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}`, `a JSON-RPC error response, not a tools/list result: {"code":-32601,"message":"Method not found"}`},
		{"two schema members", `[{"name":"a","inputSchema":{},"input_schema":{}}]`, `tools[0]: fields "inputSchema" and "input_schema" both hold an input schema`},
		{"parameters and input_schema", `[{"name":"a","input_schema":{},"parameters":{}}]`, `fields "input_schema" and "parameters" both hold`},
		{"string schema", `[{"name":"a","inputSchema":{"type":"string"}}]`, `tools[0]: tool "a": inputSchema type "string": a tool's arguments are a JSON object`},
		{"array schema", `[{"name":"a","input_schema":{"type":"array"}}]`, `inputSchema type "array"`},
		{"type list without object", `[{"name":"a","inputSchema":{"type":["string","null"]}}]`, `inputSchema type ["string","null"]`},
		{"type not a name", `[{"name":"a","inputSchema":{"type":5}}]`, `inputSchema type 5`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.in), "srv", "1", "")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tc.want)
			}
		})
	}
	for _, ok := range []string{`{"type":"object"}`, `{"type":["object","null"]}`, `{}`, `{"properties":{}}`} {
		if _, err := Parse([]byte(`[{"name":"a","inputSchema":`+ok+`}]`), "srv", "1", ""); err != nil {
			t.Errorf("schema %s: %v", ok, err)
		}
	}
}

// TestErrorQuotesAreCapped pins that an error message quotes at most
// maxQuoted bytes of a user's value (a JSON-RPC error, a nextCursor, a
// schema's type), cut at a character boundary and followed by "…" and the
// value's full length; short values are quoted whole.
func TestErrorQuotesAreCapped(t *testing.T) {
	long := strings.Repeat("x", 100_000)
	wide := strings.Repeat("é", 50_000) // 2 bytes each: a cut must not split one
	tests := []struct {
		name string
		in   string
		// head is the message up to the quoted value; value the value as
		// served (compact); whole: quoted in full.
		head, value string
		whole       bool
	}{
		{"json-rpc error, long message", `{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"` + long + `"}}`,
			"a JSON-RPC error response, not a tools/list result: ", `{"code":-32000,"message":"` + long + `"}`, false},
		{"json-rpc error, short", `{"error":{"code":1}}`, "a JSON-RPC error response, not a tools/list result: ", `{"code":1}`, true},
		{"nextCursor, long", `{"tools":[],"nextCursor":"` + long + `"}`, "nextCursor ", `"` + long + `"`, false},
		{"nextCursor, multi-byte", `{"tools":[],"nextCursor":"` + wide + `"}`, "nextCursor ", `"` + wide + `"`, false},
		{"nextCursor, object", `{"tools":[],"nextCursor":{"k":"` + long + `"}}`, "nextCursor ", `{"k":"` + long + `"}`, false},
		{"schema type, long list", `[{"name":"a","inputSchema":{"type":["` + long + `"]}}]`, `tools[0]: tool "a": inputSchema type `, `["` + long + `"]`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.in), "srv", "1", "")
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, tc.head) {
				t.Fatalf("error = %.300q, want it to start with %q", msg, tc.head)
			}
			rest := msg[len(tc.head):]
			if tc.whole {
				if !strings.HasPrefix(rest, tc.value) || strings.Contains(rest, "…") {
					t.Fatalf("error = %q, want %s quoted whole", msg, tc.value)
				}
				return
			}
			if len(msg) > maxQuoted+200 {
				t.Errorf("error is %d bytes, want the quote cut to %d", len(msg), maxQuoted)
			}
			tail := fmt.Sprintf("… (%d bytes)", len(tc.value))
			i := strings.Index(rest, tail)
			if i < 0 {
				t.Fatalf("error = %.400q, want %q after the quote", msg, tail)
			}
			if i > maxQuoted || i < maxQuoted-3 || !strings.HasPrefix(tc.value, rest[:i]) || !utf8.ValidString(rest[:i]) {
				t.Errorf("quote = %q (%d bytes), want the first %d bytes of the value, whole characters", rest[:i], i, maxQuoted)
			}
		})
	}
}

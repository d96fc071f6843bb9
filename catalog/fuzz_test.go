package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

var fuzzSeeds = []string{
	`{"tools":[` + toolGreet + `,` + toolAdd + `]}`,
	`[` + toolGreet + `]`,
	`[{"type":"function","function":{"name":"f","parameters":{"type":"object"}}}]`,
	`{"result":{"tools":[{"name":"x","inputSchema":{"anyOf":[{"type":"string"},{"type":"null"}]},"annotations":{"readOnlyHint":true}}]}}`,
	`{"tools":[{"name":"e","inputSchema":{"properties":{"k":{"enum":[1,"a",null],"minimum":1e400}},"required":["k","k"]}}]}`,
	`{"tools":[{"name":"d","inputSchema":{"$defs":{"a":{"items":[{"const":{}}]}},"additionalProperties":false}}]}`,
	`{"tools":[]}`,
	`{"tools":[{"name":"a"},{"name":"a"}]}`,
	`[[[[[[`,
	`"\u0000\ud800"`,
	"{\"tools\":[\n  {\"name\":\"a\",\n  }\n]}", // a trailing comma: its line and column
	"{\"tools\":[{\"name\":\"a\"",               // cut short
	" \n\t",                                     // no JSON value
	`{"tools":[{"name":"a","name":"b"}]}`,       // a duplicate key: where
	"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[]}}\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}", // a logged notification
}

func FuzzLoadCatalog(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data, "fuzz", "1", "")
		if err != nil {
			// An invalid-JSON error's place is inside the data.
			var line, col int
			var off int64
			msg := err.Error()
			var pe *posError
			if i := strings.LastIndex(msg, " (line "); i >= 0 && errors.As(err, &pe) && strings.HasPrefix(msg, "invalid JSON: ") {
				if _, serr := fmt.Sscanf(msg[i:], " (line %d, column %d, byte offset %d)", &line, &col, &off); serr != nil {
					t.Fatalf("%q: place not parsed: %v", msg, serr)
				}
				if line < 1 || line > bytes.Count(data, []byte("\n"))+1 || col < 1 || off < 0 || off > int64(len(data)) {
					t.Fatalf("%q: place outside the %d bytes of data", msg, len(data))
				}
			}
			return
		}
		names := map[string]bool{}
		for _, tool := range s.Tools {
			if tool.Name == "" || names[tool.Name] {
				t.Fatalf("empty or duplicate tool name %q accepted", tool.Name)
			}
			names[tool.Name] = true
			if !json.Valid(tool.Raw) || !json.Valid(tool.Wire) || !json.Valid(tool.WireOpenAI) {
				t.Fatalf("invalid JSON produced for %q", tool.Name)
			}
			again, err := NewTool(tool.Raw)
			if err != nil {
				t.Fatalf("re-parsing Raw failed: %v", err)
			}
			if again.Fingerprint != tool.Fingerprint || string(again.Wire) != string(tool.Wire) {
				t.Fatalf("re-parsing Raw changed the tool")
			}
		}
		if d := Diff(s, s); len(d.Changed)+len(d.Added)+len(d.Removed) != 0 {
			t.Fatalf("catalog differs from itself")
		}
	})
}

func FuzzCanonical(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	for _, s := range []string{`{"b":1,"a":[1.0,-0,1E5]}`, `"<&>"`, `{"a":{"a":{"a":{}}}}`, `1 2`, `{"a":1,"a":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Canonical(data)
		if err != nil {
			return
		}
		if !json.Valid(c) {
			t.Fatalf("canonical output is not valid JSON: %q", c)
		}
		c2, err := Canonical(c)
		if err != nil {
			t.Fatalf("canonical output does not re-parse: %v", err)
		}
		if string(c2) != string(c) {
			t.Fatalf("not idempotent:\n%q\n%q", c, c2)
		}
		if strings.ContainsAny(string(c), "\n\t") {
			t.Fatalf("whitespace left in %q", c)
		}
	})
}

func FuzzDiff(f *testing.F) {
	for i, a := range fuzzSeeds {
		b := fuzzSeeds[(i+1)%len(fuzzSeeds)]
		f.Add([]byte(a), []byte(b))
	}
	f.Add([]byte(`{"tools":[{"name":"t","inputSchema":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}}]}`),
		[]byte(`{"tools":[{"name":"t","inputSchema":{"type":"object","properties":{"b":{"type":"string"}},"required":["b"],"additionalProperties":false}}]}`))
	f.Add([]byte(`{"tools":[{"name":"t","inputSchema":{"properties":{"p":{"$ref":"#/$defs/a"}},"$defs":{"a":{"anyOf":[{"type":"string"},{"$ref":"#/$defs/a"}]}}}}]}`),
		[]byte(`{"tools":[{"name":"t","inputSchema":{"properties":{"p":{"oneOf":[{"type":["string","null"]},{"$ref":"#"}]}},"$defs":{"a":{"type":"integer"}}}}]}`))
	f.Fuzz(func(t *testing.T, ra, rb []byte) {
		a, err := Parse(ra, "s", "1", "")
		if err != nil {
			return
		}
		b, err := Parse(rb, "s", "2", "")
		if err != nil {
			return
		}
		d := Diff(a, b)
		if len(d.Added)+len(d.Changed)+d.Unchanged != len(b.Tools) || len(d.Removed)+len(d.Changed)+d.Unchanged != len(a.Tools) {
			t.Fatalf("counts do not add up: %+v", d)
		}
		for _, tc := range d.Changed {
			if len(tc.Changes) == 0 || tc.Class == ClassNone {
				t.Fatalf("changed tool %q without changes", tc.Name)
			}
			for _, c := range tc.Changes {
				if c.Class > tc.Class {
					t.Fatalf("change more severe than its tool")
				}
				if c.Class != ClassOf(c.Kind) || c.Class == ClassNone {
					t.Fatalf("change %+v: kind not registered with that class", c)
				}
			}
		}
		back := Diff(b, a)
		if len(back.Added) != len(d.Removed) || len(back.Removed) != len(d.Added) || len(back.Changed) != len(d.Changed) {
			t.Fatalf("reverse diff is not symmetric in counts")
		}
	})
}

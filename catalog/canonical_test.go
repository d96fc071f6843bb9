package catalog

import (
	"errors"
	"strings"
	"testing"
)

func TestCanonical(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"sorted keys", `{"b":1,"a":2,"c":{"z":true,"y":null}}`, `{"a":2,"b":1,"c":{"y":null,"z":true}}`},
		{"whitespace removed", "{ \"a\" : [ 1 , 2 ,\n3 ] }", `{"a":[1,2,3]}`},
		{"numbers as written", `[1.0,1e3,-0,0.10,12345678901234567890123]`, `[1.0,1e3,-0,0.10,12345678901234567890123]`},
		{"no html escaping", `"<a href=\"x\">&amp;</a>"`, `"<a href=\"x\">&amp;</a>"`},
		{"unicode unescaped", `"caf\u00e9 \u2603"`, `"café ☃"`},
		{"control characters", `"a\u0001\n\t\b\f\r\\"`, `"a\u0001\n\t\b\f\r\\"`},
		{"solidus unescaped", `"a\/b"`, `"a/b"`},
		{"array order kept", `[3,1,2]`, `[3,1,2]`},
		{"bytewise key order", `{"b":0,"B":0,"é":0,"_":0}`, `{"B":0,"_":0,"b":0,"é":0}`},
		{"scalar", ` true `, `true`},
		{"invalid utf8 replaced", "\"a\xffb\"", "\"a\uFFFDb\""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Canonical([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("Canonical(%s) = %s, want %s", tc.in, got, tc.want)
			}
			again, err := Canonical(got)
			if err != nil || string(again) != string(got) {
				t.Errorf("not idempotent: %s -> %s (%v)", got, again, err)
			}
		})
	}
}

func TestCanonicalErrors(t *testing.T) {
	tests := []struct{ name, in string }{
		{"empty", ``},
		{"truncated", `{"a":`},
		{"trailing", `{} {}`},
		{"duplicate key", `{"a":1,"a":2}`},
		{"bad token", `{a:1}`},
		{"nan", `NaN`},
	}
	for _, tc := range tests {
		if _, err := Canonical([]byte(tc.in)); err == nil {
			t.Errorf("%s: want error", tc.name)
		}
	}
}

func TestCanonicalDepthGuard(t *testing.T) {
	tests := []struct {
		name   string
		depth  int
		wantOK bool
	}{
		{"at limit", MaxDepth, true},
		{"just over", MaxDepth + 1, false},
		{"ten thousand", 10_000, false},
		{"a million", 1_000_000, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := strings.Repeat(`{"a":`, tc.depth) + "1" + strings.Repeat("}", tc.depth)
			_, err := Canonical([]byte(in))
			if tc.wantOK && err != nil {
				t.Fatalf("depth %d: %v", tc.depth, err)
			}
			if !tc.wantOK && !errors.Is(err, ErrTooDeep) {
				t.Fatalf("depth %d: err = %v, want ErrTooDeep", tc.depth, err)
			}
			arr := strings.Repeat("[", tc.depth) + strings.Repeat("]", tc.depth)
			if _, err := Canonical([]byte(arr)); (err == nil) != tc.wantOK {
				t.Fatalf("array depth %d: err = %v", tc.depth, err)
			}
		})
	}
	deepTool := `{"tools":[{"name":"deep","inputSchema":` + strings.Repeat(`{"items":`, 10_000) + "{}" + strings.Repeat("}", 10_000) + `}]}`
	if _, err := Parse([]byte(deepTool), "s", "1", ""); !errors.Is(err, ErrTooDeep) {
		t.Fatalf("deep catalog: err = %v, want ErrTooDeep", err)
	}
}

func TestFingerprint(t *testing.T) {
	base, err := NewTool([]byte(toolGreet))
	if err != nil {
		t.Fatal(err)
	}
	same := []string{
		// Key order and whitespace do not matter.
		`{"inputSchema":{"required":["who"],"properties":{"who":{"type":"string"}},"type":"object"},"description":"Say hello to someone.","name":"greet"}`,
		"{\n \"name\": \"greet\",\n \"description\": \"Say hello to someone.\",\n \"inputSchema\": {\"type\": \"object\", \"properties\": {\"who\": {\"type\": \"string\"}}, \"required\": [\"who\"]}\n}",
		// Escapes that decode to the same text.
		`{"name":"gr\u0065et","description":"Say hello to someone.","inputSchema":{"type":"object","properties":{"who":{"type":"string"}},"required":["who"]}}`,
	}
	for _, s := range same {
		t2, err := NewTool([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		if t2.Fingerprint != base.Fingerprint {
			t.Errorf("fingerprint changed for an equivalent tool: %s", s)
		}
	}
	different := []string{
		`{"name":"greet","description":"Say hello to someone!","inputSchema":{"type":"object","properties":{"who":{"type":"string"}},"required":["who"]}}`,
		`{"name":"greet","description":"Say hello to someone.","inputSchema":{"type":"object","properties":{"who":{"type":"string"}},"required":["who"]},"annotations":{"readOnlyHint":true}}`,
		`{"name":"greet","description":"Say hello to someone.","inputSchema":{"type":"object","properties":{"who":{"type":"string"}},"required":[]}}`,
		`{"name":"greet","description":"Say hello to someone.","inputSchema":{"type":"object","properties":{"who":{"type":"string","maxLength":1.0}},"required":["who"]}}`,
		`{"name":"greet","description":"Say hello to someone.","inputSchema":{"type":"object","properties":{"who":{"type":"string","maxLength":1}},"required":["who"]}}`,
		`{"name":"greet","description":"Say hello to someone.","inputSchema":{"type":"object","properties":{"who":{"type":"string"}},"required":["who"]},"_meta":{}}`,
	}
	seen := map[string]bool{base.Fingerprint: true}
	for _, s := range different {
		t2, err := NewTool([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		if seen[t2.Fingerprint] {
			t.Errorf("fingerprint collision for %s", s)
		}
		seen[t2.Fingerprint] = true
	}
	if len(base.Fingerprint) != 64 {
		t.Errorf("fingerprint %q is not 64 hex digits", base.Fingerprint)
	}
	// Pinned: a change of canonical form or hash shows up here.
	if want := sha256Hex(`{"description":"Say hello to someone.","inputSchema":{"properties":{"who":{"type":"string"}},"required":["who"],"type":"object"},"name":"greet"}`); base.Fingerprint != want {
		t.Errorf("fingerprint = %s, want %s", base.Fingerprint, want)
	}
}

func TestServerFingerprint(t *testing.T) {
	g, _ := NewTool([]byte(toolGreet))
	a, _ := NewTool([]byte(toolAdd))
	s1, err := NewServer("s", "1", "", []*Tool{g, a})
	if err != nil {
		t.Fatal(err)
	}
	s2, err := NewServer("other", "2", "", []*Tool{a, g})
	if err != nil {
		t.Fatal(err)
	}
	if s1.Fingerprint != s2.Fingerprint {
		t.Error("server fingerprint should not depend on served order, name or version")
	}
	if want := sha256Hex(a.Fingerprint + "\n" + g.Fingerprint + "\n"); s1.Fingerprint != want {
		t.Errorf("server fingerprint = %s, want %s", s1.Fingerprint, want)
	}
	s3, _ := NewServer("s", "1", "", []*Tool{g})
	if s3.Fingerprint == s1.Fingerprint {
		t.Error("removing a tool must change the server fingerprint")
	}
}

func TestWireForms(t *testing.T) {
	tests := []struct {
		name, in, wire, openai string
	}{
		{
			"source order kept in schema",
			`{"name":"greet","title":"Greeter","description":"Say <hi>.","inputSchema":{"type":"object","properties":{"who":{"type":"string"}}},"annotations":{"readOnlyHint":true}}`,
			`{"name":"greet","description":"Say <hi>.","input_schema":{"type":"object","properties":{"who":{"type":"string"}}}}`,
			`{"type":"function","function":{"name":"greet","description":"Say <hi>.","parameters":{"type":"object","properties":{"who":{"type":"string"}}}}}`,
		},
		{
			"no description, no schema",
			`{"name":"ping"}`,
			`{"name":"ping","input_schema":{"type":"object"}}`,
			`{"type":"function","function":{"name":"ping","parameters":{"type":"object"}}}`,
		},
		{
			"empty description kept, numbers as written",
			`{"name":"n","description":"","inputSchema":{"maximum":1.50}}`,
			`{"name":"n","description":"","input_schema":{"maximum":1.50}}`,
			`{"type":"function","function":{"name":"n","description":"","parameters":{"maximum":1.50}}}`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tool, err := NewTool([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if string(tool.Wire) != tc.wire {
				t.Errorf("Wire =\n%s\nwant\n%s", tool.Wire, tc.wire)
			}
			if string(tool.WireOpenAI) != tc.openai {
				t.Errorf("WireOpenAI =\n%s\nwant\n%s", tool.WireOpenAI, tc.openai)
			}
			if string(tool.Bytes(FormMCP)) != string(tool.Raw) || string(tool.Bytes(FormOpenAI)) != tc.openai || string(tool.Bytes(FormAnthropic)) != tc.wire {
				t.Error("Bytes(form) disagrees with the fields")
			}
		})
	}
	if _, err := ParseWireForm("yaml"); err == nil {
		t.Error("want error for an unknown form")
	}
}

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
		`{"name":"greet","description":"Say hello to someone.","inputSchema":{"type":"object","properties":{"who":{"type":"string"}},"required":[]}}`,
		`{"name":"greet","description":"Say hello to someone.","inputSchema":{"type":"object","properties":{"who":{"type":"string","maxLength":1.0}},"required":["who"]}}`,
		`{"name":"greet","description":"Say hello to someone.","inputSchema":{"type":"object","properties":{"who":{"type":"string","maxLength":1}},"required":["who"]}}`,
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
	// What the model does not see changes only the served fingerprint.
	for _, s := range []string{
		`{"name":"greet","description":"Say hello to someone.","inputSchema":{"type":"object","properties":{"who":{"type":"string"}},"required":["who"]},"annotations":{"readOnlyHint":true}}`,
		`{"name":"greet","description":"Say hello to someone.","inputSchema":{"type":"object","properties":{"who":{"type":"string"}},"required":["who"]},"_meta":{}}`,
		`{"name":"greet","title":"Greet","icons":[{"src":"data:image/png;base64,AAAA"}],"description":"Say hello to someone.","inputSchema":{"type":"object","properties":{"who":{"type":"string"}},"required":["who"]}}`,
	} {
		t2, err := NewTool([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		if t2.Fingerprint != base.Fingerprint || t2.ModelFingerprint != base.ModelFingerprint {
			t.Errorf("model fingerprint changed by a member the model does not see: %s", s)
		}
		if seen[t2.ServedFingerprint] {
			t.Errorf("served fingerprint collision for %s", s)
		}
		seen[t2.ServedFingerprint] = true
	}
	// Pinned: a change of canonical form or hash shows up here. For a tool
	// with only name, description and inputSchema the two scopes agree.
	if want := sha256Hex(`{"description":"Say hello to someone.","inputSchema":{"properties":{"who":{"type":"string"}},"required":["who"],"type":"object"},"name":"greet"}`); base.Fingerprint != want || base.ServedFingerprint != want {
		t.Errorf("fingerprint = %s (served %s), want %s", base.Fingerprint, base.ServedFingerprint, want)
	}
	// A missing and a null input schema are both read as {"type":"object"}.
	for _, s := range []string{`{"name":"n"}`, `{"name":"n","inputSchema":null}`, `{"name":"n","inputSchema":{"type":"object"}}`} {
		t2, err := NewTool([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		if want := sha256Hex(`{"inputSchema":{"type":"object"},"name":"n"}`); t2.Fingerprint != want {
			t.Errorf("%s: fingerprint %s, want %s", s, t2.Fingerprint, want)
		}
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
			if string(tool.Bytes(FormMCP)) != string(tool.WireMCP) || string(tool.Bytes(FormOpenAI)) != tc.openai || string(tool.Bytes(FormAnthropic)) != tc.wire {
				t.Error("Bytes(form) disagrees with the fields")
			}
		})
	}
	if _, err := ParseWireForm("yaml"); err == nil {
		t.Error("want error for an unknown form")
	}
}

// TestIconsNeverCounted pins issue 16's finding that base64 icon data URIs
// (44% of one catalog's MCP-form bytes) were counted as tokens the model
// sees: no wire form holds them.
func TestIconsNeverCounted(t *testing.T) {
	icon := `[{"src":"data:image/png;base64,` + strings.Repeat("iVBORw0KGgo", 400) + `","mimeType":"image/png","sizes":["48x48"]}]`
	plain := `{"name":"greet","title":"Greet","description":"Say hello.","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}`
	withIcons := `{"name":"greet","title":"Greet","icons":` + icon + `,"description":"Say hello.","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}`
	a, err := NewTool([]byte(plain))
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewTool([]byte(withIcons))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []WireForm{FormAnthropic, FormOpenAI, FormMCP} {
		if string(a.Bytes(f)) != string(b.Bytes(f)) {
			t.Errorf("%s form differs with icons:\n%s\n%s", f, a.Bytes(f), b.Bytes(f))
		}
		if strings.Contains(string(b.Bytes(f)), "base64") {
			t.Errorf("%s form holds the icon", f)
		}
	}
	if !strings.Contains(string(b.Raw), "base64") {
		t.Error("Raw should keep the tool as served")
	}
	if a.Fingerprint != b.Fingerprint || a.ServedFingerprint == b.ServedFingerprint {
		t.Error("icons must change the served fingerprint only")
	}
}

// TestFingerprintScope switches a catalog between the two scopes.
func TestFingerprintScope(t *testing.T) {
	parse := func(tools string) *Server {
		t.Helper()
		s, err := Parse([]byte(`{"tools":[`+tools+`]}`), "s", "1", "")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	v1 := parse(`{"name":"a","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":false}}`)
	v2 := parse(`{"name":"a","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}`)
	v2.Version = "2"
	c := New(v1, v2)
	if v1.Tools[0].Fingerprint != v2.Tools[0].Fingerprint || v1.Fingerprint != v2.Fingerprint {
		t.Error("default (model) scope: an annotation-only change must keep the fingerprints")
	}
	c.SetFingerprintScope(FingerprintServed)
	if v1.Tools[0].Fingerprint == v2.Tools[0].Fingerprint || v1.Fingerprint == v2.Fingerprint {
		t.Error("served scope: an annotation-only change must change the fingerprints")
	}
	if v1.Tools[0].Fingerprint != v1.Tools[0].ServedFingerprint {
		t.Error("served scope: Fingerprint must be ServedFingerprint")
	}
	c.SetFingerprintScope(FingerprintModel)
	if v1.Tools[0].Fingerprint != v1.Tools[0].ModelFingerprint || v1.Fingerprint != v2.Fingerprint {
		t.Error("back to model scope")
	}
	for in, want := range map[string]FingerprintScope{"": FingerprintModel, "model": FingerprintModel, "served": FingerprintServed} {
		if got, err := ParseFingerprintScope(in); err != nil || got != want {
			t.Errorf("ParseFingerprintScope(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseFingerprintScope("full"); err == nil {
		t.Error("want an error for an unknown scope")
	}
}

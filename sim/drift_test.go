package sim

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/defersim/defersim/validation"
)

// requiredValidator is a stand-in for the JSON Schema validator: a call is
// malformed (missing_required) when the served schema requires "id" and
// the arguments lack it.
type requiredValidator struct{}

func (requiredValidator) Check(seen, served, args json.RawMessage) string {
	if bytes.Contains(served, []byte(`"required":["id"]`)) && !bytes.Contains(args, []byte(`"id"`)) {
		return validation.ClassMissingRequired
	}
	return ""
}

// TestUpgradeMidSession pins the name- vs fingerprint-keyed warm-set
// trade-off: a breaking upgrade mid-session gives malformed calls under
// name keying and an extra search (no malformed call) under fingerprint
// keying; a description-only upgrade gives no malformed call under either
// but still an extra search under fingerprint keying. A new schema that
// fails its meta-schema (a nested "type": "dict") cannot check the stale
// call: it is neither malformed nor valid (the catalog is broken, not the
// call), where it was counted as malformed_other.
func TestUpgradeMidSession(t *testing.T) {
	for _, tc := range []struct {
		name     string
		v2schema string
		nameWant want
		fpWant   want
		real     bool // the JSON Schema validator, not requiredValidator
	}{
		{"breaking", `{"type":"object","required":["id"]}`,
			want{MSearches: 1, MStaleWarmCalls: 1, MMalformedCalls: 1, MMalformedMissingRequired: 1},
			want{MSearches: 2, MStaleWarmCalls: 0, MMalformedCalls: 0}, false},
		{"description-only", `{"type":"object"}`,
			want{MSearches: 1, MStaleWarmCalls: 1, MStaleValidCalls: 1, MMalformedCalls: 0},
			want{MSearches: 2, MStaleWarmCalls: 0, MMalformedCalls: 0}, false},
		{"schema failing its meta-schema", `{"type":"object","properties":{"id":{"type":"dict"}},"required":["id"]}`,
			want{MSearches: 1, MStaleWarmCalls: 1, MStaleValidCalls: 0, MMalformedCalls: 0, MMalformedOther: 0},
			want{MSearches: 2, MStaleWarmCalls: 0, MMalformedCalls: 0}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			always := Trigger{Mode: "always"}
			e := newTestEngine(t, []Strategy{
				{Name: "name-keyed", Trigger: always, Warm: WarmSet{Key: "name"}},
				{Name: "fingerprint-keyed", Trigger: always, Warm: WarmSet{Key: "fingerprint"}},
			}, []testTool{{"a", 100, 0}, {"b", 100, 0}})
			e.validator = requiredValidator{}
			if tc.real {
				e.validator = validation.New()
			}
			v1 := e.tables.byKey["s@1"]
			v2 := &serverTable{name: "s", version: "2"}
			for _, ti := range v1.tools {
				c := *ti
				if c.name == "a" {
					c.fp, c.h, c.schema = "fp-a-v2", hashString("fp-a-v2"), json.RawMessage(tc.v2schema)
					c.id = int32(len(e.tables.all))
					e.tables.all = append(e.tables.all, &c)
				}
				v2.tools = append(v2.tools, &c)
			}
			e.tables.byKey["s@2"] = v2
			e.computeFlags()
			steps := []Step{user(10), call("a"), reply(),
				{Kind: StepCatalogChange, Server: "s", Version: "2"},
				user(10), call("a"), reply()}
			out := e.ReplayNeed(&Need{SessionID: "s8", SystemTokens: 100, Steps: steps})
			check(t, "name-keyed", out[0], tc.nameWant)
			check(t, "fingerprint-keyed", out[1], tc.fpWant)
		})
	}
}

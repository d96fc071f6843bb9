package srd

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseFields(t *testing.T) {
	src := `srd_version: 1
server_id: s
domain: d
display_name: D
summary: one line
intent_triggers: [a, b]
disambiguation:
  - domain: e
    server: t
    differs: x
priority: 0
cost_hint: {latency: slow, tokens: large}
tool_groups:
  g2: [y]
  g1: [x, z]
`
	got, probs := Parse("f.yaml", []byte(src))
	if len(probs) > 0 || len(got) != 1 {
		t.Fatalf("Parse: %v", probs)
	}
	s := got[0]
	want := &SRD{Version: 1, ServerID: "s", Domain: "d", DisplayName: "D", Summary: "one line",
		IntentTriggers: []string{"a", "b"}, Disambiguation: []Disambiguation{{Domain: "e", Server: "t", Differs: "x"}},
		Priority: 0, CostHint: &CostHint{Latency: "slow", Tokens: "large"},
		ToolGroups: []ToolGroup{{"g2", []string{"y"}}, {"g1", []string{"x", "z"}}}, File: "f.yaml"}
	if diff := cmp.Diff(want, s, cmp.AllowUnexported(SRD{}), cmp.FilterPath(func(p cmp.Path) bool {
		return p.Last().String() == ".lines" || p.Last().String() == ".bad"
	}, cmp.Ignore())); diff != "" {
		t.Errorf("Parse mismatch (-want +got):\n%s", diff)
	}
	for field, line := range map[string]int{"": 1, "server_id": 2, "intent_triggers[1]": 6, "disambiguation[0]": 8,
		"disambiguation[0].differs": 10, "priority": 11, "cost_hint.tokens": 12, "tool_groups.g1[1]": 15} {
		if got := s.Line(field); got != line {
			t.Errorf("Line(%q) = %d, want %d", field, got, line)
		}
	}
	if got := s.Tools(); !cmp.Equal(got, []string{"y", "x", "z"}) {
		t.Errorf("Tools() = %v", got)
	}
}

func TestParseDefaultsAndJSON(t *testing.T) {
	got, probs := Parse("f.json", []byte(`{"srd_version":1,"server_id":"s","domain":"d","display_name":"D",
"intent_triggers":["a"],"disambiguation":[{"domain":"e","differs":"x"}]}`))
	if len(probs) > 0 || len(got) != 1 {
		t.Fatalf("Parse JSON: %v", probs)
	}
	if got[0].Priority != DefaultPriority || got[0].CostHint != nil || got[0].Line("disambiguation[0].differs") != 2 {
		t.Errorf("defaults: priority %d, cost %v, line %d", got[0].Priority, got[0].CostHint, got[0].Line("disambiguation[0].differs"))
	}
}

func TestParseProblems(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // substrings, one per problem, in order
	}{
		{"syntax", "server_id: [\n", []string{"f:1: invalid YAML"}},
		{"empty", "# nothing\n", []string{"f: no SRD in file"}},
		{"not a mapping", "- a\n- b\n", []string{"f:1: want a mapping of SRD fields, got a list"}},
		{"unknown key", "srd_version: 1\ncolour: red\n", []string{"f:2: colour: unknown field"}},
		{"repeated key", "domain: a\ndomain: b\n", []string{"f:2: domain: key repeated (first at line 1)"}},
		{"wrong types", "srd_version: one\nserver_id: 7\npriority: 2.5\n", []string{
			"f:1: srd_version: want an integer, got a string", "f:2: server_id: want a string, got a number",
			"f:3: priority: want an integer, got a number"}},
		{"big int", "priority: 99999999999\n", []string{"f:1: priority: integer 99999999999 is out of range"}},
		{"boolean text", "summary: true\n", []string{"f:1: summary: want a string, got a boolean"}},
		{"alias", "display_name: &a X\nsummary: *a\n", []string{"f:2: summary: aliases are not allowed"}},
		{"list item type", "intent_triggers: [a, [b]]\n", []string{"f:1: intent_triggers[1]: want a string, got a list"}},
		{"disambiguation shape", "disambiguation: text\n", []string{"f:1: disambiguation: want a list of {domain, server, differs} entries"}},
		{"disambiguation key", "disambiguation:\n  - domain: a\n    reason: b\n", []string{"f:3: disambiguation[0].reason: unknown field"}},
		{"cost key", "cost_hint: {speed: fast}\n", []string{"f:1: cost_hint.speed: unknown field"}},
		{"groups shape", "tool_groups: [a]\n", []string{"f:1: tool_groups: want a mapping, got a list"}},
		{"group shape", "tool_groups:\n  g: a\n", []string{"f:2: tool_groups.g: want a list of strings, got a string"}},
		{"second document", "domain: a\n---\ndomain: [b]\n", []string{"f:3: domain: want a string, got a list"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, probs := Parse("f", []byte(tc.src))
			if len(probs) != len(tc.want) {
				t.Fatalf("got %d problems, want %d:\n%v", len(probs), len(tc.want), probs)
			}
			for i, w := range tc.want {
				if !strings.Contains(probs[i].String(), w) {
					t.Errorf("problem %d = %q, want it to contain %q", i, probs[i], w)
				}
			}
		})
	}
	if _, probs := Parse("f", make([]byte, MaxFileSize+1)); len(probs) != 1 || !strings.Contains(probs[0].Msg, "bytes") {
		t.Errorf("oversized file: %v", probs)
	}
}

func TestNormalizeTrigger(t *testing.T) {
	for in, want := range map[string]string{
		"  Open   a PR. ": "open a pr",
		"\"quoted?\"":     "quoted",
		"...":             "",
	} {
		if got := NormalizeTrigger(in); got != want {
			t.Errorf("NormalizeTrigger(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestProblemString(t *testing.T) {
	for _, tc := range []struct {
		p    Problem
		want string
	}{
		{Problem{File: "a.yaml", Line: 3, Field: "domain", Msg: "bad"}, "a.yaml:3: domain: bad"},
		{Problem{File: "a.yaml", Msg: "bad"}, "a.yaml: bad"},
		{Problem{Field: "x", Msg: "bad"}, "<input>: x: bad"},
	} {
		if got := tc.p.String(); got != tc.want {
			t.Errorf("String() = %q, want %q", got, tc.want)
		}
	}
}

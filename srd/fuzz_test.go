package srd

import "testing"

// FuzzParse checks that no input makes Parse panic, named .yaml or .json,
// that every problem has a file, and that linting whatever decoded does not panic either.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"srd_version: 1\nserver_id: s\ndomain: d\ndisplay_name: D\nintent_triggers: [a]\ndisambiguation: [{domain: e, differs: x}]\n",
		`{"srd_version":1,"tool_groups":{"g":["a","a"]}}`,
		"a: &x [1]\nb: *x\n",
		"---\n---\ndomain: a\n",
		"priority: 0x7fffffff\ncost_hint: {latency: fast}\n",
		"[",
		`{"srd_version":"0.1","server_id":"s","domain":"a_b","disambiguation":"unlike c","priority":80,"cost_hint":{"latency_class":"low"},"tool_groups":[{"group":"g","tools":["t"]}]}`,
		"srd_version: 0.1\ntool_groups: [{group: g}, 3]\n",
		// JSON that YAML reads and JSON refuses (NotJSON)
		"{\"srd_version\": 1, \"intent_triggers\": [\"a\",],}\r\n",
		"{\"a\": 1} {\"b\": 2}",
		"\xef\xbb\xbf{\"srd_version\": 1} // c",
		"\xff\xfe{\x00}\x00,\x00",
		"{'server_id': x}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// A .json file is also checked as JSON (NotJSON).
		if _, probs := Parse("fuzz.json", data); len(probs) > 0 {
			for _, p := range probs {
				if p.File != "fuzz.json" {
					t.Fatalf("problem without the file: %v", p)
				}
			}
		}
		srds, probs := Parse("fuzz.yaml", data)
		for _, p := range probs {
			if p.File != "fuzz.yaml" {
				t.Fatalf("problem without the file: %v", p)
			}
		}
		_ = Lint(srds, LintOptions{})
		if set, err := NewSet(srds); err == nil {
			_ = set.DirectoryText([]ToolRef{{Server: "s", Name: "a"}})
			for _, d := range set.Domains() {
				_ = set.ActivationNotice(d)
			}
		}
	})
}

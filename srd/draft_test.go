package srd

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func loadDraft(t *testing.T, files ...string) []*SRD {
	t.Helper()
	var paths []string
	for _, f := range files {
		paths = append(paths, filepath.Join("testdata", "draft", f))
	}
	srds, probs, err := LoadPaths(paths)
	if err != nil {
		t.Fatal(err)
	}
	if len(probs) > 0 {
		t.Fatalf("decoding: %v", probs)
	}
	return srds
}

// TestDraftExampleLintsAndConverts pins the acceptance: the
// draft's published example, with a neighbour SRD for web-search, lints
// clean as v0.1 and converts to v1 SRDs that lint clean and keep every
// text.
func TestDraftExampleLintsAndConverts(t *testing.T) {
	srds := loadDraft(t, "kb-internal.json", "web-search.yaml")
	if probs := Lint(srds, LintOptions{}); len(probs) > 0 {
		t.Fatalf("draft set: %v", probs)
	}
	kb := srds[0]
	if kb.Draft == nil || kb.Domain != "enterprise-knowledge" || kb.Priority != 8 || kb.Draft.Priority != 80 ||
		kb.CostHint.Latency != "medium" || kb.CostHint.Tokens != "small" || len(kb.ToolGroups) != 1 || kb.ToolGroups[0].Name != "retrieval" {
		t.Errorf("kb-internal read as %+v (draft %+v)", kb, kb.Draft)
	}
	names := NamesOf(srds, nil, nil)
	wantEntries := []Disambiguation{{Domain: "public-web", Server: "web-search", Differs: kb.Draft.Disambiguation}}
	if got := ResolveDraft(kb, names); !cmp.Equal(got, wantEntries) {
		t.Errorf("kb-internal entries = %+v, want %+v", got, wantEntries)
	}
	var v1 []*SRD
	for _, s := range srds {
		out, err := ConvertDraft(s, names)
		if err != nil {
			t.Fatal(err)
		}
		conv, probs := Parse(s.ServerID+".yaml", out)
		if len(probs) > 0 || len(conv) != 1 {
			t.Fatalf("%s: converted file does not decode: %v\n%s", s.ServerID, probs, out)
		}
		c := conv[0]
		if c.Draft != nil || c.Version != Version {
			t.Errorf("%s: converted to version %d", s.ServerID, c.Version)
		}
		// No text is lost: every string of the draft is in the v1 SRD.
		if c.ServerID != s.ServerID || c.Domain != s.Domain || c.DisplayName != s.DisplayName ||
			!cmp.Equal(c.IntentTriggers, s.IntentTriggers) || !cmp.Equal(c.ToolGroups, s.ToolGroups) ||
			c.Priority != s.Priority || !cmp.Equal(c.CostHint, s.CostHint) {
			t.Errorf("%s: converted SRD differs:\n%s", s.ServerID, out)
		}
		for _, e := range c.Disambiguation {
			if e.Differs != strings.TrimSpace(s.Draft.Disambiguation) {
				t.Errorf("%s: differs %q, want the draft's sentence", s.ServerID, e.Differs)
			}
		}
		v1 = append(v1, c)
	}
	if probs := Lint(v1, LintOptions{}); len(probs) > 0 {
		t.Errorf("converted set: %v", probs)
	}
	// A set read as v1 and v0.1 together routes the same domains.
	set, err := NewSet(append(v1[:1:1], srds[1]))
	if err != nil {
		t.Fatal(err)
	}
	if got := set.ActivationNotice("public-web"); !strings.Contains(got, "Not enterprise-knowledge: Pages anyone can open") {
		t.Errorf("notice of a draft domain = %q", got)
	}
}

// TestDraftRules pins the draft's CI rules: a disambiguation that names no
// other domain, a missing one, a domain conflict, a priority out of range,
// and the draft's shapes checked in their own terms.
func TestDraftRules(t *testing.T) {
	base := loadDraft(t, "kb-internal.json", "web-search.yaml")
	lonely := loadDraft(t, "lonely.yaml")
	probs := Lint(append(base, lonely...), LintOptions{})
	if len(probs) != 1 || probs[0].Field != "disambiguation" || !strings.Contains(probs[0].Msg, "names no other domain") ||
		!strings.Contains(probs[0].Msg, "enterprise-knowledge") {
		t.Errorf("lonely: %v", probs)
	}
	tests := []struct {
		name, src string
		want      []string
	}{
		{"missing disambiguation", `srd_version: "0.1"
server_id: a
domain: alpha
display_name: A
intent_triggers: [x]
`, []string{"x.yaml:1: disambiguation: missing or empty"}},
		{"domain conflict", `srd_version: "0.1"
server_id: other-web
domain: public-web
display_name: W
intent_triggers: [y]
disambiguation: unlike enterprise knowledge
`, []string{`x.yaml:3: domain: domain conflict: "public-web" is written "public_web"`,
			`x.yaml:3: domain: domain conflict: shares domain "public-web" with server "web-search"`}},
		{"shapes", `srd_version: "0.1"
server_id: b
domain: Beta Stuff
display_name: B
intent_triggers: [z]
disambiguation: not public_web
priority: 120
cost_hint: {latency_class: fast, token_class: low}
tool_groups:
  - {group: g, tools: [t, t]}
  - {group: g, tools: []}
`, []string{`x.yaml:3: domain: "Beta Stuff" is not a domain name`, "x.yaml:7: priority: 120 is out of bounds (0..100)",
			`x.yaml:8: cost_hint.latency_class: "fast" is not one of low, medium, high`,
			`x.yaml:10: tool_groups[0].tools[1]: tool "t" listed twice`, `x.yaml:11: tool_groups[1]: group "g" lists no tools`,
			`x.yaml:11: tool_groups[1].group: group "g" listed twice`}},
		{"unquoted version", "srd_version: 0.1\nserver_id: c\ndomain: c\ndisplay_name: C\nintent_triggers: [w]\ndisambiguation: unlike public_web\n",
			[]string{`x.yaml:1: srd_version: want the string "0.1"`}},
		{"v1 field in a draft", "srd_version: \"0.1\"\nserver_id: c\ndomain: c\ndisplay_name: C\nintent_triggers: [w]\ndisambiguation: unlike public_web\nsummary: s\n",
			[]string{"x.yaml:7: summary: unknown field of a v0.1 SRD"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			extra, probs := Parse("x.yaml", []byte(tc.src))
			probs = append(probs, Lint(append(loadDraft(t, "kb-internal.json", "web-search.yaml"), extra...), LintOptions{})...)
			var got []string
			for _, p := range probs.Sort() {
				got = append(got, p.String())
			}
			for _, w := range tc.want {
				if !strings.Contains(strings.Join(got, "\n"), w) {
					t.Errorf("no problem %q in:\n%s", w, strings.Join(got, "\n"))
				}
			}
		})
	}
}

func TestDraftPriorityToV1(t *testing.T) {
	for p, want := range map[int]int{0: 0, 4: 0, 5: 1, 14: 1, 15: 2, 45: 5, 50: 5, 54: 5, 55: 6, 80: 8, 85: 9, 94: 9, 95: 10, 100: 10} {
		if got := DraftPriorityToV1(p); got != want {
			t.Errorf("DraftPriorityToV1(%d) = %d, want %d", p, got, want)
		}
	}
}

// TestDraftMentions: names match across case, "_", "-" and spaces, but
// only whole words.
func TestDraftMentions(t *testing.T) {
	names := Names{Domains: []string{"web-search", "mail", "chat"}, Servers: map[string]string{"slack-mcp": "chat"}}
	s := &SRD{ServerID: "kb", Domain: "kb", Draft: &Draft{}}
	for text, want := range map[string][]string{
		"Unlike Web_Search, internal only":           {"web-search"},
		"unlike websearch or emails":                 nil,
		"not the SLACK MCP server; not Mail either":  {"chat/slack-mcp", "mail"},
		"chat and slack-mcp are for talking, not kb": {"chat/slack-mcp"},
	} {
		s.Draft.Disambiguation = text
		var got []string
		for _, e := range ResolveDraft(s, names) {
			g := e.Domain
			if e.Server != "" {
				g += "/" + e.Server
			}
			got = append(got, g)
		}
		if !cmp.Equal(got, want) {
			t.Errorf("%q: %v, want %v", text, got, want)
		}
	}
}

// TestDraftConvertGolden pins the converted files' bytes.
func TestDraftConvertGolden(t *testing.T) {
	srds := loadDraft(t, "kb-internal.json", "web-search.yaml")
	var sb strings.Builder
	for i, s := range srds {
		out, err := ConvertDraft(s, NamesOf(srds, nil, nil))
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 {
			sb.WriteString("---\n")
		}
		sb.Write(out)
	}
	golden(t, "draft.converted.golden", filepath.ToSlash(sb.String()))
	if _, err := ConvertDraft(&SRD{ServerID: "v1"}, Names{}); err == nil {
		t.Error("converted a v1 SRD")
	}
}

// TestDraftReadAsV1 pins docs/srd.md's count for the draft's example read
// as v1 (its srd_version "1"): 9 errors, one per field the draft shapes
// differently — the version string, the underscore domain, the string
// disambiguation, priority 80, latency_class and token_class unknown,
// latency and tokens missing, tool_groups as a list.
func TestDraftReadAsV1(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "draft", "kb-internal.json"))
	if err != nil {
		t.Fatal(err)
	}
	v1 := strings.Replace(string(src), `"srd_version": "0.1"`, `"srd_version": "1"`, 1)
	if v1 == string(src) {
		t.Fatal("test setup: the draft's version string is not in kb-internal.json")
	}
	file := filepath.Join(t.TempDir(), "kb-internal.json")
	if err := os.WriteFile(file, []byte(v1), 0o644); err != nil {
		t.Fatal(err)
	}
	srds, probs, err := LoadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	probs = append(probs, Lint(srds, LintOptions{})...)
	var fields []string
	for _, p := range probs {
		fields = append(fields, p.Field)
	}
	slices.Sort(fields)
	want := []string{"cost_hint.latency", "cost_hint.latency_class", "cost_hint.token_class", "cost_hint.tokens",
		"disambiguation", "domain", "priority", "srd_version", "tool_groups"}
	if !cmp.Equal(fields, want) {
		t.Errorf("read as v1, the draft's problems are at %q, want %q:\n%v", fields, want, probs)
	}
}

package srd

import (
	"strings"
	"testing"
)

// TestLintOneLineTexts pins that the texts a prompt prints on one line —
// display_name and summary (the by-domain directory's heading, the
// activation notice) and each disambiguation's differs, or a draft's
// sentence (the notice) — are refused when they hold a line break. A YAML
// block scalar (summary: |) linted clean and split the directory heading in
// two, so the rendered directory no longer had one heading line per domain.
func TestLintOneLineTexts(t *testing.T) {
	const clean = "srd_version: 1\nserver_id: a\ndomain: chat\ndisplay_name: A\nsummary: Chat.\n" +
		"intent_triggers: [x]\ndisambiguation:\n  - {domain: email, differs: not mail}\n"
	v1 := func(old, new string) string { return strings.Replace(clean, old, new, 1) }
	draft := func(name, sentence string) string {
		return `{"srd_version": "0.1", "server_id": "a", "display_name": "` + name + `", "domain": "chat",` + "\n" +
			` "intent_triggers": ["x"], "disambiguation": "` + sentence + `"}`
	}
	for _, tc := range []struct {
		name, src, want string
	}{
		{"clean", clean, ""},
		{"summary block", v1("summary: Chat.\n", "summary: |\n  Chat rooms.\n  Threads too.\n"), "5: summary: holds a line break"},
		{"summary block, one line", v1("summary: Chat.\n", "summary: |\n  Chat rooms.\n"), ""},
		{"display name", v1("display_name: A\n", `display_name: "A\nB"`+"\n"), "4: display_name: holds a line break"},
		{"differs", v1("differs: not mail}", `differs: "not\r\nmail"}`), "8: disambiguation[0].differs: holds a line break"},
		{"draft clean", draft("A", "Unlike email: chat"), ""},
		{"draft display name", draft(`A\nB`, "Unlike email: chat"), "1: display_name: holds a line break"},
		{"draft sentence", draft("A", `Unlike email:\nchat`), "2: disambiguation: holds a line break"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srds, probs := Parse("a.yaml", []byte(tc.src))
			if len(probs) > 0 {
				t.Fatal(probs)
			}
			var got []string
			for _, p := range Lint(srds, LintOptions{KnownDomains: []string{"email"}}) {
				got = append(got, strings.TrimPrefix(p.String(), "a.yaml:"))
			}
			switch {
			case tc.want == "" && len(got) > 0:
				t.Errorf("problems %q, want none", got)
			case tc.want != "" && (len(got) != 1 || !strings.HasPrefix(got[0], tc.want)):
				t.Errorf("problems %q, want one starting %q", got, tc.want)
			}
		})
	}
}

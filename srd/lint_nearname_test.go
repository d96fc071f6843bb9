package srd

import (
	"strconv"
	"strings"
	"testing"

	"github.com/defersim/defersim/catalog"
)

// TestLintNamesTheNameMeant pins the close name every unresolved name of an
// SRD is offered (catalog.NearName): before, a server_id no catalog holds,
// a tool_groups tool its server does not serve, and a disambiguation
// server or domain nobody describes each said only that it resolved to
// nothing, though the fix was one letter, a case or an mcp__ prefix away.
func TestLintNamesTheNameMeant(t *testing.T) {
	parse := func(server, tools string) *catalog.Server {
		s, err := catalog.Parse([]byte(`{"tools":[`+tools+`]}`), server, "1.0", "")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	cat := catalog.New(parse("acme__chat", `{"name":"post_message"},{"name":"list_channels"}`), parse("acme__mail", `{"name":"send"}`))
	for _, tc := range []struct {
		name, server, tools, entries string
		want                         string // the problem, after "a.yaml:"
	}{
		{"server typo", "acme__chatt", "[post_message]", "  - domain: email\n    differs: mail\n",
			`2: server_id: no catalog of server "acme__chatt" in the catalogs; did you mean "acme__chat"?`},
		{"tool typo", "acme__chat", "[post_mesage]", "  - domain: email\n    differs: mail\n",
			`12: tool_groups.g[0]: unknown tool "post_mesage": no version of acme__chat serves it; did you mean "post_message"?`},
		{"tool case", "acme__chat", "[Post_Message]", "  - domain: email\n    differs: mail\n",
			`12: tool_groups.g[0]: unknown tool "Post_Message": no version of acme__chat serves it; did you mean "post_message" (the same name in another case)?`},
		{"tool prefix", "acme__chat", "[mcp__chat__list_channels]", "  - domain: email\n    differs: mail\n",
			`12: tool_groups.g[0]: unknown tool "mcp__chat__list_channels": no version of acme__chat serves it; did you mean "list_channels" (the name without its prefix "mcp__chat__")?`},
		{"tool unrelated", "acme__chat", "[delete_workspace]", "  - domain: email\n    differs: mail\n",
			`12: tool_groups.g[0]: unknown tool "delete_workspace": no version of acme__chat serves it`},
		{"disambiguation server", "acme__chat", "[post_message]", "  - domain: email\n    server: acme__mial\n    differs: mail\n",
			`6: disambiguation[0].server: names server "acme__mial", which no SRD describes; did you mean "acme__mail"?`},
		{"disambiguation domain", "acme__chat", "[post_message]", "  - domain: emial\n    differs: mail\n",
			`5: disambiguation[0].domain: names no known domain: "emial" is claimed by no SRD (known: chat, email); did you mean "email"?`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "srd_version: 1\nserver_id: " + tc.server + "\ndomain: chat\ndisambiguation:\n" + tc.entries +
				"display_name: A\nintent_triggers: [x]\ntool_groups:\n  g: " + tc.tools + "\n"
			srds, probs := Parse("a.yaml", []byte(src))
			if len(probs) > 0 {
				t.Fatal(probs)
			}
			var got []string
			for _, p := range Lint(srds, LintOptions{Catalog: cat, KnownDomains: []string{"email"}, KnownServers: []string{"acme__mail"}}) {
				got = append(got, strings.TrimPrefix(p.String(), "a.yaml:"))
			}
			want := strings.Replace(tc.want, "12:", lineOf(src, "  g: ")+":", 1)
			if len(got) != 1 || got[0] != want {
				t.Errorf("problems:\n%s\nwant %q", strings.Join(got, "\n"), want)
			}
		})
	}
}

// lineOf is the 1-based line of src that starts with prefix, as text.
func lineOf(src, prefix string) string {
	for i, l := range strings.Split(src, "\n") {
		if strings.HasPrefix(l, prefix) {
			return strconv.Itoa(i + 1)
		}
	}
	return "?"
}

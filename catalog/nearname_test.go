package catalog

import (
	"slices"
	"testing"
)

// TestNearName pins the one matching every user-written name that resolves
// to nothing goes through (trace calls, SRD files, scenario lists, CLI
// keys): case first, then a separator-ended prefix (the longest name it
// strips to), then typos, and nothing for an unrelated or exact name.
func TestNearName(t *testing.T) {
	names := []string{"slack_post_message", "slack_list_channels", "b", "a.b", "Search", "slack_post_message"}
	for _, tc := range []struct {
		name, in string
		kind     NearKind
		want     []string
		prefix   string
		hint     string
	}{
		{"case", "SLACK_POST_MESSAGE", NearCase, []string{"slack_post_message"}, "", `did you mean "slack_post_message" (the same name in another case)?`},
		{"mcp prefix", "mcp__slack__slack_post_message", NearPrefix, []string{"slack_post_message"}, "mcp__slack__", `did you mean "slack_post_message" (the name without its prefix "mcp__slack__")?`},
		{"longest stripped name", "srv.a.b", NearPrefix, []string{"a.b"}, "srv.", `did you mean "a.b" (the name without its prefix "srv.")?`},
		{"prefix in another case", "Slack:SEARCH", NearPrefix, []string{"Search"}, "Slack:", `did you mean "Search" (the name without its prefix "Slack:")?`},
		{"typo", "slack_post_mesage", NearTypo, []string{"slack_post_message"}, "", `did you mean "slack_post_message"?`},
		{"unrelated", "github_create_issue", NearNone, nil, "", ""},
		{"exact", "slack_post_message", NearNone, nil, "", ""},
		{"prefix without separator", "xslack_post_message", NearTypo, []string{"slack_post_message"}, "", `did you mean "slack_post_message"?`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := NearName(tc.in, names)
			if got.Kind != tc.kind || !slices.Equal(got.Names, tc.want) || got.Prefix != tc.prefix {
				t.Errorf("NearName(%q) = %+v, want kind %d names %q prefix %q", tc.in, got, tc.kind, tc.want, tc.prefix)
			}
			if h := got.Hint(); h != tc.hint {
				t.Errorf("Hint = %q, want %q", h, tc.hint)
			}
		})
	}
}

// TestNearNameHintLists pins the typo hint's list: nearest first, joined
// with a last "or", only those at the nearest distance, and the input
// order of names not mattering.
func TestNearNameHintLists(t *testing.T) {
	for _, tc := range []struct {
		names []string
		want  string
	}{
		{[]string{"githubb", "gitub", "github_"}, `did you mean "github_", "githubb" or "gitub"?`},
		{[]string{"gitub", "github_", "githubb"}, `did you mean "github_", "githubb" or "gitub"?`},
		{[]string{"gitub", "jira"}, `did you mean "gitub"?`},
		{[]string{"gitub", "githbu_x"}, `did you mean "gitub"?`}, // one edit beats three
	} {
		if got := NearName("github", tc.names).Hint(); got != tc.want {
			t.Errorf("names %q: %q, want %q", tc.names, got, tc.want)
		}
	}
	long := NearName("modelcontextprotocol__server-slak", []string{"modelcontextprotocol__server-gitlab", "modelcontextprotocol__server-slack", "modelcontextprotocol__server-redis"})
	if got, want := long.Hint(), `did you mean "modelcontextprotocol__server-slack"?`; got != want {
		t.Errorf("long shared prefix: %q, want %q", got, want)
	}
	if got := NearName("acme-alias", []string{"acme-files"}); got.Kind != NearNone {
		t.Errorf("acme-alias: %+v, want none (three edits in a four-letter stretch)", got)
	}
	if got := NearName("gihtub", []string{"github"}).Hint(); got != `did you mean "github"?` {
		t.Errorf("swapped letters: %q", got)
	}
	if got := NearName("github", []string{"gitlab"}); got.Kind != NearNone {
		t.Errorf("gitlab for github: %+v, want none", got)
	}
	if got := NearName("get_usr", []string{"get_usr_x"}).Hint(); got != `did you mean "get_usr_x"?` {
		t.Errorf("letters added: %q", got)
	}
	if got := NearName("x", nil).WithHint("m"); got != "m" {
		t.Errorf("WithHint with none: %q", got)
	}
}

// TestNearNamePlural pins the plural rule: a name with a word in the
// singular for the plural or the reverse (-s, -es, -ies) three or more
// edits apart was offered nothing ("search_repository" for
// "search_repositories"); short stems and words that only end like a
// plural ("status", "address", "bus") are not offered a wrong name, and a
// name one edit away is still offered as a typo.
func TestNearNamePlural(t *testing.T) {
	for _, tc := range []struct {
		in    string
		names []string
		kind  NearKind
		want  []string
		hint  string
	}{
		{"search_repository", []string{"search_repositories", "search_code"}, NearPlural, []string{"search_repositories"},
			`did you mean "search_repositories" ("repositories" for "repository")?`},
		{"get_entries", []string{"get_entry", "list_entries"}, NearPlural, []string{"get_entry"}, `did you mean "get_entry" ("entry" for "entries")?`},
		{"getEntriesById", []string{"getEntryById"}, NearPlural, []string{"getEntryById"}, `did you mean "getEntryById" ("Entry" for "Entries")?`},
		{"list_box", []string{"list_boxes"}, NearPlural, []string{"list_boxes"}, `did you mean "list_boxes" ("boxes" for "box")?`},
		{"get_addresses", []string{"get_address"}, NearPlural, []string{"get_address"}, `did you mean "get_address" ("address" for "addresses")?`},
		{"Search_Repository", []string{"search_repositories"}, NearPlural, []string{"search_repositories"}, `did you mean "search_repositories" ("repositories" for "Repository")?`},
		{"list_issue", []string{"list_issues"}, NearTypo, []string{"list_issues"}, `did you mean "list_issues"?`}, // one edit stays a typo
		{"match", []string{"matches"}, NearPlural, []string{"matches"}, `did you mean "matches" (the plural)?`},
		{"entries", []string{"entry"}, NearPlural, []string{"entry"}, `did you mean "entry" (the singular)?`},
		{"strategy", []string{"strategies", "seed"}, NearPlural, []string{"strategies"}, `did you mean "strategies" (the plural)?`},
		{"statu", []string{"status"}, NearTypo, []string{"status"}, `did you mean "status"?`},
		{"stati", []string{"status"}, NearNone, nil, ""}, // -us is no plural
		{"get_bu", []string{"get_bus"}, NearTypo, []string{"get_bus"}, `did you mean "get_bus"?`},
		{"fly", []string{"flies"}, NearNone, nil, ""},                                                     // stem "fl" too short
		{"get_ly", []string{"get_lies"}, NearNone, nil, ""},                                               // idem
		{"addresss", []string{"addresses"}, NearTypo, []string{"addresses"}, `did you mean "addresses"?`}, // -ss is no plural
		{"get_entry_names", []string{"get_entries_name"}, NearPlural, []string{"get_entries_name"}, `did you mean "get_entries_name" ("entries" for "entry")?`},
		{"get_entry_ids", []string{"get_entries_id"}, NearNone, nil, ""},                                                     // "ids": stem "id" too short
		{"get_entry", []string{"get_entries", "get_entrys"}, NearTypo, []string{"get_entrys"}, `did you mean "get_entrys"?`}, // one edit first
		{"query", []string{"queries_x"}, NearNone, nil, ""},                                                                  // different separators
	} {
		t.Run(tc.in, func(t *testing.T) {
			got := NearName(tc.in, tc.names)
			if got.Kind != tc.kind || !slices.Equal(got.Names, tc.want) {
				t.Errorf("NearName(%q, %q) = %+v, want kind %d names %q", tc.in, tc.names, got, tc.kind, tc.want)
			}
			if h := got.Hint(); h != tc.hint {
				t.Errorf("Hint = %q, want %q", h, tc.hint)
			}
		})
	}
}

// TestNearNamePluralAfterPrefix pins that the plural rule combines with
// the prefix rule: mcp__x__search_repository was offered nothing for
// search_repositories, since the prefix rule wants the rest to be a name
// exactly and the plural rule compares the whole name, prefix and all.
// The longest rest a prefix strips to is tried first, a rest one edit from
// a name is left to the typo rule, and a prefix alone still wins.
func TestNearNamePluralAfterPrefix(t *testing.T) {
	testNearAfterPrefix(t, []nearAfterPrefix{
		{"mcp__x__search_repository", []string{"search_repositories", "search_code"}, NearPlural, []string{"search_repositories"}, "mcp__x__",
			`did you mean "search_repositories" (the name without its prefix "mcp__x__", "repositories" for "repository")?`},
		{"github.get_entries", []string{"get_entry"}, NearPlural, []string{"get_entry"}, "github.",
			`did you mean "get_entry" (the name without its prefix "github.", "entry" for "entries")?`},
		{"srv:Search_Repository", []string{"search_repositories"}, NearPlural, []string{"search_repositories"}, "srv:",
			`did you mean "search_repositories" (the name without its prefix "srv:", "repositories" for "Repository")?`},
		{"mcp__x__strategy", []string{"strategies"}, NearPlural, []string{"strategies"}, "mcp__x__",
			`did you mean "strategies" (the name without its prefix "mcp__x__", the plural)?`},
		{"mcp__x__get_entry", []string{"get_entries", "get_entry_names"}, NearPlural, []string{"get_entries"}, "mcp__x__",
			`did you mean "get_entries" (the name without its prefix "mcp__x__", "entries" for "entry")?`},
		{"mcp__x__list_box", []string{"list_boxes", "get_list_boxes"}, NearPlural, []string{"list_boxes"}, "mcp__x__",
			`did you mean "list_boxes" (the name without its prefix "mcp__x__", "boxes" for "box")?`},
		{"mcp__x__search_repositories", []string{"search_repositories"}, NearPrefix, []string{"search_repositories"}, "mcp__x__",
			`did you mean "search_repositories" (the name without its prefix "mcp__x__")?`}, // the prefix alone
		{"mcp__x__list_thing", []string{"list_things", "list_thing_"}, NearTypo, []string{"list_thing_", "list_things"}, "mcp__x__", // one edit from list_thing_: no plural, the typo rule
			`did you mean "list_thing_" or "list_things" (the name without its prefix "mcp__x__", spelled closely: "mcp__x__list_thing_" or "mcp__x__list_things")?`},
		{"mcp__x__fly", []string{"flies"}, NearNone, nil, "", ""},                         // stem too short after the prefix too
		{"mcpxsearch_repository", []string{"search_repositories"}, NearNone, nil, "", ""}, // no separator: no prefix
	})
}

// nearAfterPrefix is a case of a rule combined with the prefix rule: in
// and names, and the Near wanted (hint "": no hint).
type nearAfterPrefix struct {
	in     string
	names  []string
	kind   NearKind
	want   []string
	prefix string
	hint   string
}

// testNearAfterPrefix checks NearName and its Hint for each case.
func testNearAfterPrefix(t *testing.T, cases []nearAfterPrefix) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			got := NearName(tc.in, tc.names)
			if got.Kind != tc.kind || !slices.Equal(got.Names, tc.want) || got.Prefix != tc.prefix {
				t.Errorf("NearName(%q, %q) = %+v, want kind %d names %q prefix %q", tc.in, tc.names, got, tc.kind, tc.want, tc.prefix)
			}
			if h := got.Hint(); h != tc.hint {
				t.Errorf("Hint = %q, want %q", h, tc.hint)
			}
		})
	}
}

// TestNearNameTypoAfterPrefix pins that the typo rule combines with the
// prefix rule: mcp__github__get_isue was offered nothing for get_issue
// (the whole name is too far from any name, and the prefix rule wants the
// rest to be a name exactly), while get_isue alone and
// mcp__github__get_issue each were offered it. The hint names the close
// name and the name as the user wrote it, prefix and all; the whole name
// close to a name still wins, and a rest close to none is offered nothing.
func TestNearNameTypoAfterPrefix(t *testing.T) {
	// Tools the shared catalogs' modelcontextprotocol/server-github serves.
	github := []string{"get_issue", "get_file_contents", "list_issues", "create_issue", "search_code"}
	testNearAfterPrefix(t, []nearAfterPrefix{
		{"mcp__github__get_isue", github, NearTypo, []string{"get_issue"}, "mcp__github__",
			`did you mean "get_issue" (the name without its prefix "mcp__github__", spelled closely: "mcp__github__get_issue")?`},
		{"github.serch_code", github, NearTypo, []string{"search_code"}, "github.",
			`did you mean "search_code" (the name without its prefix "github.", spelled closely: "github.search_code")?`},
		{"get_isue", github, NearTypo, []string{"get_issue"}, "", `did you mean "get_issue"?`},
		{"mcp__github__get_issue", github, NearPrefix, []string{"get_issue"}, "mcp__github__",
			`did you mean "get_issue" (the name without its prefix "mcp__github__")?`},
		// server:name close as a whole: no prefix is stripped.
		{"srv:get_isue", []string{"srv:get_issue", "get_issue"}, NearTypo, []string{"srv:get_issue"}, "", `did you mean "srv:get_issue"?`},
		// The longest rest first: a__b_cx is close to a__b_c before b_cx is to b_cy.
		{"mcp__a__b_cx", []string{"a__b_c", "b_cy"}, NearTypo, []string{"a__b_c"}, "mcp__",
			`did you mean "a__b_c" (the name without its prefix "mcp__", spelled closely: "mcp__a__b_c")?`},
		{"mcp__github__delete_everything", github, NearNone, nil, "", ""},
	})
}

// TestNearNamePart pins the part rule: a name that is a part of a served
// name, between "_", "-", "/", "." or the ends ("github" for
// "modelcontextprotocol__server-github", as `trace gen --servers github`
// writes it) was offered nothing; the names holding it are offered when
// CloseNames or fewer do, nothing when more do or the name is shorter
// than PartMinLen, and a name inside a word is no part. Every earlier
// rule still wins (the cases of the tests above run unchanged).
func TestNearNamePart(t *testing.T) {
	// Server names of the shared catalogs.
	servers := []string{"modelcontextprotocol__server-github", "modelcontextprotocol__server-gitlab", "zereight__mcp-gitlab",
		"modelcontextprotocol__server-slack", "modelcontextprotocol__server-redis", "modelcontextprotocol__server-google-maps",
		"playwright__mcp", "executeautomation__playwright-mcp-server", "chrome-devtools-mcp", "next-devtools-mcp", "tavily-mcp"}
	for _, tc := range []struct {
		in    string
		names []string
		kind  NearKind
		want  []string
		hint  string
	}{
		{"github", servers, NearPart, []string{"modelcontextprotocol__server-github"},
			`did you mean "modelcontextprotocol__server-github" (a name holding "github" as a part)?`},
		{"GitHub", servers, NearPart, []string{"modelcontextprotocol__server-github"},
			`did you mean "modelcontextprotocol__server-github" (a name holding "GitHub" as a part)?`},
		{"server-github", servers, NearPart, []string{"modelcontextprotocol__server-github"},
			`did you mean "modelcontextprotocol__server-github" (a name holding "server-github" as a part)?`},
		{"gitlab", servers, NearPart, []string{"modelcontextprotocol__server-gitlab", "zereight__mcp-gitlab"},
			`did you mean "modelcontextprotocol__server-gitlab" or "zereight__mcp-gitlab" (names holding "gitlab" as a part)?`},
		{"playwright", servers, NearPart, []string{"executeautomation__playwright-mcp-server", "playwright__mcp"},
			`did you mean "executeautomation__playwright-mcp-server" or "playwright__mcp" (names holding "playwright" as a part)?`},
		{"devtools", servers, NearPart, []string{"chrome-devtools-mcp", "next-devtools-mcp"},
			`did you mean "chrome-devtools-mcp" or "next-devtools-mcp" (names holding "devtools" as a part)?`},
		{"google", servers, NearPart, []string{"modelcontextprotocol__server-google-maps"},
			`did you mean "modelcontextprotocol__server-google-maps" (a name holding "google" as a part)?`},
		{"a.b", []string{"x/a.b.c"}, NearPart, []string{"x/a.b.c"}, `did you mean "x/a.b.c" (a name holding "a.b" as a part)?`},
		{"mcp", servers, NearNone, nil, ""},                         // part of six names: points at none
		{"server", servers, NearNone, nil, ""},                      // idem
		{"hub", servers, NearNone, nil, ""},                         // inside a word: no part
		{"maps", []string{"mapsx_y", "y_xmaps"}, NearNone, nil, ""}, // idem, at either end
		{"id", []string{"get_id"}, NearNone, nil, ""},               // shorter than PartMinLen
		{"slak", servers, NearNone, nil, ""},                        // a misspelt part is no part
		{"get_issue", []string{"get_issues", "x_get_issue"}, NearTypo, []string{"get_issues"}, `did you mean "get_issues"?`}, // a typo first
		{"mcp__x__get_issue", []string{"get_issue", "mcp__x__get_issue_y"}, NearPrefix, []string{"get_issue"},
			`did you mean "get_issue" (the name without its prefix "mcp__x__")?`}, // a prefix first
	} {
		t.Run(tc.in, func(t *testing.T) {
			got := NearName(tc.in, tc.names)
			if got.Kind != tc.kind || !slices.Equal(got.Names, tc.want) {
				t.Errorf("NearName(%q, %q) = %+v, want kind %d names %q", tc.in, tc.names, got, tc.kind, tc.want)
			}
			if h := got.Hint(); h != tc.hint {
				t.Errorf("Hint = %q, want %q", h, tc.hint)
			}
		})
	}
}

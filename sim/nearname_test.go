package sim

import (
	"fmt"
	"strings"
	"testing"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/tokens"
	"github.com/defersim/defersim/traces"
)

// TestUnknownToolNamesTheCatalogsName pins that a call of a tool no
// catalog knows names the tool the server does serve when the trace's
// name differs only in case, by a prefix (mcp__<server>__<tool>, as an
// agent runtime logs it), by a typo, or is a part of it (book for
// book_reservation): validate said only "which no
// catalog knows", as for a tool that is really missing.
func TestUnknownToolNamesTheCatalogsName(t *testing.T) {
	parse := func(version, tools string) *catalog.Server {
		s, err := catalog.Parse([]byte(`{"tools":[`+tools+`]}`), "airline", version, "")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	// get_user_details only at 1.0: a near name is looked for at every version.
	cat := catalog.New(parse("1.0", `{"name":"get_user_details"},{"name":"book_reservation"},{"name":"list_policies"}`), parse("2.0", `{"name":"book_reservation"},{"name":"cancel_reservation"}`))
	for _, tc := range []struct {
		tool string
		want string // "" : the reason ends at "which no catalog knows"
	}{
		{"Get_User_Details", `server "airline" serves "get_user_details", the same name in another case: write the catalog's name in the trace`},
		{"mcp__airline__get_user_details", `server "airline" serves "get_user_details", the trace's name without its prefix "mcp__airline__"`},
		{"airline.BOOK_reservation", `server "airline" serves "book_reservation", the trace's name without its prefix "airline."`},
		{"get_usr_details", `the closest names server "airline" serves: "get_user_details"`},
		{"get_user_detail", `the closest names server "airline" serves: "get_user_details"`}, // one edit: a typo
		{"list_policy", `server "airline" serves "list_policies", the trace's name with "policies" for "policy": write the catalog's name in the trace`},
		{"xget_user_details", `the closest names server "airline" serves: "get_user_details"`}, // no separator: not a prefix
		{"mcp__airline__list_policy", `server "airline" serves "list_policies", the trace's name without its prefix "mcp__airline__" and with "policies" for "policy": write the catalog's name in the trace`},
		{"cancel_everything", ""},
		// A name part of a served name (the part rule): it was offered nothing.
		{"book", `server "airline" serves "book_reservation", a name holding the trace's name as a part: write the catalog's name in the trace`},
		{"reservation", `the names server "airline" serves holding the trace's name as a part: "book_reservation", "cancel_reservation"`},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			s := NewCallResolver(cat).Session()
			s.Event(&traces.Event{Type: traces.SessionStart, Session: "s", StartFields: &traces.StartFields{
				Servers: []traces.ServerRef{{Name: "airline", Version: "2.0"}}}}, 1, nil)
			got := s.Event(&traces.Event{Type: traces.ToolCall, Session: "s", Server: "airline", Tool: tc.tool}, 2, nil)
			if len(got) != 1 || got[0].Kind != traces.KindUnknownTool {
				t.Fatalf("got %+v, want one unknown tool", got)
			}
			base := `tool_call of tool "` + tc.tool + `" of server "airline", which no catalog knows`
			if tc.want == "" {
				if got[0].Reason != base {
					t.Errorf("reason %q, want %q", got[0].Reason, base)
				}
				return
			}
			if !strings.HasPrefix(got[0].Reason, base+"; "+tc.want) {
				t.Errorf("reason %q\nwant it to start %q", got[0].Reason, base+"; "+tc.want)
			}
		})
	}
}

// TestUnknownServerNamesTheCatalogsServer pins that a server no catalog
// holds — in a session_start, a catalog_change or a call the session does
// not name — is offered the held server name it most likely means (case,
// prefix or typo, catalog.NearName): validate listed the first five held
// servers, or for a call said only "no catalog holds the server".
func TestUnknownServerNamesTheCatalogsServer(t *testing.T) {
	parse := func(server string) *catalog.Server {
		s, err := catalog.Parse([]byte(`{"tools":[{"name":"t"}]}`), server, "1.0", "")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	cat := catalog.New(parse("airline"), parse("retail"), parse("telecom"))
	for _, tc := range []struct {
		server, hint string // hint "": the reason offers no name
	}{
		{"airlne", `; did you mean "airline"?`},
		{"AIRLINE", `; did you mean "airline" (the same name in another case)?`},
		{"mcp__retail", `; did you mean "retail" (the name without its prefix "mcp__")?`},
		{"banking", ""},
	} {
		t.Run(tc.server, func(t *testing.T) {
			s := NewCallResolver(cat).Session()
			start := s.Event(&traces.Event{Type: traces.SessionStart, Session: "s", StartFields: &traces.StartFields{
				Servers: []traces.ServerRef{{Name: tc.server}}}}, 1, nil)
			call := s.Event(&traces.Event{Type: traces.ToolCall, Session: "s", Server: tc.server, Tool: "t"}, 2, nil)
			if len(start) != 1 || len(call) != 1 {
				t.Fatalf("session_start %+v, call %+v: want one problem each", start, call)
			}
			for _, u := range []traces.Unresolved{start[0], call[0]} {
				if tc.hint == "" {
					if strings.Contains(u.Reason, "did you mean") {
						t.Errorf("offers a name: %q", u.Reason)
					}
				} else if !strings.HasSuffix(u.Reason, tc.hint) {
					t.Errorf("reason %q\nwant it to end %q", u.Reason, tc.hint)
				}
			}
		})
	}
}

// TestNearMemoKeysByServerAndName pins the memo in front of nearTool (one
// per CallResolver, shared by its sessions): every answer equals
// nearTool's, a name is not answered with another server's tools, and a
// full memo is emptied rather than grown. Without it, validating a trace
// that misspells a tool of a large server walked the server's names with
// an edit distance on every call.
func TestNearMemoKeysByServerAndName(t *testing.T) {
	parse := func(server, tools string) *catalog.Server {
		s, err := catalog.Parse([]byte(`{"tools":[`+tools+`]}`), server, "1.0", "")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	tt := buildToolTables(catalog.New(parse("a", `{"name":"get_user"}`), parse("b", `{"name":"get_usr_x"}`)), tokens.NewEstimator(0), nil, 0, nil)
	var n nearMemo
	for range 2 { // the second pass is answered by the memo
		for _, q := range [][2]string{{"a", "get_usr"}, {"b", "get_usr"}, {"a", "nothing_alike"}} {
			if got, want := n.get(tt, q[0], q[1]), tt.nearTool(q[0], q[1]); got != want {
				t.Errorf("%s/%s: memo %q, nearTool %q", q[0], q[1], got, want)
			}
		}
	}
	if a, b := n.get(tt, "a", "get_usr"), n.get(tt, "b", "get_usr"); a == b || !strings.Contains(a, `"get_user"`) || !strings.Contains(b, `"get_usr_x"`) {
		t.Errorf("servers mixed: a %q, b %q", a, b)
	}
	for i := range nearMemoEntries + 10 {
		n.get(tt, "a", "x"+strings.Repeat("y", i%50)+string(rune('a'+i%26)))
	}
	if len(n.m) > nearMemoEntries {
		t.Errorf("memo holds %d entries, bound %d", len(n.m), nearMemoEntries)
	}
}

// TestSessionlessCallsHintAsSessionsDo pins that trace validate says why a
// call of a session without a session_start does not resolve in the same
// words, with the same hint of the name meant, as a session's call: it
// said only "which no catalog knows" for a misspelled tool or server.
func TestSessionlessCallsHintAsSessionsDo(t *testing.T) {
	srv, err := catalog.Parse([]byte(`{"tools":[{"name":"get_user_details"},{"name":"list_policies"}]}`), "airline", "1.0", "")
	if err != nil {
		t.Fatal(err)
	}
	cat := catalog.New(srv)
	for _, tc := range []struct{ server, tool, hint string }{
		{"airline", "get_usr_details", `the closest names server "airline" serves: "get_user_details"`},
		{"airline", "list_policy", `server "airline" serves "list_policies", the trace's name with "policies" for "policy"`},
		{"airlne", "get_user_details", `(no catalog holds the server); did you mean "airline"?`},
	} {
		t.Run(tc.tool+"@"+tc.server, func(t *testing.T) {
			call := `{"type":"tool_call","session":"%s","t":"2026-02-10T08:00:01Z","call_id":"c1","tool":"` + tc.tool + `","server":"` + tc.server + `","status":"ok"}` + "\n"
			reasons := withAndWithoutStart(t, cat, call)
			if reasons["with"] == "" || reasons["with"] != reasons["without"] {
				t.Fatalf("reasons differ:\nwith session_start: %q\nwithout:            %q", reasons["with"], reasons["without"])
			}
			if !strings.Contains(reasons["without"], tc.hint) {
				t.Errorf("reason %q lacks %q", reasons["without"], tc.hint)
			}
		})
	}
}

// TestUnknownSearchResultNamesTheCatalogsName pins that a name a recorded
// tool_search returned, which no catalog knows, is offered the held tool
// name it most likely means, with the server that serves it — in a
// session with a session_start and in one without, in the same words: it
// said only "which no catalog knows", where a call of the same name got
// the hint.
func TestUnknownSearchResultNamesTheCatalogsName(t *testing.T) {
	parse := func(server, tools string) *catalog.Server {
		s, err := catalog.Parse([]byte(`{"tools":[`+tools+`]}`), server, "1.0", "")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	cat := catalog.New(parse("airline", `{"name":"get_user_details"},{"name":"list_policies"}`),
		parse("github", `{"name":"search_repositories"},{"name":"get_user"}`), parse("gitlab", `{"name":"get_user"}`))
	for _, tc := range []struct{ name, hint string }{
		{"get_usr_details", `; the closest names the catalogs serve: "get_user_details"`},
		{"list_policy", `; server "airline" serves "list_policies", the trace's name with "policies" for "policy": write the catalog's name in the trace`},
		{"Search_Repositories", `; server "github" serves "search_repositories", the same name in another case`},
		{"mcp__github__search_repositories", `; server "github" serves "search_repositories", the trace's name without its prefix "mcp__github__"`},
		{"GET_USER", `; servers "github", "gitlab" serve "get_user", the same name in another case`},
		{"cancel_everything", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			search := `{"type":"tool_search","session":"%s","t":"2026-02-10T08:00:01Z","query":"q","returned":["` + tc.name + `"]}` + "\n"
			reasons := withAndWithoutStart(t, cat, search)
			want := `tool_search returned tool "` + tc.name + `", which no catalog knows` + tc.hint
			for _, id := range []string{"with", "without"} {
				if got := reasons[id]; !strings.HasPrefix(got, want) || tc.hint == "" && got != want {
					t.Errorf("session %s: reason %q\nwant it to start %q", id, got, want)
				}
			}
		})
	}
}

// withAndWithoutStart validates event (a JSONL line whose session is %s)
// in session "with", which begins with a session_start holding airline
// 1.0, and in session "without", which has none, and returns each
// session's unknown_tool reason (without the session).
func withAndWithoutStart(t *testing.T, cat *catalog.Catalog, event string) map[string]string {
	t.Helper()
	trace := `{"v":1,"type":"session_start","session":"with","t":"2026-02-10T08:00:00Z","servers":[{"name":"airline","version":"1.0"}]}` + "\n" +
		fmt.Sprintf(event, "with") + fmt.Sprintf(event, "without")
	probs, _, err := traces.ValidateReader(strings.NewReader(trace), "t.jsonl", traces.ValidateOptions{Tools: cat, Resolver: NewCallResolver(cat)})
	if err != nil {
		t.Fatal(err)
	}
	reasons := map[string]string{}
	for _, p := range probs {
		if p.Kind != traces.KindUnknownTool {
			continue
		}
		for _, id := range []string{"with", "without"} {
			if r, ok := strings.CutPrefix(p.Reason, `session "`+id+`": `); ok {
				reasons[id] = r
			}
		}
	}
	return reasons
}

// TestValidateHintsATypoAfterAPrefix pins trace validate's message for a
// call of mcp__github__get_isue (a runtime's prefix and a typo of
// get_issue): it offered nothing, while get_isue and mcp__github__get_issue
// were each offered get_issue. The hint names the catalog's name and the
// name as written with the prefix, and says to write the catalog's name;
// it also pins a one-word name in the singular for the plural, which said
// "with "issues" for "issue"" of the trace's own name "issue".
func TestValidateHintsATypoAfterAPrefix(t *testing.T) {
	// Tools the shared catalogs' modelcontextprotocol/server-github serves,
	// and one of a single word.
	srv, err := catalog.Parse([]byte(`{"tools":[{"name":"get_issue"},{"name":"list_issues"},{"name":"create_issue"},{"name":"search_code"},{"name":"entries"}]}`), "github", "2025.4.8", "")
	if err != nil {
		t.Fatal(err)
	}
	cat := catalog.New(srv)
	for _, tc := range []struct{ tool, hint string }{
		{"mcp__github__get_isue", `; the closest names server "github" serves to the trace's name without its prefix "mcp__github__": "get_issue" ("mcp__github__get_issue" with the prefix): ` +
			`write the catalog's name in the trace (trace import splits mcp__<server>__<tool> names, docs/importers.md)`},
		{"get_isue", `; the closest names server "github" serves: "get_issue"`},
		{"mcp__github__get_issue", `; server "github" serves "get_issue", the trace's name without its prefix "mcp__github__": write the catalog's name in the trace (trace import splits mcp__<server>__<tool> names, docs/importers.md)`},
		{"entry", `; server "github" serves "entries", the plural of the trace's name: write the catalog's name in the trace`},
		{"mcp__github__entry", `; server "github" serves "entries", the plural of the trace's name without its prefix "mcp__github__": write the catalog's name in the trace`},
		{"mcp__github__delete_everything", ""},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			trace := `{"v":1,"type":"session_start","session":"s","t":"2026-02-10T08:00:00Z","servers":[{"name":"github","version":"2025.4.8"}]}` + "\n" +
				`{"type":"tool_call","session":"s","t":"2026-02-10T08:00:01Z","call_id":"c1","tool":"` + tc.tool + `","server":"github","status":"ok"}` + "\n" +
				`{"type":"session_end","session":"s","t":"2026-02-10T08:00:02Z"}` + "\n"
			probs, _, err := traces.ValidateReader(strings.NewReader(trace), "t.jsonl", traces.ValidateOptions{Tools: cat, Resolver: NewCallResolver(cat)})
			if err != nil {
				t.Fatal(err)
			}
			if len(probs) != 1 || probs[0].Kind != traces.KindUnknownTool {
				t.Fatalf("problems %+v, want one unknown tool", probs)
			}
			want := `session "s": tool_call of tool "` + tc.tool + `" of server "github", which no catalog knows` + tc.hint
			if probs[0].Reason != want {
				t.Errorf("reason %q\nwant      %q", probs[0].Reason, want)
			}
		})
	}
}

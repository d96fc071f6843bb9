package ingest

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestGatewayExecute(t *testing.T) {
	g := &Gateway{ExecuteTools: []string{"execute-tool"}}
	custom := &Gateway{ServerFields: []string{"srv"}, ToolFields: []string{"fn"}, ParamsFields: []string{"input"}}
	tests := []struct {
		name string
		g    *Gateway
		args string
		want ExecuteCall
		ok   bool
	}{
		{"defaults", g, `{"server_name":"issues","tool_name":"list","params":{"a":1}}`,
			ExecuteCall{Server: "issues", Tool: "list", Params: json.RawMessage(`{"a":1}`)}, true},
		{"alternatives", g, `{"server":"cal","tool":"create","arguments":"{\"t\":1}","reason":"x"}`,
			ExecuteCall{Server: "cal", Tool: "create", Params: json.RawMessage(`"{\"t\":1}"`), Rest: []string{"reason"}}, true},
		{"first present wins", g, `{"tool_name":"a","tool":"b","name":"c","params":{},"args":{"x":1}}`,
			ExecuteCall{Tool: "a", Params: json.RawMessage(`{}`), Rest: []string{"args", "name", "tool"}}, true},
		{"no server", g, `{"name":"lookup"}`, ExecuteCall{Tool: "lookup"}, true},
		{"no tool", g, `{"server_name":"issues","params":{}}`, ExecuteCall{}, false},
		{"blank tool", g, `{"tool_name":"  "}`, ExecuteCall{}, false},
		{"string-encoded arguments", g, `"{\"tool_name\":\"t\"}"`, ExecuteCall{Tool: "t"}, true},
		{"not an object", g, `[1]`, ExecuteCall{}, false},
		{"custom fields", custom, `{"srv":"s","fn":"f","input":{"q":1},"tool_name":"ignored"}`,
			ExecuteCall{Server: "s", Tool: "f", Params: json.RawMessage(`{"q":1}`), Rest: []string{"tool_name"}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := tt.g.Execute(json.RawMessage(tt.args))
			if ok != tt.ok {
				t.Fatalf("ok = %v, want %v", ok, tt.ok)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestGatewayNamesAndQuery(t *testing.T) {
	g := &Gateway{SearchTools: []string{"route"}, ExecuteTools: []string{"execute-tool"}, QueryFields: []string{"intent"}}
	for name, want := range map[string][2]bool{
		"route": {true, false}, "mcp__gw__route": {true, false}, "execute-tool": {false, true},
		"mcp__gw__execute-tool": {false, true}, "router": {false, false}, "gw__route": {false, false},
	} {
		if got := [2]bool{g.IsSearch(name), g.IsExecute(name)}; got != want {
			t.Errorf("%s: search, execute = %v, want %v", name, got, want)
		}
	}
	var none *Gateway
	if none.IsSearch("route") || none.IsExecute("execute-tool") {
		t.Error("a nil gateway matched a meta-tool")
	}
	for args, want := range map[string]string{
		`{"intent":"book a room","query":"q"}`: "book a room",
		`{"query":"q"}`:                        `{"query":"q"}`, // not a configured field: the arguments
		`{}`:                                   `{}`,
		`null`:                                 "(no query recorded)",
	} {
		if got := g.Query(json.RawMessage(args)); got != want {
			t.Errorf("Query(%s) = %q, want %q", args, got, want)
		}
	}
	if got := none.Query(json.RawMessage(`{"pattern":"^git"}`)); got != "^git" {
		t.Errorf("default query fields: %q", got)
	}
}

func TestReturnedTools(t *testing.T) {
	cat := ToolNames{
		"list_issues": {"issues"}, "search_issues": {"issues"}, "create_event": {"calendar"},
		"search": {"issues", "notes"}, "Read": {"local"}, "files.read": {"fs"},
	}
	tests := []struct {
		name string
		text string
		want []string
		from ReturnedFrom
	}{
		{"qualified text wins over bare", "1. issues/list_issues - list\n2. create_event (calendar)\n3. issues:search_issues",
			[]string{"list_issues", "search_issues"}, ReturnedText},
		{"server__tool and mcp prefix", "see calendar__create_event or mcp__issues__list_issues",
			[]string{"create_event", "list_issues"}, ReturnedText},
		{"bare names in order, no repeats", "create_event, list_issues; create_event again",
			[]string{"create_event", "list_issues"}, ReturnedText},
		{"letters-only name in prose ignored", "list_issues: use it to search by label",
			[]string{"list_issues"}, ReturnedText},
		{"letters-only name listed or quoted", "- search\nthen `Read`",
			[]string{"search", "Read"}, ReturnedText},
		{"dotted name and trailing period", "Try files.read.", []string{"files.read"}, ReturnedText},
		{"name inside a longer word", "xlist_issues list_issuesx", nil, ReturnedNone},
		{"nothing", "No tools matched.", nil, ReturnedNone},
		{"json names", `["list_issues","mcp__calendar__create_event","unknown_tool"]`,
			[]string{"list_issues", "create_event", "unknown_tool"}, ReturnedJSON},
		{"json objects under a list key", `{"results":[{"tool_name":"search_issues","server":"issues"},{"name":"create_event"}]}`,
			[]string{"search_issues", "create_event"}, ReturnedJSON},
		{"json servers holding tools", `{"servers":[{"name":"issues","tools":["list_issues","issues/search_issues"]}]}`,
			[]string{"list_issues", "search_issues"}, ReturnedJSON},
		{"json list of servers with tools", `[{"name":"issues","tools":[{"name":"list_issues"}]},{"server":"calendar","tools":["create_event"]}]`,
			[]string{"list_issues", "create_event"}, ReturnedJSON},
		{"mcp result with text", `{"content":[{"type":"text","text":"found issues/list_issues"}],"isError":false}`,
			[]string{"list_issues"}, ReturnedJSON},
		{"json without tools falls back to text", `{"message":"try create_event"}`, []string{"create_event"}, ReturnedText},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, from := ReturnedTools(tt.text, cat)
			if d := cmp.Diff(tt.want, got); d != "" || from != tt.from {
				t.Errorf("from %q (want %q), names (-want +got):\n%s", from, tt.from, d)
			}
		})
	}
}

func TestContentMarksError(t *testing.T) {
	for text, want := range map[string]bool{
		`{"content":[],"isError":true}`:     true,
		`{"is_error":true}`:                 true,
		`{"content":[],"isError":false}`:    false,
		`{"error":"quota exceeded"}`:        true,
		`{"error":{"code":5}}`:              true,
		`{"error":"","response":"ok"}`:      false,
		`{"error":null}`:                    false,
		`{"error":false}`:                   false,
		`{"error":0}`:                       false,
		`["error"]`:                         false,
		`Error: not found`:                  false,
		`{"result":{"error":"nested"}}`:     false,
		` {"isError": true, "content": []}`: true,
	} {
		if got := ContentMarksError(text); got != want {
			t.Errorf("ContentMarksError(%s) = %v, want %v", text, got, want)
		}
	}
}

// FuzzReturnedTools fuzzes the readers of tool result text: the returned
// tools of a search, and the error marks of a result.
func FuzzReturnedTools(f *testing.F) {
	for _, s := range []string{
		"1. issues/list_issues - x\n2. notes:create_note", `{"tools":[{"server":"a","name":"b"}]}`,
		`[{"tools":[{"tools":[{"name":"x"}]}]}]`, `{"content":[{"type":"text","text":"[\"b\"]"}]}`,
		"mcp__a__b a__b a.b `c`", "", "\xff\xfe__",
	} {
		f.Add(s)
	}
	f.Add(`{"isError":true,"content":[]}`)
	f.Add(`{"error":{"code":1},"response":""}`)
	cat := ToolNames{"b": {"a"}, "c": {"a", "d"}, "x": {"d"}, "a.b": {"e"}}
	f.Fuzz(func(t *testing.T, text string) {
		_ = ContentMarksError(text) // the other reader of result text: must not panic
		names, from := ReturnedTools(text, cat)
		if (len(names) == 0) != (from == ReturnedNone) {
			t.Fatalf("names %v with from %q", names, from)
		}
		seen := map[string]bool{}
		for _, n := range names {
			if n == "" || seen[n] {
				t.Fatalf("empty or repeated name in %q", names)
			}
			seen[n] = true
			if from == ReturnedText {
				if _, ok := cat[n]; !ok {
					t.Fatalf("text result yielded %q, which the catalog does not serve", n)
				}
			}
		}
	})
}

func FuzzGatewayArgs(f *testing.F) {
	for _, s := range []string{
		`{"server_name":"s","tool_name":"t","params":{"a":1}}`, `"{\"tool\":\"t\",\"arguments\":\"{}\"}"`,
		`{"name":"t","args":[1]}`, `{"query":"q"}`, `null`, `[]`, `{"tool_name":5}`,
	} {
		f.Add([]byte(s))
	}
	g := &Gateway{}
	f.Fuzz(func(t *testing.T, args []byte) {
		if q := g.Query(args); q == "" {
			t.Fatal("empty query")
		}
		ec, ok := g.Execute(args)
		if ok && ec.Tool == "" {
			t.Fatal("execute call without a tool")
		}
		if ok && ec.Params != nil {
			if a, _ := Args(ec.Params); len(a) > 0 && !json.Valid(a) {
				t.Fatalf("params %q give invalid arguments %q", ec.Params, a)
			}
		}
	})
}

package catalog

import (
	"strings"
	"testing"
)

// TestParsePaginatedPages pins how a paginated tools/list saved as its pages
// is read. Before, the error for one page said to "put the tools of every
// page in one list", yet the two files users save it as were refused with a
// misleading reason: a JSON array of the responses read as an array of tools
// ("tools[0]: missing field \"name\""), the responses one per line as
// "unexpected data after the JSON value". Both now load every page's tools in
// order; pages that cannot be one list (a last page with a nextCursor, a page
// without one before others, an error response among them) stop with which
// page and why.
func TestParsePaginatedPages(t *testing.T) {
	const (
		toolA = `{"name":"a","description":"A.","inputSchema":{"type":"object"}}`
		toolB = `{"name":"b","description":"B.","inputSchema":{"type":"object"}}`
		rpc1  = `{"jsonrpc":"2.0","id":1,"result":{"tools":[` + toolA + `],"nextCursor":"2"}}`
		rpc2  = `{"jsonrpc":"2.0","id":2,"result":{"tools":[` + toolB + `]}}`
	)
	tests := []struct {
		name string
		in   string
		want []string // tool names in order; nil when err is set
		err  string
	}{
		{"json-rpc pages in an array", "[" + rpc1 + "," + rpc2 + "]", []string{"a", "b"}, ""},
		{"json-rpc pages one per line", rpc1 + "\n" + rpc2 + "\n", []string{"a", "b"}, ""},
		{"results in an array", `[{"tools":[` + toolA + `],"nextCursor":"x"},{"tools":[` + toolB + `],"nextCursor":null}]`, []string{"a", "b"}, ""},
		{"one response in an array", "[" + rpc2 + "]", []string{"b"}, ""},
		{"last page has a cursor", "[" + rpc1 + "]", nil, `pages[0], the last page, has nextCursor "2": the pages after it are missing`},
		{"a page without a cursor before another", "[" + rpc2 + "," + rpc2 + "]", nil, `pages[0] has no nextCursor, so the tools/list ended there, yet 1 more follow`},
		{"an error among the pages", rpc1 + "\n" + `{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"bad cursor"}}`, nil, `pages[1]: a JSON-RPC error response, not a tools/list result: {"code":-32602,"message":"bad cursor"}`},
		{"a tool among the pages", "[" + rpc1 + "," + toolB + "]", nil, `pages[1]: not a tools/list result or JSON-RPC response, as pages[0] is`},
		{"same tool on two pages", "[" + rpc1 + `,{"jsonrpc":"2.0","id":2,"result":{"tools":[` + toolA + `]}}]`, nil, `tools[1]: duplicate tool name "a" (first at tools[0])`},
		{"a tool after a page, one per line", rpc1 + "\n" + toolB, nil, "invalid JSON: unexpected data after the JSON value"},
		{"a tools list after another", `{"tools":[]} []`, nil, "unexpected data after the JSON value"},
		{"garbage after a page", rpc2 + " x", nil, "invalid JSON: invalid character 'x'"},
		{"one page alone", rpc1, nil, `nextCursor "2": this is one page of a paginated tools/list; give every page in one file, as a JSON array of the pages or one per line`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Parse([]byte(tc.in), "srv", "1", "")
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error = %v, want it to contain %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, tl := range s.Tools {
				got = append(got, tl.Name)
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("tools %v, want %v", got, tc.want)
			}
		})
	}
}

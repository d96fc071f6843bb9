package search

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/sim"
)

func TestKeywordRank(t *testing.T) {
	docs := []sim.ToolDoc{
		{Name: "read_file", Description: "Read a file from disk"},
		{Name: "write_file", Description: "Write a file to disk"},
		{Name: "list_issues", Description: "List open issues"},
		{Name: "file_issue", Description: "Open a new issue"},
	}
	k := NewKeyword(docs)
	for _, tc := range []struct {
		query string
		n     int
		want  []int
	}{
		{"read file", 5, []int{0, 1, 3}}, // read_file matches both terms; ties keep corpus order
		{"issue +open", 5, []int{3, 2}},  // both contain "open"; only file_issue has "issue" (no stemming: not "issues")
		{"+nothing file", 5, []int{}},    // a required term no document has
		{"disk", 1, []int{0}},            // cut to n
		{"", 5, []int{}},                 // no terms, no results
	} {
		got := k.Rank(tc.query, tc.n)
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("Rank(%q) (-want +got):\n%s", tc.query, d)
		}
	}
}

package srd

import (
	"strings"
	"testing"
)

// TestToolOfServerWithoutSRDIsItsOwnDomain pins that a tool of a server no
// SRD describes is routed as its server's own domain even when another
// server's tool_groups list the same tool name: with a user's GitLab SRD
// grouping create_branch, Supabase's create_branch (a database branch) was
// put in GitLab's code-hosting domain, shown under its heading in the
// by-domain directory and given GitLab's triggers, while the run's note
// said a server without an SRD is a domain of its own.
func TestToolOfServerWithoutSRDIsItsOwnDomain(t *testing.T) {
	srds, probs := Parse("mine.yaml", []byte(`srd_version: 1
server_id: gitlab
domain: code-hosting
display_name: GitLab
summary: Merge requests and branches.
intent_triggers: [open a merge request]
disambiguation: [{domain: chat, differs: "Code, not talk."}]
tool_groups: {branches: [create_branch, list_branches]}
`))
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	s, err := NewSet(srds)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		server, tool, domain string
		described            bool
	}{
		{"gitlab", "create_branch", "code-hosting", true},
		{"gitlab+variant", "create_branch", "code-hosting", true},
		{"supabase", "create_branch", "supabase", false},
		{"supabase", "list_branches", "supabase", false},
		{"", "create_branch", "code-hosting", true}, // a bare tool: by tool group
	} {
		if got := s.DomainOf(tc.server, tc.tool); got != tc.domain {
			t.Errorf("DomainOf(%q, %q) = %q, want %q", tc.server, tc.tool, got, tc.domain)
		}
		if got := s.ForTool(tc.server, tc.tool) != nil; got != tc.described {
			t.Errorf("ForTool(%q, %q) described = %v, want %v", tc.server, tc.tool, got, tc.described)
		}
	}
	dir := s.DirectoryText([]ToolRef{{"gitlab", "create_branch"}, {"supabase", "create_branch"}})
	want := "# code-hosting: Merge requests and branches.\n  gitlab: create_branch\n# supabase\n  supabase: create_branch\n"
	if dir != want {
		t.Errorf("DirectoryText:\n%s\nwant:\n%s", dir, want)
	}
	if strings.Count(dir, "supabase") != 2 {
		t.Errorf("supabase's tool is not under a heading of its own:\n%s", dir)
	}
}

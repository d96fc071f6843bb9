package retrieval

import (
	"slices"
	"testing"

	"github.com/defersim/defersim/srd"
)

// TestServerSharingAToolNameIsNotDescribed pins that srd eval counts a
// corpus server as described only by an SRD of its own: with a GitLab SRD
// grouping create_branch, the real catalogs' Supabase server (whose
// create_branch makes a database branch) was counted among the servers the
// SRDs describe, left out of servers_without_srd, and routed in GitLab's
// domain ("6 SRDs … describe 8 of the corpus's 40 servers").
func TestServerSharingAToolNameIsNotDescribed(t *testing.T) {
	srds, probs := srd.Parse("mine.yaml", []byte(`srd_version: 1
server_id: gitlab
domain: code-hosting
display_name: GitLab
intent_triggers: [open a merge request]
disambiguation: [{domain: chat, differs: "Code, not talk."}]
tool_groups: {branches: [create_branch]}
`))
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	set, err := srd.NewSet(srds)
	if err != nil {
		t.Fatal(err)
	}
	var s Set
	for _, st := range [][2]string{{"gitlab", "create_branch"}, {"supabase", "create_branch"}, {"supabase", "execute_sql"}} {
		var tl Tool
		tl.Server, tl.Name = st[0], st[1]
		s.Tools = append(s.Tools, tl)
	}
	n, without := corpusServers(&s, set)
	if n != 2 || !slices.Equal(without, []string{"supabase"}) {
		t.Errorf("corpusServers = %d, %v; want 2, [supabase]", n, without)
	}
}

package srd

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func testSet(t *testing.T) *Set {
	t.Helper()
	src := `srd_version: 1
server_id: fs-a
domain: files
display_name: Files A
summary: Local files.
intent_triggers: [open a file]
disambiguation: [{domain: chat, differs: "Files, not talk."}]
tool_groups: {read: [read_file]}
---
srd_version: 1
server_id: fs-b
domain: files
display_name: Files B
intent_triggers: [open a file]
disambiguation: [{domain: files, server: fs-a, differs: More tools.}, {domain: chat, differs: Still files.}]
---
srd_version: 1
server_id: talk
domain: chat
display_name: Talk
summary: Team chat.
intent_triggers: [tell the team]
disambiguation: [{domain: files, differs: "Messages, not files."}]
tool_groups: {post: [post, lone_tool]}
`
	srds, probs := Parse("set.yaml", []byte(src))
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	s, err := NewSet(srds)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSetLookups(t *testing.T) {
	s := testSet(t)
	if got := s.Domains(); !cmp.Equal(got, []string{"chat", "files"}) {
		t.Errorf("Domains() = %v", got)
	}
	tests := []struct{ server, tool, domain string }{
		{"fs-a", "anything", "files"},
		{"fs-a+variant", "x", "files"}, // a launch variant finds its server
		{"", "lone_tool", "chat"},      // no server: by tool group
		{"other", "post", "other"},     // a server without an SRD: its own domain
		{"other", "nothing", "other"},  // neither: the server is the domain
		{"", "nothing", "nothing"},     // nor a server: the tool is
	}
	for _, tc := range tests {
		if got := s.DomainOf(tc.server, tc.tool); got != tc.domain {
			t.Errorf("DomainOf(%q, %q) = %q, want %q", tc.server, tc.tool, got, tc.domain)
		}
	}
	var nilSet *Set
	if got := nilSet.DomainOf("srv", "t"); got != "srv" {
		t.Errorf("nil set DomainOf = %q", got)
	}
	if got := s.DomainSummary("files"); got != "Local files.; Files B" {
		t.Errorf("DomainSummary(files) = %q", got)
	}
	if _, err := NewSet(append(s.SRDs(), s.SRDs()[0])); err == nil {
		t.Error("NewSet accepted a server described twice")
	}
}

func TestDirectoryText(t *testing.T) {
	s := testSet(t)
	got := s.DirectoryText([]ToolRef{
		{"talk", "post"}, {"fs-b", "write_file"}, {"fs-a", "read_file"}, {"zed", "z1"},
		{"fs-a", "list_dir"}, {"alpha", "a1"}, {"", "lone_tool"},
	})
	want := `# chat: Team chat.
  : lone_tool
  talk: post
# files: Local files.; Files B
  fs-a: read_file, list_dir
  fs-b: write_file
# alpha
  alpha: a1
# zed
  zed: z1
`
	want = strings.Replace(want, "  : lone_tool", "  lone_tool", 1)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("DirectoryText mismatch (-want +got):\n%s", diff)
	}
	if got := s.DirectoryText(nil); got != "" {
		t.Errorf("empty directory = %q", got)
	}
	var nilSet *Set
	if got := nilSet.DirectoryText([]ToolRef{{"srv", "t"}}); got != "# srv\n  srv: t\n" {
		t.Errorf("nil set directory = %q", got)
	}
}

func TestActivationNotice(t *testing.T) {
	s := testSet(t)
	tests := map[string]string{
		"files":   "Domain files is now active: Local files.; Files B. Not chat: Files, not talk.",
		"chat":    "Domain chat is now active: Team chat. Not files: Messages, not files.",
		"unknown": "",
	}
	for d, want := range tests {
		if got := s.ActivationNotice(d); got != want {
			t.Errorf("ActivationNotice(%q) = %q, want %q", d, got, want)
		}
	}
}

package retrieval

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGivenSRDsMustDescribeTheSet pins that --srd SRDs describing no server
// or tool of the set stop srd eval: SRDs of the catalogs' servers given to
// mcp-bench routed nothing, and the report showed the numbers of --srd none
// headed "4 SRDs" with a routed arm, as if they had been used.
func TestGivenSRDsMustDescribeTheSet(t *testing.T) {
	three := filepath.Join("testdata", "eval", "srd") // chat-app, notes-app, shell-app
	grouped := filepath.Join(t.TempDir(), "grouped.yaml")
	if err := os.WriteFile(grouped, []byte(`srd_version: 1
server_id: pseudo-notes
domain: notes
display_name: Notes
intent_triggers: [jot it down]
disambiguation:
  - domain: chat
    differs: Kept for yourself.
tool_groups:
  notes: [write_note]
---
srd_version: 1
server_id: pseudo-chat
domain: chat
display_name: Chat
intent_triggers: [tell the team]
disambiguation:
  - domain: notes
    differs: Sent to others.
tool_groups:
  rooms: [say]
`), 0o644); err != nil {
		t.Fatal(err)
	}
	tools := func(server string, names ...string) []Tool {
		var out []Tool
		for _, n := range names {
			var tl Tool
			tl.Server, tl.Name = server, n
			out = append(out, tl)
		}
		return out
	}
	servers := func(names ...string) []Tool {
		var out []Tool
		for _, n := range names {
			out = append(out, tools(n, "t")...)
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		spec  string
		tools []Tool
		want  []string // substrings of the error; none: no error
	}{
		{"every SRD's server in the set", three, servers("chat-app", "notes-app", "shell-app"), nil},
		{"no SRD's server in the set", three, servers("Google Maps", "Weather Data"),
			[]string{"SRDs describe no server or tool of set s (3 of the 3: chat-app, notes-app, shell-app)", "the set's servers: Google Maps, Weather Data"}},
		{"one SRD's server missing", three, servers("chat-app", "notes-app"), []string{"(1 of the 3: shell-app)"}},
		// A launch variant's SRD given for a set that holds its server's
		// plain series (the hard sets): the message says why it describes
		// nothing there, where it asked only "written for other servers?".
		{"a launch variant's SRD, the set holding the plain series", variantSRDs(t), servers("chat-app", "notes-app", "shell-app"),
			[]string{"(1 of the 4: chat-app+big)", "; chat-app+big describes that launch variant alone, and the set holds chat-app's plain series: leave its SRD out of --srd here"}},
		{"--srd none", SRDNone, servers("Google Maps"), nil},
		{"serverless tools, SRDs without groups", three, tools("", "write_note"), []string{"(3 of the 3: ", "the set's tools have no server"}},
		{"serverless tools, grouped", grouped, tools("", "write_note", "say"), nil},
		{"serverless tools, one of them described by no SRD", grouped, tools("", "write_note", "say", "other"), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadSRDs(tc.spec, &Set{Name: "s", Tools: tc.tools}, nil)
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("error %v, want none", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q, want it to contain %q", err, w)
				}
			}
		})
	}
}

// variantSRDs is the three SRDs of testdata/eval/srd and one of the launch
// variant chat-app+big, in a temporary directory.
func variantSRDs(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join("testdata", "eval", "srd")
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "big.yaml"), []byte(`srd_version: 1
server_id: chat-app+big
domain: big-chat
display_name: Big chat
intent_triggers: [tell everyone]
disambiguation:
  - domain: chat
    differs: The variant with more tools.
`), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

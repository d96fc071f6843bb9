package catalog

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
)

// TestUnusualToolNamesNamed pins that a tool name with a space, a non-ASCII
// letter, a control character, or over 128 characters is named, with its
// file, index and first odd character: before, such a name was counted
// without a word, although a runtime or provider may refuse or rename it.
func TestUnusualToolNamesNamed(t *testing.T) {
	tests := []struct {
		name string
		want string // "" when not named
	}{
		{"read_file", ""},
		{"github.search-issues.v2", ""},
		{"echo message", `tools[0] "echo message": its name holds ' ', outside`},
		{"débug", `tools[0] "débug": its name holds 'é', outside`},
		{"a\u0000b", `tools[0] "a\x00b": its name holds '\x00', outside`},
		{strings.Repeat("a", 128), ""},
		{strings.Repeat("a", 129), "its name 129 characters, over the 128 the MCP specification recommends"},
	}
	for _, tc := range tests {
		name, err := json.Marshal(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		s, err := NewServer("fs", "1.0", "", []*Tool{mustTool(t, `{"name":`+string(name)+`,"inputSchema":{"type":"object"}}`)})
		if err != nil {
			t.Fatal(err)
		}
		s.Source = "DIR/fs@1.0.json"
		got := UnusualToolNames([]*Server{s})
		if tc.want == "" {
			if len(got) != 0 {
				t.Errorf("%q named: %q", tc.name, got)
			}
			continue
		}
		if len(got) != 1 || !strings.HasPrefix(got[0], "DIR/fs@1.0.json: ") || !strings.Contains(got[0], tc.want) {
			t.Errorf("%q: got %q, want one message holding %q", tc.name, got, tc.want)
		}
	}
}

// TestSharedToolNamesAreUsual checks that no tool name of the shared
// captures draws the warning.
func TestSharedToolNamesAreUsual(t *testing.T) {
	c, err := LoadDir(shareddata.Path(t, "catalogs"))
	if err != nil {
		t.Fatal(err)
	}
	if got := UnusualToolNames(c.All()); len(got) != 0 {
		t.Errorf("%d named: %q", len(got), got)
	}
}

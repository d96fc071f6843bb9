package importers_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/traces/importers"
)

// TestRecordedServersWinOverConnected pins that a session whose source
// records its connected servers (an Anthropic request's mcp_servers) keeps
// that list under --connected all: the catalog directory's other servers
// are added only when the session uses them, meta connected_servers is
// "recorded", and a report note counts the (session, server) pairs the
// directory would have added. Before, --connected all (the default) added
// every server of the directory to such a session too, though the request
// said which servers it had. A session recording no list still follows
// --connected.
func TestRecordedServersWinOverConnected(t *testing.T) {
	dir := t.TempDir()
	cats := serverCatalogs(t, dir, "alpha", "beta", "gamma")
	conv := func(id, servers, tool string) string {
		s := `{"id":"` + id + `",`
		if servers != "" {
			s += `"mcp_servers":[` + servers + `],`
		}
		return s + `"messages":[{"role":"user","content":"q"},{"role":"assistant","content":[{"type":"tool_use","id":"c","name":"` + tool + `","input":{}}]}]}`
	}
	in := filepath.Join(dir, "conv.jsonl")
	lines := []string{
		conv("listed", `{"type":"url","name":"alpha"}`, "alpha_op"),           // records alpha, uses it
		conv("beyond", `{"type":"url","name":"alpha"}`, "mcp__beta__beta_op"), // records alpha, uses beta too
		conv("unlisted", "", "alpha_op"),                                      // records no list
	}
	if err := os.WriteFile(in, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		connected string
		want      map[string][]string // session → servers listed
		meta      map[string]string
	}{
		{"all", map[string][]string{"listed": {"alpha"}, "beyond": {"alpha", "beta"}, "unlisted": {"alpha", "beta", "gamma"}},
			map[string]string{"listed": "recorded", "beyond": "recorded", "unlisted": "all"}},
		{"called", map[string][]string{"listed": {"alpha"}, "beyond": {"alpha", "beta"}, "unlisted": {"alpha"}},
			map[string]string{"listed": "recorded", "beyond": "recorded", "unlisted": "called"}},
	} {
		t.Run(tc.connected, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "t.jsonl")
			rep, err := importers.Run(importers.Request{Format: "anthropic-messages", Inputs: []string{in}, Out: out,
				ToolFiles: []string{cats}, Connected: tc.connected})
			if err != nil {
				t.Fatal(err)
			}
			got, meta := listedServers(t, out)
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("servers listed (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.meta, meta); d != "" {
				t.Errorf("meta %s (-want +got):\n%s", importers.MetaConnected, d)
			}
			// listed: beta and gamma not added; beyond: gamma not added,
			// beta used though unlisted.
			for _, want := range []string{"2 sessions record their connected servers", "the 3 (session, server) pairs",
				"1 (session, server) pair is a server a session that records its connected servers uses but its recorded list lacks"} {
				if !slices.ContainsFunc(rep.Notes, func(n string) bool { return strings.Contains(n, want) }) {
					t.Errorf("no note saying %q in %q", want, rep.Notes)
				}
			}
		})
	}
}

package importers_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers"
)

// TestConnectedServersFromGivenCatalogs pins which servers of a --tools
// catalog directory a session's session_start lists. The replay offers a
// session exactly the servers listed there (their tools in every eager
// prompt, in the directory, in the tool counts), and the sources do not
// record which of the directory's servers were connected: by default
// (--connected all, as before the flag existed) every session lists every
// one; --connected called lists those a session's calls use, besides the
// servers its source defines. Both say so in session_start meta
// connected_servers and in a report note, which counts the pairs the rule
// decided that the session never uses.
func TestConnectedServersFromGivenCatalogs(t *testing.T) {
	dir := t.TempDir()
	cats := serverCatalogs(t, dir, "alpha", "beta", "gamma")
	call := func(id, name string) string {
		return `{"role":"assistant","tool_calls":[{"id":"` + id + `","type":"function","function":{"name":"` + name + `","arguments":"{}"}}]}`
	}
	in := filepath.Join(dir, "chat.jsonl")
	lines := []string{
		`{"id":"s1","messages":[{"role":"user","content":"a"},` + call("x", "alpha_op") + `]}`,           // attributed by the catalogs
		`{"id":"s2","messages":[{"role":"user","content":"b"},` + call("y", "mcp__beta__beta_op") + `]}`, // named by the call
		`{"id":"s3","tools":[{"type":"function","function":{"name":"own","parameters":{"type":"object"}}}],"messages":[{"role":"user","content":"c"}]}`,
	}
	if err := os.WriteFile(in, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		connected string
		want      map[string][]string // session → servers listed
		meta      string
		note      string
	}{
		{"", map[string][]string{"s1": {"alpha", "beta", "gamma"}, "s2": {"alpha", "beta", "gamma"},
			"s3": {"alpha", "beta", "gamma", "openai-messages"}}, "all", "7 of the 9 (session, server) pairs"},
		{"called", map[string][]string{"s1": {"alpha"}, "s2": {"beta"}, "s3": {"openai-messages"}}, "called",
			"7 of 9 (session, server) pairs left out"},
		{"all", map[string][]string{"s1": {"alpha", "beta", "gamma"}, "s2": {"alpha", "beta", "gamma"},
			"s3": {"alpha", "beta", "gamma", "openai-messages"}}, "all", "7 of the 9 (session, server) pairs"},
	}
	for _, tt := range tests {
		t.Run("connected="+tt.connected, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "t.jsonl")
			rep, err := importers.Run(importers.Request{Format: "openai-messages", Inputs: []string{in}, Out: out,
				ToolFiles: []string{cats}, Connected: tt.connected})
			if err != nil {
				t.Fatal(err)
			}
			got, meta := listedServers(t, out)
			for id, m := range meta {
				if m != tt.meta {
					t.Errorf("%s: meta connected_servers = %q, want %q", id, m, tt.meta)
				}
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("servers listed (-want +got):\n%s", d)
			}
			if !slices.ContainsFunc(rep.Notes, func(n string) bool { return strings.Contains(n, tt.note) }) {
				t.Errorf("no note saying %q in %q", tt.note, rep.Notes)
			}
			if dir, ok, err := traces.CatalogFor(out); err != nil || !ok {
				t.Errorf("CatalogFor: %v, %v", ok, err)
			} else {
				validate(t, out, dir)
			}
		})
	}
	if _, err := importers.Run(importers.Request{Format: "openai-messages", Inputs: []string{in},
		Out: filepath.Join(dir, "bad.jsonl"), ToolFiles: []string{cats}, Connected: "some"}); err == nil ||
		!strings.Contains(err.Error(), `--connected "some"`) {
		t.Errorf("--connected some: err = %v, want one naming the flag and its values", err)
	}
}

// serverCatalogs writes a catalog directory dir/cats holding one server
// of one tool (<server>_op) at version 1.0 for each name, and returns it.
func serverCatalogs(t *testing.T, dir string, names ...string) string {
	t.Helper()
	cats := filepath.Join(dir, "cats")
	if err := os.Mkdir(cats, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, s := range names {
		body := `{"tools":[{"name":"` + s + `_op","inputSchema":{"type":"object"}}]}`
		if err := os.WriteFile(filepath.Join(cats, s+"@1.0.json"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return cats
}

// listedServers reads the imported trace out and returns, by session id,
// the servers its session_start lists and its meta connected_servers; a
// server listed without a version is an error.
func listedServers(t *testing.T, out string) (servers map[string][]string, meta map[string]string) {
	t.Helper()
	sessions, _, err := traces.ReadAll(out)
	if err != nil {
		t.Fatal(err)
	}
	servers, meta = map[string][]string{}, map[string]string{}
	for _, s := range sessions {
		st := s.Start()
		for _, r := range st.Servers() {
			if r.Version == "" {
				t.Errorf("%s: %s listed without a version", s.ID, r.Name)
			}
			servers[s.ID] = append(servers[s.ID], r.Name)
		}
		meta[s.ID] = st.Meta()[importers.MetaConnected]
	}
	return servers, meta
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// writeOverCatalog writes a small catalog directory: notes in two versions
// (the second adds a required property) and clock in one.
func writeOverCatalog(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"notes@1.0.0.json": `{"tools":[{"name":"write_note","inputSchema":{"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}}]}`,
		"notes@2.0.0.json": `{"tools":[{"name":"write_note","inputSchema":{"type":"object","properties":{"title":{"type":"string"},"folder":{"type":"string"}},"required":["title","folder"]}}]}`,
		"clock@1.0.0.json": `{"tools":[{"name":"now","inputSchema":{"type":"object"}}]}`,
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestTraceGenOverCatalogs(t *testing.T) {
	cat := writeOverCatalog(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	overParams := filepath.Join(dir, "over.yaml")
	if err := os.WriteFile(overParams, []byte("sessions: 12\nover: {schedule: even, mid_session: 0.5}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		args     []string
		wantCode int
		want     string
	}{
		{"multi-version servers", []string{"gen", "-o", out, "--catalogs", cat, "--sessions", "10"}, 0, "sessions over 1 server of"},
		{"named servers", []string{"gen", "-o", out, "--catalogs", cat, "--servers", "notes,clock", "--sessions", "10"}, 0, "sessions over 2 servers"},
		{"params over block", []string{"gen", "-o", out, "--catalogs", cat, "--params", overParams}, 0, "12 sessions"},
		{"json", []string{"gen", "-o", out, "--catalogs", cat, "--sessions", "10", "--format", "json"}, 0, `"after_session": 5`},
		{"unknown server", []string{"gen", "-o", out, "--catalogs", cat, "--servers", "nope"}, 2, `"nope" is not a server`},
		{"count with catalogs", []string{"gen", "-o", out, "--catalogs", cat, "--servers", "3"}, 2, "name the servers"},
		{"names without catalogs", []string{"gen", "-o", out, "--servers", "a,b"}, 2, "need --catalogs"},
		{"drift with catalogs", []string{"gen", "-o", out, "--catalogs", cat, "--drift", "servers=2"}, 2, "--drift"},
		{"over without catalogs", []string{"gen", "-o", out, "--params", overParams}, 2, "--catalogs"},
		{"missing catalogs", []string{"gen", "-o", out, "--catalogs", filepath.Join(dir, "none")}, 2, "--catalogs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, code := runTraceCmdErr(t, tc.args...)
			if code != tc.wantCode {
				t.Fatalf("exit %d, want %d; output:\n%s", code, tc.wantCode, got)
			}
			if !strings.Contains(got, tc.want) {
				t.Errorf("output lacks %q:\n%s", tc.want, got)
			}
		})
	}
	up, err := os.ReadFile(filepath.Join(out, "upgrades.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(up), `- {to: "2.0.0", after_session: 5}`) {
		t.Errorf("upgrades.yaml:\n%s", up)
	}
	if _, err := os.Stat(filepath.Join(out, "catalog")); !os.IsNotExist(err) {
		t.Errorf("a catalog directory was written over an external catalog (stat: %v)", err)
	}
}

func TestServersFlag(t *testing.T) {
	for _, tc := range []struct {
		in      string
		n       int
		names   []string
		wantErr bool
	}{
		{"12", 12, nil, false},
		{" 4 ", 4, nil, false},
		{"a", 10, []string{"a"}, false},
		{"a, b,c", 10, []string{"a", "b", "c"}, false},
		{"a,,b", 10, nil, true},
		{",", 10, nil, true},
	} {
		f := serversFlag{n: 10}
		err := f.Set(tc.in)
		if (err != nil) != tc.wantErr {
			t.Errorf("Set(%q) error = %v, want error %v", tc.in, err, tc.wantErr)
			continue
		}
		if err == nil && (f.n != tc.n || !cmp.Equal(f.names, tc.names)) {
			t.Errorf("Set(%q) = %d %v, want %d %v", tc.in, f.n, f.names, tc.n, tc.names)
		}
	}
}

func FuzzServersFlag(f *testing.F) {
	for _, s := range []string{"10", "a,b,c", "a,,b", " 7", "modelcontextprotocol__server-filesystem,playwright__mcp"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var v serversFlag
		if err := v.Set(s); err != nil {
			return
		}
		// What was set prints back to a value that sets the same.
		var again serversFlag
		if err := again.Set(v.String()); err != nil {
			t.Fatalf("Set(%q) ok but Set(String()=%q): %v", s, v.String(), err)
		}
		if again.n != v.n || !cmp.Equal(again.names, v.names) {
			t.Fatalf("round trip of %q: %+v then %+v", s, v, again)
		}
	})
}

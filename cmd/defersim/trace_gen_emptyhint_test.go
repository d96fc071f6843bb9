package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTraceGenEveryServersHintLeavesOutToollessServers pins that the
// --servers value trace gen --catalogs offers "to draw sessions over every
// server" works: it named a server version serving no tools, which the
// same command then refused ("serves no tools (leave it out)"); it now
// leaves such servers out and says so.
func TestTraceGenEveryServersHintLeavesOutToollessServers(t *testing.T) {
	cat := t.TempDir()
	for name, data := range map[string]string{
		"empty@1.0.0.json": `{"tools":[]}`,
		"one@1.0.0.json":   `{"tools":[{"name":"ping","inputSchema":{"type":"object"}}]}`,
		"two@1.0.0.json":   `{"tools":[{"name":"pong","inputSchema":{"type":"object"}}]}`,
	} {
		if err := os.WriteFile(filepath.Join(cat, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "g")
	got, code := runTraceCmdErr(t, "gen", "-o", out, "--catalogs", cat, "--sessions", "3")
	hint := "--servers one,two (not empty@1.0.0: serves no tools)"
	if code != 2 || !strings.Contains(got, hint) {
		t.Fatalf("exit %d, want 2 and %q:\n%s", code, hint, got)
	}
	got, code = runTraceCmdErr(t, "gen", "-o", out, "--catalogs", cat, "--sessions", "3", "--servers", "one,two")
	if code != 0 || !strings.Contains(got, "sessions over 2 servers") {
		t.Errorf("the offered value: exit %d:\n%s", code, got)
	}
}

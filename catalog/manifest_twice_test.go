package catalog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestManifestListsAVersionTwice pins the error for a manifest listing one
// server version in two entries: it names the manifest, both entries and
// their files, says whether their tools differ, and what to do. Before, it
// was "duplicate server version fs@1.0 in DIR/a.json and DIR/b.json", which
// named neither the manifest nor its entries and said no fix.
func TestManifestListsAVersionTwice(t *testing.T) {
	tests := []struct {
		name, manifest, want string
	}{
		{"different tools", "servers:\n  - {server: fs, version: \"1.0\", file: a.json}\n  - {server: fs, version: \"1.0\", file: b.json}\n",
			`servers[0] and servers[1] both list fs@1.0 (a.json, b.json): with different tools; keep the entry of the catalog meant, or give the other another version`},
		{"one file twice", "servers:\n  - {server: fs, version: \"1.0\", file: a.json}\n  - {server: gh, version: \"2\", file: b.json}\n  - {server: fs, version: \"1.0\", file: a.json}\n",
			`servers[0] and servers[2] both list fs@1.0 (a.json, a.json): the same tools twice; remove one entry`},
		{"same variant twice", "servers:\n  - {server: fs, version: \"1.0\", variant: w, file: a.json}\n  - {server: fs, version: \"1.0\", variant: w, file: b.json}\n",
			`servers[0] and servers[1] both list fs+w@1.0 (a.json, b.json): with different tools`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{"a.json": "[" + toolGreet + "]", "b.json": `[{"name":"other","inputSchema":{"type":"object"}}]`, "catalog.yaml": tc.manifest}
			for name, content := range files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, err := LoadDir(dir)
			if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "catalog.yaml")+": "+tc.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tc.want)
			}
		})
	}
	// Two variants of one version are two series, not a repeat.
	dir := t.TempDir()
	for name, content := range map[string]string{"a.json": "[" + toolGreet + "]",
		"catalog.yaml": "servers:\n  - {server: fs, version: \"1.0\", file: a.json}\n  - {server: fs, version: \"1.0\", variant: w, file: a.json}\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := LoadDir(dir); err != nil {
		t.Errorf("two variants: %v", err)
	}
}

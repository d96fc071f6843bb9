package catalog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadDirSaysHowToMoveStrayJSON pins that a JSON file of a catalog
// directory that holds no list of tools at all (a package.json, a
// tsconfig.json, a scalar) stops LoadDir with its name, why, and the two
// fixes: move it out, or list the catalogs in a manifest (and, for a
// client's {"mcpServers"} configuration, how to capture the servers it
// names). Before, the error
// said only `package.json: no "tools" member`, not that every *.json file of
// the directory is read as a catalog, nor what to do. A manifest listing
// the catalog, the fix it names, loads the directory.
func TestLoadDirSaysHowToMoveStrayJSON(t *testing.T) {
	tests := []struct {
		file, content, reason string
	}{
		{"package.json", `{"name":"my-server","version":"1.0.0","dependencies":{"zod":"^3"}}`, `no "tools" member`},
		{"tsconfig.json", `{"compilerOptions":{"strict":true}}`, `no "tools" member`},
		{"version.json", `"1.2.3"`, `not a tools/list result`},
		{"claude_desktop_config.json", `{"mcpServers":{"fs":{"command":"npx","args":["-y","@modelcontextprotocol/server-filesystem"]}}}`,
			`{"mcpServers":…} is a client's server configuration, not their tools: capture them with defersim catalog snapshot --from-config FILE -o DIR`},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			dir := t.TempDir()
			write := func(name, content string) {
				t.Helper()
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write("fs@1.0.json", "["+toolGreet+"]")
			write(tc.file, tc.content)
			_, err := LoadDir(dir)
			if err == nil {
				t.Fatal("loaded")
			}
			for _, want := range []string{filepath.Join(dir, tc.file) + ": ", tc.reason, "move " + tc.file + " out of " + dir, "catalog.yaml"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error = %v, want it to contain %q", err, want)
				}
			}
			write("catalog.yaml", "servers:\n  - server: fs\n    version: \"1.0\"\n    file: fs@1.0.json\n")
			cat, err := LoadDir(dir)
			if err != nil {
				t.Fatalf("with a manifest: %v", err)
			}
			if got := cat.At("fs", "1.0"); got == nil || len(got.Tools) != 1 {
				t.Errorf("with a manifest: fs@1.0 = %v", got)
			}
		})
	}
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCatalogCmdsCheckFileNamesAndMeta pins that `catalog stats`, `catalog
// history` and `catalog diff` warn of a file whose "+" reads like semver
// build metadata (fs@1.2.3+build.5.json, read as a launch variant: a server
// of its own) and of a .meta.json that contradicts its catalog, and that
// stats and history name a tool name the MCP specification advises
// against ("read file"). Before, the build-metadata file made stats' total
// "2 servers", and the contradicted metadata and the odd name loaded, all
// without a word.
func TestCatalogCmdsCheckFileNamesAndMeta(t *testing.T) {
	const tools = `{"tools":[{"name":"greet","inputSchema":{"type":"object"}}]}`
	dir := t.TempDir()
	files := map[string]string{
		"fs@1.2.3.json":         tools,
		"fs@1.2.3+build.5.json": tools,
		"gh@2.0.json":           tools,
		"gh@2.0.meta.json":      `{"package_version":"1.9.0","tool_count":4}`,
		"sp@1.0.json":           `{"tools":[{"name":"read file","inputSchema":{"type":"object"}}]}`,
	}
	for f, content := range files {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	build := filepath.Join(dir, "fs@1.2.3+build.5.json") + `: "build.5" after the "+" is read as a launch variant, so fs+build.5 is a server of its own beside fs, not fs@1.2.3: if it is semver build metadata, name the file ` + filepath.Join(dir, "fs@1.2.3.json")
	name := filepath.Join(dir, "sp@1.0.json") + `: tools[0] "read file": its name holds ' ', outside the characters the MCP specification recommends`
	meta := filepath.Join(dir, "gh@2.0.json") + `: its .meta.json says tool_count 4, but the catalog lists 1; package_version "1.9.0", but the file name's version is "2.0"`
	runs := map[string][]string{
		"stats":   {"catalog", "stats", "--counters", "bytes/4", dir},
		"history": {"catalog", "history", dir},
		"diff":    {"catalog", "diff", filepath.Join(dir, "fs@1.2.3.json"), filepath.Join(dir, "fs@1.2.3+build.5.json")},
		"diff gh": {"catalog", "diff", filepath.Join(dir, "gh@2.0.json"), filepath.Join(dir, "gh@2.0.json")},
	}
	for run, args := range runs {
		_, stderr, code := cliRun(t, args...)
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s", run, code, stderr)
		}
		want := []string{build, meta, name}
		switch run {
		case "diff":
			want = want[:1]
		case "diff gh":
			want = want[1:2]
		}
		for _, w := range want {
			if !strings.Contains(stderr, "defersim: warning: "+w) {
				t.Errorf("%s stderr lacks %q:\n%s", run, w, stderr)
			}
		}
	}
	_, stderr, _ := cliRun(t, "catalog", "stats", "--quiet", dir)
	if strings.Contains(stderr, "warning") {
		t.Errorf("--quiet warns:\n%s", stderr)
	}
}

package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCatalogWarningsCarryThePrefix pins that the catalog commands' stderr
// warnings start "defersim: warning: ", as every other command's do
// (docs/cli.md); catalog stats, history and diff wrote "warning: " alone.
func TestCatalogWarningsCarryThePrefix(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"svc@1.0.json": `{"tools":[{"name":"a","inputSchema":{"type":"object"}},{"name":"b","inputSchema":null}]}`,
		"svc@1.1.json": `{"tools":[{"name":"a","inputSchema":{"type":"object","properties":{"x":{}}}},{"name":"b","inputSchema":null}]}`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"stats", dir},
		{"stats", "--all-versions", dir},
		{"history", dir},
		{"diff", filepath.Join(dir, "svc@1.0.json"), filepath.Join(dir, "svc@1.1.json")},
	} {
		t.Run(strings.Join(args[:1], " "), func(t *testing.T) {
			root := newRootCmd()
			var stderr bytes.Buffer
			root.SetOut(io.Discard)
			root.SetErr(&stderr)
			root.SetArgs(append([]string{"catalog"}, args...))
			_ = root.Execute() // diff exits 1 on drift: only stderr matters here
			lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
			if !strings.Contains(stderr.String(), `inputSchema is null`) {
				t.Fatalf("%v: no warning of the null schema on stderr:\n%s", args, stderr.String())
			}
			for _, l := range lines {
				if strings.Contains(l, "warning:") && !strings.HasPrefix(l, "defersim: warning: ") {
					t.Errorf("%v: stderr line %q lacks the \"defersim: \" prefix", args, l)
				}
			}
		})
	}
}

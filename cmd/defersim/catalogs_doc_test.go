package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
)

// TestCatalogsDocOutput pins the output docs/catalogs.md quotes — the
// stats totals behind "Token cost of the shared catalogs (measured)" (every
// version and the latest ones, in the three wire forms), the history's
// total of breaking releases, and under "What an upgrade costs in tokens"
// two diffs of real releases with their token cost and stats over two
// directories holding versions of one server — to what the commands print
// now; `go test ./cmd/defersim -run TestCatalogsDocOutput -update`
// rewrites the quotes that elide nothing.
func TestCatalogsDocOutput(t *testing.T) {
	t.Setenv("DEFERSIM_SHARED_DATA", shareddata.Dir(t))
	doc, err := filepath.Abs(filepath.Join("..", "..", "docs", "catalogs.md"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	catalogs := shareddata.Path(t, "catalogs")
	copyTo := func(dir string, files ...string) error {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		for _, f := range files {
			data, err := os.ReadFile(filepath.Join(catalogs, f))
			if err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
				return err
			}
		}
		return nil
	}
	shell := map[string]func() error{
		"cp-versions old new": func() error {
			if err := copyTo("old", "upstash__context7-mcp@1.0.14.json", "upstash__context7-mcp@2.1.0.json"); err != nil {
				return err
			}
			return copyTo("new", "upstash__context7-mcp@4.1.1.json", "mcp-hello-world@1.1.2.json")
		},
	}
	docRun(t, doc, func(rel string) string { return shareddata.Path(t, filepath.FromSlash(rel)) }, shell)
}

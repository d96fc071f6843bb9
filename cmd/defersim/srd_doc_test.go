package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
)

// TestSRDDocOutput pins the output docs/srd.md quotes — the draft example
// converted to v1 and linted, and the shipped SRDs linted against the
// shared catalogs ("40 SRDs, no problems") — to what the commands print
// now, run from a directory holding the repository's srd/testdata/draft and
// srd/data/catalogs at the paths the page names.
func TestSRDDocOutput(t *testing.T) {
	t.Setenv("DEFERSIM_SHARED_DATA", shareddata.Dir(t))
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	for _, dir := range []string{"srd/testdata/draft", "srd/data/catalogs"} {
		if err := os.CopyFS(filepath.FromSlash(dir), os.DirFS(filepath.Join(root, filepath.FromSlash(dir)))); err != nil {
			t.Fatal(err)
		}
	}
	docRun(t, filepath.Join(root, "docs", "srd.md"), func(rel string) string { return shareddata.Path(t, filepath.FromSlash(rel)) }, nil)
}

package defersim_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxSourceLines is the style limit of a non-test Go file (the developers'
// guide: small files named after what they hold).
const maxSourceLines = 500

// TestNoLongSourceFiles pins the file-size limit: no non-test Go file of
// the repository (the Beam module included) has more than maxSourceLines
// lines. Two files had drifted past it unnoticed (sim/runstate.go and
// sim/cache.go) before this test.
func TestNoLongSourceFiles(t *testing.T) {
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "." && (name == "testdata" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if n := bytes.Count(b, []byte("\n")); n > maxSourceLines {
			t.Errorf("%s: %d lines, over the limit of %d: split it by what its parts hold", path, n, maxSourceLines)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

package runner

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	defaultdata "github.com/defersim/defersim/scenarios/default"
)

// TestCatalogInputsHaveSizes pins real file sizes for catalog inputs, of
// embedded catalogs too (the report showed Bytes 0 for every one).
func TestCatalogInputsHaveSizes(t *testing.T) {
	dir := t.TempDir()
	data, err := fs.ReadFile(defaultdata.FS(), "catalog/browser@0.9.3.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "browser@0.9.3.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, srcs := range [][]Source{
		{{Path: "embedded:catalog", FS: defaultdata.FS(), Name: "catalog"}},
		{{Path: dir}},
	} {
		cat, err := loadCatalogs(srcs)
		if err != nil {
			t.Fatal(err)
		}
		ins := catalogInputs(cat, srcs)
		if len(ins) == 0 {
			t.Fatal("no catalog inputs")
		}
		for _, in := range ins {
			var want []byte
			if srcs[0].FS != nil {
				want, err = fs.ReadFile(defaultdata.FS(), "catalog/"+strings.TrimPrefix(in.Path, "embedded:catalog/"))
			} else {
				want, err = os.ReadFile(in.Path)
			}
			if err != nil {
				t.Fatal(err)
			}
			if in.Bytes != int64(len(want)) || in.Bytes == 0 {
				t.Errorf("%s: %d bytes recorded, the file has %d", in.Path, in.Bytes, len(want))
			}
		}
	}
}

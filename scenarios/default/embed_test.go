package defaultdata

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/gen"
)

// readTree returns every file under root in fsys, by path.
func readTree(t *testing.T, fsys fs.FS) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := fs.WalkDir(fsys, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fsys, path)
		out[path] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRegenerationIsExact regenerates the data set from params.yaml in a
// temporary directory and compares it byte for byte with what is embedded.
func TestRegenerationIsExact(t *testing.T) {
	params, err := fs.ReadFile(FS(), ParamsFile)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ParamsFile), params, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := gen.Regenerate(dir); err != nil {
		t.Fatal(err)
	}
	want, got := readTree(t, FS()), readTree(t, os.DirFS(dir))
	for name, b := range want {
		if !bytes.Equal(b, got[name]) {
			t.Errorf("%s: regenerated file differs from the embedded one (run: go generate ./scenarios/default)", name)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s: regenerated but not embedded (run: go generate ./scenarios/default)", name)
		}
	}
}

// TestEmbeddedShape checks the data set is small, loads as a catalog, and
// that the trace validates against it.
func TestEmbeddedShape(t *testing.T) {
	total := 0
	for _, b := range readTree(t, FS()) {
		total += len(b)
	}
	if total > 800<<10 {
		t.Errorf("embedded data is %d bytes; keep it well under 1 MB", total)
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, FS()); err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.LoadDir(filepath.Join(dir, CatalogDir))
	if err != nil {
		t.Fatal(err)
	}
	multi := 0
	for _, vs := range cat.Versions {
		if len(vs) > 1 {
			multi++
		}
	}
	if len(cat.Versions) < 8 || multi < 2 {
		t.Errorf("%d servers, %d with several versions; want at least 8 and 2", len(cat.Versions), multi)
	}
	problems, counts, err := traces.Validate(filepath.Join(dir, TraceFile), traces.ValidateOptions{Tools: cat})
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range problems {
		if i == 10 {
			break
		}
		t.Errorf("%s", p)
	}
	t.Logf("%d bytes embedded; counts %+v", total, counts)
}

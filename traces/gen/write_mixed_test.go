package gen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteDirRefusesTheOtherKindsFiles pins that WriteDir refuses a
// directory holding an earlier generation of the other kind — catalog files
// before a generation over a catalog (they would become its trace's
// catalog), upgrades.yaml before a generated one — and removes them with
// Clean.
func TestWriteDirRefusesTheOtherKindsFiles(t *testing.T) {
	dir := t.TempDir()
	p := Defaults()
	p.Sessions, p.Servers, p.Drift.Servers = 3, 4, 0
	gen, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	over, err := NewOver(testCatalog(t), overParams(3, 0, "notes"))
	if err != nil {
		t.Fatal(err)
	}
	catalogFiles := func() int {
		fs, _ := filepath.Glob(filepath.Join(dir, CatalogDir, "*.json"))
		return len(fs)
	}
	if _, err := gen.WriteDir(dir, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := over.WriteDir(dir, WriteOptions{}); err == nil || !strings.Contains(err.Error(), "would load them as this trace's catalog") {
		t.Fatalf("over a generated catalog: err = %v", err)
	}
	if _, err := over.WriteDir(dir, WriteOptions{Clean: true}); err != nil || catalogFiles() != 0 {
		t.Fatalf("clean: err = %v, %d catalog files left", err, catalogFiles())
	}
	if _, err := gen.WriteDir(dir, WriteOptions{}); err == nil || !strings.Contains(err.Error(), "holds upgrades.yaml") {
		t.Fatalf("generated over an over-generation: err = %v", err)
	}
	if _, err := gen.WriteDir(dir, WriteOptions{Clean: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, UpgradesFile)); !os.IsNotExist(err) {
		t.Errorf("upgrades.yaml left by Clean (stat: %v)", err)
	}
}

package catalog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMetaWithoutCatalogStops pins that a capture's X.meta.json without the
// X.json it describes stops LoadDir with both names and the fix: before,
// the .meta.json was skipped as metadata and the server it describes was
// left out of every total without a word.
func TestMetaWithoutCatalogStops(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "fs@1.0.json", `{"tools":[`+toolGreet+`]}`)
	writeFile(t, dir, "fs@1.0.meta.json", `{"tool_count":1}`)
	if _, err := LoadDir(dir); err != nil {
		t.Fatalf("a .meta.json beside its catalog: %v", err)
	}
	writeFile(t, dir, "web@2.0.meta.json", `{"tool_count":4}`)
	_, err := LoadDir(dir)
	if err == nil {
		t.Fatal("a .meta.json without its catalog loaded")
	}
	for _, want := range []string{"web@2.0.meta.json has no catalog web@2.0.json beside it", "restore web@2.0.json", "move web@2.0.meta.json out"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

// TestEmptyDirNamesSubdirectories pins that a directory whose catalogs are
// all in sub-directories says so: before, "no catalog files (*.json)" did
// not say that sub-directories are not read, nor which hold catalogs.
func TestEmptyDirNamesSubdirectories(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"fs", "notes"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(dir, "fs"), "fs@1.0.json", `{"tools":[`+toolGreet+`]}`)
	writeFile(t, filepath.Join(dir, "notes"), "README.md", "no catalog")
	_, err := LoadDir(dir)
	if err == nil {
		t.Fatal("a directory without catalog files loaded")
	}
	want := "no catalog files (*.json); sub-directories are not read, and fs holds *.json files: give it as a PATH instead"
	if !strings.Contains(err.Error(), want) {
		t.Errorf("error %q lacks %q", err, want)
	}
	_, err = LoadDir(filepath.Join(dir, "notes"))
	if err == nil || strings.Contains(err.Error(), "sub-directories") {
		t.Errorf("a directory without sub-directories: %v", err)
	}
}

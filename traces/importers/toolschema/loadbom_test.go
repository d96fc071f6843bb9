package toolschema

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLoadFileWithBOM pins that a --tools file starting with a UTF-8 byte
// order mark loads the same tools as the file without it. It was refused as
// "not a tool list: want an MCP tools/list result, …".
func TestLoadFileWithBOM(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "taubench", "testdata", "tools_airline.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	plain, bom := filepath.Join(dir, "plain", "tools_airline.json"), filepath.Join(dir, "bom", "tools_airline.json")
	for p, b := range map[string][]byte{plain: data, bom: append([]byte("\xef\xbb\xbf"), data...)} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, wantDropped, err := LoadFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	got, gotDropped, err := LoadFile(bom)
	if err != nil {
		t.Fatalf("with a BOM: %v", err)
	}
	if len(got) == 0 || len(got[0].Tools) == 0 {
		t.Fatalf("with a BOM: no tools")
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(Set{})); diff != "" {
		t.Errorf("tools differ (-plain +bom):\n%s", diff)
	}
	if diff := cmp.Diff(wantDropped, gotDropped); diff != "" {
		t.Errorf("dropped members differ (-plain +bom):\n%s", diff)
	}
}

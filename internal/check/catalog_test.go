package check

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	defaultdata "github.com/defersim/defersim/scenarios/default"
)

// inflatedCatalog copies the embedded default catalog and makes every tool
// description of the calendar server four times longer.
func inflatedCatalog(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	src := defaultdata.FS()
	entries, err := fs.ReadDir(src, "catalog")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := fs.ReadFile(src, "catalog/"+e.Name())
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(e.Name(), "calendar@") {
			data = inflate(t, data)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func inflate(t *testing.T, data []byte) []byte {
	var doc struct {
		Tools []map[string]any `json:"tools"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	for _, tool := range doc.Tools {
		d, _ := tool["description"].(string)
		tool["description"] = strings.Repeat(d+" ", 4)
	}
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

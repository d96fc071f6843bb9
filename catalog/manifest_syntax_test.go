package catalog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestManifestSyntaxErrorLine pins that a manifest's syntax error is
// reported on the line an editor shows: the YAML library numbers its
// parser's errors from 0, so a JSON manifest missing a comma inside the
// servers array opened on line 2 was reported on line 1, which holds only
// "{" (internal/yamlerr). The library names the line of the collection the
// problem is in (the array's "["), not the line missing the comma.
func TestManifestSyntaxErrorLine(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		line       string
	}{
		{"missing comma", "{\n  \"servers\": [\n    {\"server\": \"a\", \"version\": \"1.0.0\", \"file\": \"a.json\"}\n    {\"server\": \"b\", \"version\": \"1.0.0\", \"file\": \"b.json\"}\n  ]\n}\n", "yaml: line 2: did not find expected ',' or ']'"},
		{"tab in indentation", "servers:\n\t- server: a\n", "yaml: line 2: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := "manifest.json"
			if !strings.HasPrefix(tc.text, "{") {
				name = "catalog.yaml"
			}
			path := filepath.Join(t.TempDir(), name)
			if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := LoadManifest(path)
			if err == nil || !strings.Contains(err.Error(), tc.line) {
				t.Fatalf("LoadManifest: %v, want it to contain %q", err, tc.line)
			}
		})
	}
}

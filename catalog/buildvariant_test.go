package catalog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBuildMetadataVariantsNamed pins that a file named with semver build
// metadata (fs@1.2.3+build.5.json) is named as read as a launch variant, a
// server of its own: before, catalog stats counted it as a second server
// without a word (TOTAL (2 servers)) and history gave it its own series.
func TestBuildMetadataVariantsNamed(t *testing.T) {
	tests := []struct {
		file string
		want bool
	}{
		{"fs@1.2.3+build.5.json", true},
		{"fs@1.0.0+20240115.json", true},
		{"fs@1.0.0+sha.5114f85.json", true},
		{"fs@0.0.45+caps-vision-pdf.json", false}, // a launch variant, as the shared captures name them
		{"fs@0.13.0+no-docs.json", false},
		{"fs@1.0.json", false},
		{"fs@1.0+a_b1.json", false}, // "_" is not semver syntax
	}
	data := []byte(`{"tools":[{"name":"read","inputSchema":{"type":"object"}}]}`)
	for _, tc := range tests {
		dir := t.TempDir()
		p := filepath.Join(dir, tc.file)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := LoadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		got := BuildMetadataVariants([]*Server{s})
		if (len(got) == 1) != tc.want {
			t.Errorf("%s: got %q, want named: %v", tc.file, got, tc.want)
			continue
		}
		if tc.want && (!strings.Contains(got[0], p) || !strings.Contains(got[0], filepath.Join(dir, "fs@"+s.Version+".json"))) {
			t.Errorf("%s: %q does not name the file and the name to give it", tc.file, got[0])
		}
	}
	// A manifest's variant is given on purpose: not named.
	s, err := NewServer("fs", "1.0", "build.5", nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Source = "captures/fs.json"
	if got := BuildMetadataVariants([]*Server{s}); len(got) != 0 {
		t.Errorf("manifest variant named: %q", got)
	}
}

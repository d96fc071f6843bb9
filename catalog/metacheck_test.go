package catalog

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
)

// TestMetaMismatchesNamed pins that a .meta.json contradicting its catalog
// (tool_count, package_version or a snapshot's version or fingerprint) is
// named with what it says: before, the catalog loaded with the metadata of
// another capture, or after an edit, without a word.
func TestMetaMismatchesNamed(t *testing.T) {
	const tools = `{"tools":[` + toolGreet + `,` + toolAdd + `]}`
	fp := func(t *testing.T, dir string) string {
		s, err := LoadFile(writeFile(t, dir, "x@1.0.json", tools))
		if err != nil {
			t.Fatal(err)
		}
		return s.Fingerprint
	}(t, t.TempDir())
	tests := []struct {
		name, file, meta string
		want             []string // nil: not named
	}{
		{"agrees", "fs@1.2.0.json", `{"package_version":"1.2.0","tool_count":2}`, nil},
		{"version spelled otherwise", "fs@v1.2.json", `{"package_version":"1.2.0","tool_count":2}`, nil},
		{"no version in the name", "fs.json", `{"package_version":"1.2.0","tool_count":2}`, nil},
		{"tool count", "fs@1.2.0.json", `{"package_version":"1.2.0","tool_count":3}`, []string{"tool_count 3, but the catalog lists 2"}},
		{"package version", "fs@2.0.json", `{"package_version":"1.2.0","tool_count":2}`, []string{`package_version "1.2.0", but the file name's version is "2.0"`}},
		{"snapshot version", "fs@2.0.json", `{"format":"defersim-snapshot-meta/1","version":"1.0","tool_count":2}`, []string{`version "1.0", but the file name's version is "2.0"`}},
		{"snapshot fingerprint", "fs@1.0.json", `{"format":"defersim-snapshot-meta/1","tool_count":2,"fingerprint":"00ff"}`, []string{"fingerprint 00ff…, but the catalog's tools are " + fp[:12] + "…"}},
		{"snapshot fingerprint agrees", "fs@1.0.json", `{"format":"defersim-snapshot-meta/1","tool_count":2,"fingerprint":"` + fp + `"}`, nil},
		{"not a capture's metadata", "fs@1.0.json", `{"tool_count":"many"}`, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := writeFile(t, dir, tc.file, tools)
			writeFile(t, dir, strings.TrimSuffix(tc.file, ".json")+MetaSuffix, tc.meta)
			s, err := LoadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			got := MetaMismatches([]*Server{s})
			if tc.want == nil {
				if len(got) != 0 {
					t.Errorf("named: %q", got)
				}
				return
			}
			if len(got) != 1 || !strings.HasPrefix(got[0], p+": its .meta.json says ") {
				t.Fatalf("got %q, want one message about %s", got, p)
			}
			for _, w := range tc.want {
				if !strings.Contains(got[0], w) {
					t.Errorf("%q lacks %q", got[0], w)
				}
			}
		})
	}
}

// TestSharedMetaAgreeWithCatalogs checks that no shared capture's
// .meta.json contradicts its catalog, so the warning is silent on real
// captures.
func TestSharedMetaAgreeWithCatalogs(t *testing.T) {
	c, err := LoadDir(shareddata.Path(t, "catalogs"))
	if err != nil {
		t.Fatal(err)
	}
	withMeta := 0
	for _, s := range c.All() {
		if len(s.Meta) > 0 {
			withMeta++
		}
	}
	if withMeta == 0 {
		t.Fatal("no shared catalog carries a .meta.json")
	}
	if got := MetaMismatches(c.All()); len(got) != 0 {
		t.Errorf("%d of %d contradicted: %q", len(got), withMeta, got)
	}
	if got := BuildMetadataVariants(c.All()); len(got) != 0 {
		t.Errorf("shared variants read as build metadata: %q", got)
	}
}

package catalog

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
)

// TestMixedVersionSchemesNamed pins that a series whose versions mix
// dates and release numbers (fs@1.2.0 and fs@2024-09-01) is named, with
// its versions in the order CompareVersions gives them and the one taken
// as latest: before, the date sorted after every release below 2024 (it
// reads as 2024.9.1) and was the latest, a drift step and a version gap's
// end without a word.
func TestMixedVersionSchemesNamed(t *testing.T) {
	tests := []struct {
		name     string
		versions []string
		want     string // the Notes item; "" when not named
	}{
		{"semver and dashed date", []string{"2024-09-01", "1.2.0"}, "fs: 1.2.0 before 2024-09-01 (latest taken: 2024-09-01)"},
		{"compact date", []string{"0.9", "20240901"}, "fs: 0.9 before 20240901 (latest taken: 20240901)"},
		{"v prefix", []string{"v2.0.1", "2025-4-8", "2025-11-25"}, "fs: v2.0.1 before 2025-4-8 before 2025-11-25 (latest taken: 2025-11-25)"},
		// Calendar versions are release numbers: the shared
		// modelcontextprotocol servers went from 0.6.2 to 2025.1.14.
		{"calendar version", []string{"0.6.2", "2025.1.14", "2025.11.25"}, ""},
		{"year-sized release", []string{"3000-1", "1.0"}, ""}, // 3000 is no year this reads
		{"not a day", []string{"20241301", "1.0"}, ""},
		{"dates only", []string{"2024-09-01", "2024-10-15", "2025-01-02"}, ""},
		{"releases only", []string{"1.2.0", "1.10.0", "2024"}, ""},     // a year alone is a release number
		{"content hashes", []string{"0aaa0000aaaa", "2024-09-01"}, ""}, // no release order at all: Unordered
		{"release and pre-release", []string{"1.0.0-rc.1", "1.0.0"}, ""},
		{"one version", []string{"2024-09-01"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var servers []*Server
			for _, v := range tc.versions {
				s, err := NewServer("fs", v, "", nil)
				if err != nil {
					t.Fatal(err)
				}
				s.Source = "cats/fs@" + v + ".json"
				servers = append(servers, s)
			}
			var got []string
			for _, n := range Notes(servers, nil) {
				if n.Kind == NoteVersionsMixed {
					got = n.Items
				}
			}
			long := MixedVersionSchemes(servers)
			if tc.want == "" {
				if len(got) != 0 || len(long) != 0 {
					t.Errorf("named: %q, %q", got, long)
				}
				return
			}
			if len(got) != 1 || got[0] != tc.want {
				t.Errorf("note items %q, want [%q]", got, tc.want)
			}
			last := tc.want[strings.LastIndex(tc.want, " ")+1 : len(tc.want)-1]
			if len(long) != 1 || !strings.Contains(long[0], "so "+last+" is taken as its latest") || !strings.HasPrefix(long[0], "cats/fs@") {
				t.Errorf("warning %q does not locate the series and name %s its latest", long, last)
			}
		})
	}
}

// TestSharedVersionsInOneScheme checks that no series of the shared
// captures mixes dates and release numbers, so runs over them draw no
// versions_mixed_schemes note: four series go from 0.6.2 to calendar
// versions (2025.1.14), release numbers both.
func TestSharedVersionsInOneScheme(t *testing.T) {
	c, err := LoadDir(shareddata.Path(t, "catalogs"))
	if err != nil {
		t.Fatal(err)
	}
	if got := MixedVersionSchemes(c.All()); len(got) != 0 {
		t.Errorf("%d named: %q", len(got), got)
	}
}

// TestCatalogMixedSchemes pins that Catalog.MixedSchemes says of a series
// what MixedVersionSchemes does (plan --growth asks it of the series whose
// latest it takes), and nothing of a series in one scheme or of content
// hashes (Unordered says those).
func TestCatalogMixedSchemes(t *testing.T) {
	var servers []*Server
	for _, sv := range [][2]string{{"fs", "1.2.0"}, {"fs", "2024-09-01"}, {"git", "1.0"}, {"git", "2.0"}, {"db", "0aaa0000aaaa"}, {"db", "2024-09-01"}} {
		s, err := NewServer(sv[0], sv[1], "", nil)
		if err != nil {
			t.Fatal(err)
		}
		servers = append(servers, s)
	}
	c := New(servers...)
	for key, want := range map[string]bool{"fs": true, "git": false, "db": false, "none": false} {
		if got := c.MixedSchemes(key); got != want {
			t.Errorf("MixedSchemes(%q) = %v, want %v", key, got, want)
		}
	}
}

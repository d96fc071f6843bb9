package catalog

import (
	"path/filepath"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
)

// TestSeriesRef pins how a (server, version) pair names a series: a
// launch variant after the version's first "+" moves into the series key,
// as a catalog file name splits it (ParseFileName); a series key and a
// version without one pass unchanged.
func TestSeriesRef(t *testing.T) {
	for _, tc := range []struct {
		server, version string
		key, plain      string
		variant         bool
	}{
		{"p", "0.0.45+caps", "p+caps", "0.0.45", true},
		{"p+caps", "0.0.45", "p+caps", "0.0.45", false},
		{"p", "0.0.45", "p", "0.0.45", false},
		{"p", "", "p", "", false},
		{"p", "+caps", "p+caps", "", true},                 // the variant at its latest version
		{"p", "1.0+a+b", "p+a+b", "1.0", true},             // the first "+" starts the variant, as in a file name
		{"p+caps", "0.0.45+x", "p+caps+x", "0.0.45", true}, // a variant of a series key: no catalog file names one
		{"p", "1.0+", "p", "1.0+", false},                  // nothing after the "+": no variant
	} {
		key, plain := SeriesRef(tc.server, tc.version)
		if key != tc.key || plain != tc.plain {
			t.Errorf("SeriesRef(%q, %q) = %q, %q; want %q, %q", tc.server, tc.version, key, plain, tc.key, tc.plain)
		}
		if got := HasVariant(tc.version); got != tc.variant {
			t.Errorf("HasVariant(%q) = %v, want %v", tc.version, got, tc.variant)
		}
	}
}

// TestAtVariantForms pins that At finds a launch variant of the shared
// catalogs in both forms, and that its file name splits as SeriesRef reads
// the version form.
func TestAtVariantForms(t *testing.T) {
	const file = "playwright__mcp@0.0.45+caps-vision-pdf.json"
	s, err := LoadFile(shareddata.Path(t, "catalogs", file))
	if err != nil {
		t.Fatal(err)
	}
	c := New(s)
	name, version, variant := ParseFileName(filepath.Join("catalogs", file))
	for _, tc := range [][2]string{{name, version + "+" + variant}, {name + "+" + variant, version}} {
		if got := c.At(tc[0], tc[1]); got != s {
			t.Errorf("At(%q, %q) = %v, want the variant's capture", tc[0], tc[1], got)
		}
	}
	if got := c.At(name, version); got != nil {
		t.Errorf("At(%q, %q) = %s@%s, want nil: the catalog holds only the variant", name, version, got.Key(), got.Version)
	}
}

package gen

import (
	"testing"

	"github.com/defersim/defersim/catalog"
)

// TestChangesAgreeWithCatalogDiff checks each generated change against the
// class the catalog package's diff gives it: the kinds the generator claims
// to plant are the kinds a reader of the catalog will see.
func TestChangesAgreeWithCatalogDiff(t *testing.T) {
	p := smallParams(1)
	p.Drift.Servers, p.Drift.Versions = 4, 3
	g, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]catalog.Class{
		"description":      catalog.ClassDescriptionOnly,
		"optional_added":   catalog.ClassSchemaCompatible,
		"required_added":   catalog.ClassBreaking,
		"property_removed": catalog.ClassBreaking,
		"property_renamed": catalog.ClassBreaking,
	}
	checked := 0
	for _, s := range g.servers {
		for i := 1; i < len(s.versions); i++ {
			a, err := catalog.Parse(s.versions[i-1].toolsList(), s.name, s.versions[i-1].version, "")
			if err != nil {
				t.Fatal(err)
			}
			b, err := catalog.Parse(s.versions[i].toolsList(), s.name, s.versions[i].version, "")
			if err != nil {
				t.Fatal(err)
			}
			d := catalog.Diff(a, b)
			byName := map[string]catalog.ToolChange{}
			for _, tc := range d.Changed {
				byName[tc.Name] = tc
			}
			for _, c := range s.versions[i].changes {
				cls, ok := want[c.Kind]
				if !ok {
					continue
				}
				tc, found := byName[c.Tool]
				if !found {
					t.Errorf("%+v: catalog diff sees no change", c)
					continue
				}
				checked++
				if tc.Class != cls {
					t.Errorf("%+v: catalog diff class %s, want %s (%+v)", c, tc.Class, cls, tc.Changes)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no change checked")
	}
}

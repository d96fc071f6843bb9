package retrieval

import (
	"path/filepath"
	"testing"

	"github.com/defersim/defersim/catalog"
)

// TestOwnSetFileGetsShippedSRDs pins that a user's own set file over a
// catalog folder is routed by the shipped SRDs of the folder's servers when
// --srd is not given, as a named hard set is: the choice used to test the
// set's name: field instead of where the set came from, so an own file
// (name "team") silently got no SRDs and its routed arms reported "(0 SRDs)".
func TestOwnSetFileGetsShippedSRDs(t *testing.T) {
	dir := filepath.Join("testdata", "ownset")
	cat, err := catalog.LoadDir(filepath.Join(dir, "catalogs"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := LoadNamed(filepath.Join(dir, "team.yaml"), Sources{Catalogs: filepath.Join(dir, "catalogs")}, cat)
	if err != nil {
		t.Fatal(err)
	}
	srds, err := LoadSRDs("", s, cat)
	if err != nil {
		t.Fatal(err)
	}
	if srds == nil || len(srds.SRDs()) != 1 || srds.SRDs()[0].ServerID != "modelcontextprotocol__server-brave-search" {
		t.Fatalf("shipped SRDs for an own set file = %v, want the brave-search one (the only described server of the folder)", srds)
	}
	none, err := LoadSRDs(SRDNone, s, cat)
	if err != nil || none != nil {
		t.Errorf("--srd none: %v, %v; want no SRDs", none, err)
	}
}

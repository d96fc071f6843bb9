package retrieval

import (
	"path/filepath"
	"strings"
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

// TestUnresolvedWantsSaySo pins that a task file whose wants are not in the
// corpus names every such want with its line and why: the corpus takes each
// server's latest version, so a tool only an older version serves, a
// server@version name, a misspelt tool and an unknown server each get their
// reason. Before, the first miss stopped the load with only "is not in the
// catalog corpus", one fix per run.
func TestUnresolvedWantsSaySo(t *testing.T) {
	dir := filepath.Join("testdata", "ownset")
	cat, err := catalog.LoadDir(filepath.Join(dir, "catalogs"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = LoadNamed(filepath.Join(dir, "wrong.yaml"), Sources{Catalogs: filepath.Join(dir, "catalogs")}, cat)
	if err == nil {
		t.Fatal("no error for wants that resolve nowhere")
	}
	for _, want := range []string{
		`wrong.yaml:4: want: "acme-deploy/promote_build" is not in the catalog corpus: served by acme-deploy@1.1.0 only; the corpus takes each server's latest version (acme-deploy@1.2.0)`,
		`wrong.yaml:5: want: "acme-deploy@1.2.0/deploy_service" is not in the catalog corpus: name the server without its version (acme-deploy/deploy_service)`,
		`wrong.yaml:6: want: "acme-deploy/deploy_servce" is not in the catalog corpus: no version of acme-deploy serves deploy_servce`,
		`wrong.yaml:7: want: "pager/page" is not in the catalog corpus: no server pager in the catalogs`,
		// A tool labelled with the wrong server: the corpus's label is named
		// (before, only "no version of acme-deploy serves brave_web_search").
		`wrong.yaml:9: want: "acme-deploy/brave_web_search" is not in the catalog corpus: no version of acme-deploy serves brave_web_search; in the corpus under another server: modelcontextprotocol__server-brave-search/brave_web_search`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not say\n  %s\ngot:\n%v", want, err)
		}
	}
	if strings.Contains(err.Error(), "rollback_service") {
		t.Errorf("a want that resolves is named: %v", err)
	}
}

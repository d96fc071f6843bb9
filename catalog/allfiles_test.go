package catalog

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/tokens"
)

// TestEveryCatalogFile loads every catalog in the shared data one by one,
// computes and formats its stats, and diffs it against itself and against
// every other version of the same server (both directions).
func TestEveryCatalogFile(t *testing.T) {
	dir := shareddata.Path(t, "catalogs")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	// cl100k_base is exercised by the golden test; one tokenizer keeps this
	// test fast.
	cs := []tokens.Counter{}
	for _, n := range []string{"o200k_base", "bytes/3.5"} {
		c, err := tokens.ByName(n)
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, tokens.NewMemo(c))
	}
	byName := map[string][]*Server{}
	files := 0
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") || IsMetaFile(e.Name()) {
			continue
		}
		files++
		s, err := LoadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Errorf("%s: %v", e.Name(), err)
			continue
		}
		if len(s.Tools) == 0 || len(s.Meta) == 0 || s.Fingerprint == "" {
			t.Errorf("%s: %d tools, meta %d bytes, fingerprint %q", e.Name(), len(s.Tools), len(s.Meta), s.Fingerprint)
		}
		st := ComputeStats([]*Server{s}, cs)
		if st.Total.Tools != len(s.Tools) || st.Total.Tokens["o200k_base"] <= 0 {
			t.Errorf("%s: stats %+v", e.Name(), st.Total)
		}
		if err := FormatStats(io.Discard, st); err != nil {
			t.Errorf("%s: %v", e.Name(), err)
		}
		self := Diff(s, s)
		if len(self.Added)+len(self.Removed)+len(self.Changed) != 0 || self.Unchanged != len(s.Tools) {
			t.Errorf("%s: differs from itself: %+v", e.Name(), self)
		}
		byName[s.Name] = append(byName[s.Name], s)
	}
	if files < 70 {
		t.Errorf("only %d catalog files found", files)
	}
	for name, versions := range byName {
		for _, a := range versions {
			for _, b := range versions {
				if a == b {
					continue
				}
				d := Diff(a, b)
				var buf bytes.Buffer
				if err := FormatDiff(&buf, d); err != nil {
					t.Errorf("%s: %v", name, err)
				}
				if d.FromTools != len(a.Tools) || d.ToTools != len(b.Tools) ||
					len(d.Added)+len(d.Changed)+d.Unchanged != len(b.Tools) ||
					len(d.Removed)+len(d.Changed)+d.Unchanged != len(a.Tools) {
					t.Errorf("%s → %s: counts do not add up: %+v", a.Label(), b.Label(), d)
				}
				for _, tc := range d.Changed {
					// The (model-visible) fingerprint changes exactly when
					// something other than metadata does.
					if len(tc.Changes) == 0 || tc.Class == ClassNone || (tc.FromFingerprint == tc.ToFingerprint) != (tc.Class == ClassMetadataOnly) {
						t.Errorf("%s → %s: %s: empty or inconsistent change %+v", a.Label(), b.Label(), tc.Name, tc)
					}
				}
			}
		}
	}
}

// TestLoadSharedDir loads the whole shared catalog directory and checks the
// series the file names imply.
func TestLoadSharedDir(t *testing.T) {
	dir := shareddata.Path(t, "catalogs")
	c, err := LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(c.All()); got != 73 {
		t.Errorf("loaded %d server versions, want 73", got)
	}
	if got := c.Latest("modelcontextprotocol__server-github").Version; got != "2025.4.8" {
		t.Errorf("latest github = %s, want 2025.4.8 (numeric, not lexical, order)", got)
	}
	if got := c.Latest("playwright__mcp+caps-vision-pdf").Version; got != "0.0.60" {
		t.Errorf("latest playwright caps-vision-pdf = %s", got)
	}
	if !c.HasTool("playwright__mcp", "browser_pdf_save") || c.HasTool("modelcontextprotocol__server-memory", "browser_pdf_save") {
		t.Error("HasTool on the shared catalog is wrong")
	}
}

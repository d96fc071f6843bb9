package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/report"
)

// TestRunReportsCatalogNotes pins that a run's catalogs flow through to its
// results with what loading substituted: tools whose input schema was null
// or missing (read as {"type":"object"}) and server versions that serve no
// tools are counted by kind in results.json run.catalog_notes (up to
// catalog.MaxNoteItems named) and stated as findings (summary, report.md,
// report.html); before, only an assumption held them and the run looked
// clean. Clean catalogs give no such key, so their results are unchanged.
func TestRunReportsCatalogNotes(t *testing.T) {
	for _, tc := range []struct {
		name          string
		null, missing int  // tools of the first catalog file changed
		empty         bool // add a server version that lists no tools
		want          map[string]int
	}{
		{name: "clean"},
		{name: "null schemas", null: 2, want: map[string]int{catalog.NoteSchemaNull: 2}},
		{name: "missing schema", missing: 1, want: map[string]int{catalog.NoteSchemaMissing: 1}},
		{name: "server without tools", empty: true, want: map[string]int{catalog.NoteNoTools: 1}},
		{name: "all three", null: 1, missing: 2, empty: true,
			want: map[string]int{catalog.NoteSchemaNull: 1, catalog.NoteSchemaMissing: 2, catalog.NoteNoTools: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := smallConfig(t, []string{"eager"}, 4)
			cfg.Bootstrap = -1
			dir := cfg.Catalogs[0].Path
			editFirstCatalog(t, dir, tc.null, tc.missing)
			if tc.empty {
				if err := os.WriteFile(filepath.Join(dir, "idle@1.0.json"), []byte(`{"tools":[]}`), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			out, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]int{}
			for _, n := range out.Info.CatalogNotes {
				got[n.Kind] = n.Count
				if len(n.Items) != min(n.Count, catalog.MaxNoteItems) {
					t.Errorf("%s: %d items for %d", n.Kind, len(n.Items), n.Count)
				}
			}
			if len(tc.want) == 0 {
				tc.want = map[string]int{}
			}
			if !maps.Equal(got, tc.want) {
				t.Errorf("catalog notes = %v, want %v", got, tc.want)
			}
			data := resultsBytes(t, out)
			if has := bytes.Contains(data, []byte(`"catalog_notes"`)); has != (len(tc.want) > 0) {
				t.Errorf("results.json has catalog_notes: %v, want %v", has, len(tc.want) > 0)
			}
			var findings []string
			for _, f := range report.Findings(out.Results) {
				if strings.HasPrefix(f, "Catalogs: ") {
					findings = append(findings, f)
				}
			}
			if len(findings) != len(tc.want) {
				t.Errorf("%d catalog findings, want %d: %q", len(findings), len(tc.want), findings)
			}
			if tc.empty && !slices.ContainsFunc(findings, func(f string) bool { return strings.Contains(f, "idle@1.0") }) {
				t.Errorf("no finding names the empty server: %q", findings)
			}
		})
	}
}

// editFirstCatalog sets the input schema of the first null tools of the
// first catalog file of dir to null and removes that of the next missing.
func editFirstCatalog(t *testing.T, dir string, null, missing int) {
	t.Helper()
	if null+missing == 0 {
		return
	}
	names, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no catalog in %s: %v", dir, err)
	}
	slices.Sort(names)
	data, err := os.ReadFile(names[0])
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Tools []map[string]any `json:"tools"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Tools) < null+missing {
		t.Fatalf("%s has %d tools", names[0], len(doc.Tools))
	}
	for i := range null {
		doc.Tools[i]["inputSchema"] = nil
	}
	for i := null; i < null+missing; i++ {
		delete(doc.Tools[i], "inputSchema")
	}
	if data, err = json.Marshal(doc); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(names[0], data, 0o644); err != nil {
		t.Fatal(err)
	}
}

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/defersim/defersim/catalog"
	"github.com/google/go-cmp/cmp"
)

// TestValidateWarnsOfEveryCatalogNoteKind pins that `trace validate`
// warns of exactly the catalog notes `run` warns of over the same trace and
// catalogs (results.json run.catalog_notes), in text and JSON, and that
// every kind catalog.Notes gives is exercised and has validate's words of
// what it means for run: validate kept a list of its own and said nothing
// of a tool with no or a null inputSchema, nor of a server version serving
// no tools, which run warns of.
func TestValidateWarnsOfEveryCatalogNoteKind(t *testing.T) {
	for _, k := range catalog.NoteKinds() {
		if validateNoteKinds[k] == "" {
			t.Errorf("validateNoteKinds says nothing of %s", k)
		}
	}
	if len(validateNoteKinds) != len(catalog.NoteKinds()) {
		t.Errorf("validateNoteKinds has %d kinds, catalog.NoteKinds %d", len(validateNoteKinds), len(catalog.NoteKinds()))
	}
	const read = `{"name":"read_file","description":"Read a file.","inputSchema":{"type":"object","properties":{"path":{"type":"string"}}}}`
	tmp := t.TempDir()
	written := map[string]map[string]string{
		"missing": {"files@1.2.3.json": `{"tools":[` + read + `,{"name":"stat","description":"Stat a file."}]}`},
		"null":    {"files@1.2.3.json": `{"tools":[` + read + `,{"name":"stat","description":"Stat a file.","inputSchema":null}]}`},
		"notools": {"files@1.2.3.json": `{"tools":[` + read + `]}`, "idle@1.json": `[]`},
		"invalid": {"files@1.2.3.json": `{"tools":[` + read + `,{"name":"stat","description":"Stat.","inputSchema":{"type":"object","properties":{"n":{"type":"float"}}}}]}`},
	}
	dirs := []string{"buildvariant", "meta", "toolname", "mixedversions"}
	for i, d := range dirs {
		dirs[i] = filepath.Join("testdata", "filechecks", d)
	}
	for name, files := range written {
		dir := filepath.Join(tmp, name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for f, content := range files {
			if err := os.WriteFile(filepath.Join(dir, f), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		dirs = append(dirs, dir)
	}
	slices.Sort(dirs)
	trace := filepath.Join("testdata", "filechecks", "trace.jsonl")
	var seen []string
	for _, cats := range dirs {
		t.Run(filepath.Base(cats), func(t *testing.T) {
			out := filepath.Join(tmp, "out", filepath.Base(cats))
			stdout, stderr, code := cliRun(t, "run", "--traces", trace, "--catalogs", cats, "--strategies", "eager", "-o", out, "--bootstrap", "-1", "--no-report")
			if code != 0 {
				t.Fatalf("run: exit %d\n%s%s", code, stdout, stderr)
			}
			b, err := os.ReadFile(filepath.Join(out, "results.json"))
			if err != nil {
				t.Fatal(err)
			}
			var res struct {
				Run struct {
					CatalogNotes []catalog.Note `json:"catalog_notes"`
				} `json:"run"`
			}
			if err := json.Unmarshal(b, &res); err != nil {
				t.Fatal(err)
			}
			jout, verr, code := cliRun(t, "trace", "validate", "--format", "json", "--catalogs", cats, trace)
			if code != 0 {
				t.Fatalf("trace validate: exit %d\n%s%s", code, jout, verr)
			}
			var rep validateReport
			if err := json.Unmarshal([]byte(jout), &rep); err != nil {
				t.Fatalf("trace validate --format json: %v\n%s", err, jout)
			}
			if len(res.Run.CatalogNotes) == 0 {
				t.Fatalf("run warns of no catalog note over %s", cats)
			}
			if diff := cmp.Diff(res.Run.CatalogNotes, rep.CatalogNotes); diff != "" {
				t.Errorf("validate's catalog_notes differ from run's (-run +validate):\n%s", diff)
			}
			text, _, _ := cliRun(t, "trace", "validate", "--catalogs", cats, trace)
			for _, n := range res.Run.CatalogNotes {
				seen = append(seen, n.Kind)
				if want := "catalogs: warning: " + n.Text() + ": "; !strings.Contains(text, want) || !strings.Contains(text, "; "+validateNoteKinds[n.Kind]+"\n") {
					t.Errorf("validate's text lacks the %s warning %q\n%s", n.Kind, want, text)
				}
				if !strings.Contains(stderr, "defersim: warning: catalogs: "+n.Text()) {
					t.Errorf("run's stderr lacks the %s warning:\n%s", n.Kind, stderr)
				}
			}
		})
	}
	slices.Sort(seen)
	want := catalog.NoteKinds()
	slices.Sort(want)
	if diff := cmp.Diff(want, slices.Compact(seen)); diff != "" {
		t.Errorf("the catalogs exercise other kinds than catalog.NoteKinds (-want +got):\n%s", diff)
	}
}

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunAndValidateRunCatalogFileChecks pins that the catalog file checks
// `catalog stats` runs (a file name's "+build.5" read as a launch variant,
// a .meta.json contradicting its catalog, a tool name the MCP
// specification advises against, a series mixing dates and release
// numbers) run wherever catalogs load: run records
// each as a note of its own kind in results.json run.catalog_notes, warns
// on stderr and states it in report.md, and trace validate warns of it
// (and still passes: the traces are not at fault). Before, run and trace
// validate loaded such catalogs without a word.
func TestRunAndValidateRunCatalogFileChecks(t *testing.T) {
	tests := []struct {
		dir, kind, item string
		validate        string // trace validate's warning ends so
	}{
		{"buildvariant", "file_build_metadata_variant",
			`files@1.2.3+build.5 (rename to files@1.2.3.json if "build.5" is build metadata)`,
			"run replays each as a server of its own"},
		{"meta", "meta_contradicts_catalog",
			`files@1.2.3: tool_count 2, but the catalog lists 1; package_version "1.2.0", but the file name's version is "1.2.3"`,
			"run replays each catalog as its file lists it"},
		{"toolname", "tool_name_unusual",
			`files@1.2.3: tools[1] "stat file" holds ' '`,
			"run counts their names as written"},
		{"mixedversions", "versions_mixed_schemes",
			`files: 1.2.3 before 2024-09-01 (latest taken: 2024-09-01)`,
			"run takes the last in that order as the latest"},
	}
	base := filepath.Join("testdata", "filechecks")
	trace := filepath.Join(base, "trace.jsonl")
	for _, tc := range tests {
		t.Run(tc.dir, func(t *testing.T) {
			cats := filepath.Join(base, tc.dir)
			out := filepath.Join(t.TempDir(), "out")
			stdout, stderr, code := cliRun(t, "run", "--traces", trace, "--catalogs", cats, "--strategies", "eager,claude-code-default",
				"-o", out, "--bootstrap", "-1")
			if code != 0 {
				t.Fatalf("run: exit %d\n%s%s", code, stdout, stderr)
			}
			if want := tc.item + " (results.json run.catalog_notes)"; !strings.Contains(stderr, "defersim: warning: catalogs: ") || !strings.Contains(stderr, want) {
				t.Errorf("run stderr lacks the warning %q:\n%s", want, stderr)
			}
			b, err := os.ReadFile(filepath.Join(out, "results.json"))
			if err != nil {
				t.Fatal(err)
			}
			var res struct {
				Run struct {
					CatalogNotes []struct {
						Kind  string   `json:"kind"`
						Count int      `json:"count"`
						Items []string `json:"items"`
					} `json:"catalog_notes"`
				} `json:"run"`
			}
			if err := json.Unmarshal(b, &res); err != nil {
				t.Fatal(err)
			}
			if n := res.Run.CatalogNotes; len(n) != 1 || n[0].Kind != tc.kind || n[0].Count != 1 || len(n[0].Items) != 1 || n[0].Items[0] != tc.item {
				t.Errorf("run.catalog_notes = %+v, want one %s note naming %q", n, tc.kind, tc.item)
			}
			md, err := os.ReadFile(filepath.Join(out, "report.md"))
			if err != nil {
				t.Fatal(err)
			}
			// report.md escapes "[" and "]" in its text.
			unescaped := strings.NewReplacer(`\[`, "[", `\]`, "]").Replace(string(md))
			if !strings.Contains(unescaped, "- Catalogs: ") || !strings.Contains(unescaped, tc.item) {
				t.Errorf("report.md lacks the finding naming %q", tc.item)
			}
			vout, verr, code := cliRun(t, "trace", "validate", "--catalogs", cats, trace)
			if code != 0 {
				t.Fatalf("trace validate: exit %d, want 0\n%s%s", code, vout, verr)
			}
			if want := tc.item + "; " + tc.validate + "\n"; !strings.Contains(vout, "catalogs: warning: ") || !strings.Contains(vout, want) {
				t.Errorf("trace validate lacks the warning %q:\n%s", want, vout)
			}
			jout, _, _ := cliRun(t, "trace", "validate", "--format", "json", "--catalogs", cats, trace)
			var rep struct {
				CatalogNotes []struct {
					Kind string `json:"kind"`
				} `json:"catalog_notes"`
			}
			if err := json.Unmarshal([]byte(jout), &rep); err != nil {
				t.Fatalf("trace validate --format json: %v\n%s", err, jout)
			}
			if len(rep.CatalogNotes) != 1 || rep.CatalogNotes[0].Kind != tc.kind {
				t.Errorf("trace validate --format json catalog_notes = %+v, want one %s", rep.CatalogNotes, tc.kind)
			}
		})
	}
}

// TestCatalogHistoryWarnsMixedVersionSchemes pins that `catalog history`,
// whose drift steps follow the version order, warns of a series whose
// versions mix a date (2024-09-01) and a release number (1.2.3), naming
// the order it used and the latest: it showed the step 1.2.3 → 2024-09-01
// as a release without a word, and then stated the order as fact on stdout
// and in history.json.
func TestCatalogHistoryWarnsMixedVersionSchemes(t *testing.T) {
	cats := filepath.Join("testdata", "filechecks", "mixedversions")
	stdout, stderr, code := cliRun(t, "catalog", "history", cats)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	// The series itself says its order is unknown, on stdout and in
	// history.json (TestHistoryMarksMixedSchemesOrderUnknown).
	js, _, _ := cliRun(t, "catalog", "history", "--format", "json", cats)
	if !strings.Contains(stdout, "order unknown: versions mix dates and release numbers, whose order is unknown") ||
		!strings.Contains(js, `"order_unknown": true`) {
		t.Errorf("history does not mark the series order unknown:\n%s\n%s", stdout, js)
	}
	for _, want := range []string{
		"versions of files mix dates and release numbers (1.2.3 before 2024-09-01)",
		"so 2024-09-01 is taken as its latest",
		"defersim: warning: 1 server series whose versions mix dates and release numbers",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}

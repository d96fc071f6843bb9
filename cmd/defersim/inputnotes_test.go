package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestJobsWarnInputNotes pins that recommend, calibrate, sweep and plan
// --growth, like run, show what users' inputs hold that they read as it is:
// over a catalog with a null inputSchema and a server version listing no
// tools, and a trace with an event whose time goes backwards and a session
// cut before its session_end, each prints run's warnings on stderr, word
// for word but for the document it names, and records them in its
// document as input_notes (recommend's --format json, calibrate's --json,
// sweep.json, plan.json; the YAML it writes repeats them as comments).
// They printed a clean-looking result without a word. Over clean inputs
// they print none of it and write no input_notes.
func TestJobsWarnInputNotes(t *testing.T) {
	if testing.Short() {
		t.Skip("replays generated sessions under every command")
	}
	trace, cat := genData(t, "20")
	bad := t.TempDir()
	badTrace, badCat, nullTool := badInputs(t, trace, cat, bad)

	for _, inputs := range []struct {
		name        string
		trace, cats string
		bad         bool
	}{{"clean", trace, cat, false}, {"bad", badTrace, badCat, true}} {
		t.Run(inputs.name, func(t *testing.T) {
			dir := t.TempDir()
			runDir := filepath.Join(dir, "run")
			stdout, stderr, code := cliRun(t, "run", "--traces", inputs.trace, "--catalogs", inputs.cats, "--strategies", "eager,claude-code-default",
				"-o", runDir, "--no-report", "--bootstrap", "-1")
			if code != 0 {
				t.Fatalf("run: exit %d\n%s%s", code, stdout, stderr)
			}
			tests := []struct {
				cmd   string
				args  []string
				where string // the document named by the catalog warnings
				// doc returns the JSON document written (stdout is the
				// command's stdout); yaml, when set, names a YAML file
				// whose comments repeat the warnings.
				doc  func(stdout string) []byte
				yaml string
			}{
				{cmd: "run", where: "results.json run.catalog_notes"},
				{cmd: "recommend", args: []string{"recommend", inputs.trace, "--catalogs", inputs.cats, "--format", "json", "--bootstrap", "-1",
					"-o", filepath.Join(dir, "snippet.yaml")},
					where: "--format json input_notes.catalog_notes", doc: func(s string) []byte { return []byte(s) }, yaml: filepath.Join(dir, "snippet.yaml")},
				{cmd: "calibrate", args: []string{"calibrate", inputs.trace, "--catalogs", inputs.cats, "--fit-on", "even",
					"-o", filepath.Join(dir, "cal.yaml"), "--json", filepath.Join(dir, "cal.json")},
					where: "--format json input_notes.catalog_notes", doc: fileDoc(t, filepath.Join(dir, "cal.json")), yaml: filepath.Join(dir, "cal.yaml")},
				{cmd: "sweep", args: []string{"sweep", "--param", "strategy.warm.max_tools=2:6:4", "--strategies", "eager,claude-code-default",
					"--traces", inputs.trace, "--catalogs", inputs.cats, "-o", filepath.Join(dir, "sweep"), "--bootstrap", "-1"},
					where: "sweep.json input_notes.catalog_notes", doc: fileDoc(t, filepath.Join(dir, "sweep", "sweep.json"))},
				{cmd: "plan --growth", args: []string{"plan", filepath.Join(runDir, "results.json"), "--sessions-per-day", "1000", "--growth", "1,2",
					"--traces", inputs.trace, "--catalogs", inputs.cats, "-o", filepath.Join(dir, "plan"), "--bootstrap", "-1"},
					where: "plan.json input_notes.catalog_notes", doc: fileDoc(t, filepath.Join(dir, "plan", "plan.json"))},
			}
			for _, tc := range tests {
				t.Run(tc.cmd, func(t *testing.T) {
					out, errs := stdout, stderr
					if tc.args != nil {
						var code int
						if out, errs, code = cliRun(t, tc.args...); code != 0 {
							t.Fatalf("exit %d\n%s%s", code, out, errs)
						}
					}
					want := []string{
						`defersim: warning: catalogs: 1 tool has a null inputSchema, read as {"type":"object"}: ` + nullTool + " (" + tc.where + ")",
						"defersim: warning: catalogs: 1 server version serves no tools (the file lists none): idle@1 (" + tc.where + ")",
						"defersim: warning: 1 trace event is earlier than the event before it in its session (kept; a user pause that would be negative is taken as 0, so the prompt cache sees no gap there; `defersim trace validate` lists it)",
						"defersim: warning: " + badTrace + ":9: session \"gen-000001\": time goes backwards: ",
						"defersim: warning: 1 of 20 sessions read has no session_end (a file cut short? a session split across files?); they were replayed as far as recorded (`defersim trace validate` lists them)",
					}
					for _, w := range want {
						if got := strings.Contains(errs, w); got != inputs.bad {
							t.Errorf("stderr has %q: %v, want %v:\n%s", w, got, inputs.bad, errs)
						}
					}
					// recommend's warning on its 15 training sessions'
					// uncertain decisions is about the sample's size, not
					// the inputs' problems.
					if !inputs.bad && strings.Contains(withoutSampleWarnings(errs), "warning") {
						t.Errorf("stderr warns over clean inputs:\n%s", errs)
					}
					if tc.doc != nil {
						var doc struct {
							Notes *struct {
								CatalogNotes []struct {
									Kind  string `json:"kind"`
									Count int    `json:"count"`
								} `json:"catalog_notes"`
								Incomplete int64 `json:"sessions_incomplete"`
								Backwards  int64 `json:"events_time_backwards"`
							} `json:"input_notes"`
						}
						if err := json.Unmarshal(tc.doc(out), &doc); err != nil {
							t.Fatalf("document: %v", err)
						}
						switch n := doc.Notes; {
						case !inputs.bad && n != nil:
							t.Errorf("document has input_notes over clean inputs: %+v", *n)
						case inputs.bad && n == nil:
							t.Errorf("document has no input_notes")
						case inputs.bad:
							var kinds []string
							for _, c := range n.CatalogNotes {
								kinds = append(kinds, c.Kind)
							}
							sort.Strings(kinds)
							if strings.Join(kinds, ",") != "input_schema_null,server_without_tools" || n.Incomplete != 1 || n.Backwards != 1 {
								t.Errorf("input_notes = %+v (catalog note kinds %v), want both kinds, 1 incomplete session, 1 event backwards", *n, kinds)
							}
						}
					}
					if tc.yaml != "" {
						data, err := os.ReadFile(tc.yaml)
						if err != nil {
							t.Fatal(err)
						}
						want := 0
						if inputs.bad {
							want = 5 // the five warning lines of stderr
						}
						if got := strings.Count(strings.ToLower(string(data)), "# input warning: "); got != want {
							t.Errorf("%s has %d input warning comment(s), want %d:\n%s", filepath.Base(tc.yaml), got, want, data)
						}
					}
				})
			}
		})
	}
}

// fileDoc returns a doc function reading path.
func fileDoc(t *testing.T, path string) func(string) []byte {
	return func(string) []byte {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
}

// badInputs writes into dir a copy of the catalog with the first tool of
// its first file given a null inputSchema and a server version idle@1
// listing no tools, and a copy of the trace (plain) whose 9th line's time
// is moved back before the session's start and whose last session_end is
// cut. It returns their paths and the null-schema tool's label.
func badInputs(t *testing.T, trace, cat, dir string) (badTrace, badCat, nullTool string) {
	t.Helper()
	badCat = filepath.Join(dir, "catalog")
	if err := os.Mkdir(badCat, 0o755); err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(cat, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no catalog file in %s (%v)", cat, err)
	}
	sort.Strings(files)
	for i, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			var doc map[string][]map[string]any
			if err := json.Unmarshal(data, &doc); err != nil || len(doc["tools"]) == 0 {
				t.Fatalf("%s: %v", f, err)
			}
			doc["tools"][0]["inputSchema"] = nil
			nullTool = strings.TrimSuffix(filepath.Base(f), ".json") + `: tools[0] "` + doc["tools"][0]["name"].(string) + `"`
			if data, err = json.Marshal(doc); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(badCat, filepath.Base(f)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(badCat, "idle@1.json"), []byte("[]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	data := gunzip(t, trace)
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	var ev map[string]any
	if err := json.Unmarshal([]byte(lines[8]), &ev); err != nil || ev["session"] != "gen-000001" {
		t.Fatalf("line 9 %q is not of session gen-000001 (%v)", lines[8], err)
	}
	lines[8] = strings.Replace(lines[8], `"t":"`+ev["t"].(string)+`"`, `"t":"2026-01-01T00:00:00Z"`, 1)
	if !strings.Contains(lines[len(lines)-1], `"type":"session_end"`) {
		t.Fatalf("the trace does not end with a session_end: %s", lines[len(lines)-1])
	}
	badTrace = filepath.Join(dir, "trace.jsonl")
	if err := os.WriteFile(badTrace, []byte(strings.Join(lines[:len(lines)-1], "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return badTrace, badCat, nullTool
}

// withoutSampleWarnings drops recommend's warnings on the sample's size:
// uncertain decisions or mode, a proposal no held-out session checked, a
// validation on a small sample.
func withoutSampleWarnings(stderr string) string {
	var keep []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "defersim: warning: ") && (strings.Contains(l, " uncertain: learnt from ") || strings.Contains(l, "no session was held apart") ||
			strings.Contains(l, "the validation replayed ")) {
			continue
		}
		keep = append(keep, l)
	}
	return strings.Join(keep, "\n")
}

package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/runner"
)

// noCatalogTrace is a trace of one session naming no server and no
// catalog, with none beside it: what `trace import` writes of sessions
// whose source defines no tools ("catalog: none written").
const noCatalogTrace = `{"v":1,"type":"session_start","session":"s1","t":"2026-01-01T00:00:00Z","model":"gpt-4o"}
{"type":"user","session":"s1","t":"2026-01-01T00:00:00Z","text":"hello"}
{"type":"model_request","session":"s1","t":"2026-01-01T00:00:01Z","id":"r1"}
{"type":"assistant","session":"s1","t":"2026-01-01T00:00:01Z","text":"hi","request":"r1"}
{"type":"session_end","session":"s1","t":"2026-01-01T00:00:02Z"}
`

func writeNoCatalogTrace(t *testing.T) (dir, path string) {
	t.Helper()
	dir = t.TempDir()
	path = filepath.Join(dir, "conv.jsonl")
	if err := os.WriteFile(path, []byte(noCatalogTrace), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, path
}

// TestJobsRefuseTracesWithoutCatalog pins that run and sweep over --traces that name no catalog, with none beside them and
// no --catalogs, stop with exit 2 and the message recommend shares
// (runner.NoCatalogError), writing nothing (plan --growth:
// TestRunOverSampleCatalogOnPurpose): they replayed the sessions
// over the embedded default scenario's catalog, written for its sample
// sessions, and reported costs of servers the user never had.
func TestJobsRefuseTracesWithoutCatalog(t *testing.T) {
	dir, trace := writeNoCatalogTrace(t)
	want := runner.NoCatalogError{Sample: []string{"embedded:catalog"}}.Error()
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"run", []string{"run", "-q", "--traces", trace, "--strategies", "eager"}},
		{"sweep", []string{"sweep", "-q", "--traces", trace, "--param", "params.cold_call_prob=0:0.2:0.1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_"))
			got, code := runCLI(t, append(tc.args, "-o", out)...)
			if code != 2 || !strings.Contains(got, want) {
				t.Errorf("exit %d, want 2 and %q:\n%s", code, want, got)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("%s: wrote %s (stat: %v)", tc.name, out, err)
			}
		})
	}
	// recommend and calibrate read --catalogs as run does
	// (runner.CatalogSources), so they offer the same way out
	// (TestJobsOverSampleCatalogOnPurpose); they said only "pass
	// --catalogs DIR".
	for _, job := range []string{"recommend", "calibrate"} {
		t.Run(job, func(t *testing.T) {
			got, code := runCLI(t, job, trace)
			if code != 2 || !strings.Contains(got, want) {
				t.Errorf("exit %d, want 2 and %q:\n%s", code, want, got)
			}
		})
	}
}

// TestJobsOverSampleCatalogOnPurpose pins that recommend and calibrate
// accept --catalogs embedded:catalog, the way out their refusal names, as
// run does: they stopped on "catalog embedded:catalog: stat
// embedded:catalog: no such file or directory". The sample sessions,
// copied where no catalog is beside them, resolve against it: recommend
// writes its snippet; calibrate reads the catalog and stops on what the
// sessions do not record (no usage, no durations), not on the catalog.
func TestJobsOverSampleCatalogOnPurpose(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "sample.jsonl.gz")
	b, err := fs.ReadFile(embeddedData(), "trace.jsonl.gz")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(trace, b, 0o644); err != nil {
		t.Fatal(err)
	}
	snippet := filepath.Join(dir, "proposal.yaml")
	if got, code := runCLI(t, "recommend", "-q", trace, "--catalogs", "embedded:catalog", "--bootstrap", "50", "-o", snippet); code != 0 {
		t.Fatalf("recommend: exit %d:\n%s", code, got)
	}
	if b, err := os.ReadFile(snippet); err != nil || !strings.Contains(string(b), "name: recommended") {
		t.Errorf("recommend wrote no snippet (%v):\n%s", err, b)
	}
	got, code := runCLI(t, "calibrate", "-q", trace, "--catalogs", "embedded:catalog", "-o", filepath.Join(dir, "calibrated.yaml"))
	if code == 0 || strings.Contains(got, "embedded:catalog") || !strings.Contains(got, "nothing calibrated") || !strings.Contains(got, "records token usage") {
		t.Errorf("calibrate: exit %d, want it past the catalog, stopping on what the sessions do not record:\n%s", code, got)
	}
}

// TestRunOverSampleCatalogOnPurpose pins the way out the refusal names:
// --catalogs embedded:catalog replays the user's traces over the embedded
// sample catalog, and the run says the catalogs came from --catalogs;
// plan --growth over that run's results refuses the traces without
// --catalogs as run does, and grows them with it.
func TestRunOverSampleCatalogOnPurpose(t *testing.T) {
	dir, trace := writeNoCatalogTrace(t)
	out := filepath.Join(dir, "out")
	if got, code := runCLI(t, "run", "-q", "--traces", trace, "--catalogs", "embedded:catalog", "--strategies", "eager", "--no-report", "-o", out); code != 0 {
		t.Fatalf("exit %d:\n%s", code, got)
	}
	results := filepath.Join(out, "results.json")
	assertCatalogsFrom(t, results, runner.CatalogsFromFlag)
	want := runner.NoCatalogError{Sample: []string{"embedded:catalog"}}.Error()
	for _, tc := range []struct {
		name string
		args []string
		code int
	}{
		{"no --catalogs", nil, 2},
		{"--catalogs embedded:catalog", []string{"--catalogs", "embedded:catalog"}, 0},
	} {
		t.Run("plan --growth "+tc.name, func(t *testing.T) {
			plan := filepath.Join(t.TempDir(), "plan")
			args := append([]string{"plan", "-q", results, "--sessions-per-day", "100", "--growth", "1,2", "--bootstrap", "-1",
				"--traces", trace, "-o", plan}, tc.args...)
			got, code := runCLI(t, args...)
			if code != tc.code || tc.code == 2 && !strings.Contains(got, want) {
				t.Errorf("exit %d, want %d (and %q when 2):\n%s", code, tc.code, want, got)
			}
			if _, err := os.Stat(plan); (err == nil) != (tc.code == 0) {
				t.Errorf("plan directory: %v", err)
			}
		})
	}
}

// TestScenarioOwnCatalogsKeepFallback pins that a scenario file naming
// catalogs of its own on disk still replays --traces without a catalog
// over them: the user chose those catalogs.
func TestScenarioOwnCatalogsKeepFallback(t *testing.T) {
	dir, trace := writeNoCatalogTrace(t)
	gen := filepath.Join(dir, "gen")
	if got, code := runCLI(t, "trace", "gen", "-q", "--sessions", "3", "--servers", "4", "-o", gen); code != 0 {
		t.Fatalf("trace gen: exit %d:\n%s", code, got)
	}
	scen := filepath.Join(dir, "scen.yaml")
	if err := os.WriteFile(scen, []byte("name: own\ncatalogs: ["+filepath.Join(gen, "catalog")+"]\nstrategies: [eager]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if got, code := runCLI(t, "run", scen, "-q", "--traces", trace, "--no-report", "-o", out); code != 0 {
		t.Fatalf("exit %d:\n%s", code, got)
	}
	assertCatalogsFrom(t, filepath.Join(out, "results.json"), runner.CatalogsFromScenario)
}

func assertCatalogsFrom(t *testing.T, results, want string) {
	t.Helper()
	b, err := os.ReadFile(results)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Run struct {
			Assumptions []struct{ Name, Value string } `json:"assumptions"`
		} `json:"run"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	for _, a := range doc.Run.Assumptions {
		if a.Name == "catalogs" {
			if !strings.HasPrefix(a.Value, want+": ") {
				t.Errorf("catalogs assumption %q, want it from %q", a.Value, want)
			}
			return
		}
	}
	t.Errorf("%s: no catalogs assumption", results)
}

// TestTraceCommandsSayRunWouldStopWithoutCatalog pins that trace validate
// and trace stats, over a trace naming no catalog, say that `run --traces`
// would stop and why (runner.NoCatalogError), with catalogs_from "none",
// validate with exit 2 (the format alone: --no-catalogs):
// they said run loads the default scenario's embedded catalog, and
// checked the tool names against it.
func TestTraceCommandsSayRunWouldStopWithoutCatalog(t *testing.T) {
	_, trace := writeNoCatalogTrace(t)
	want := runner.NoCatalogError{Sample: []string{"embedded:catalog"}}.Error()
	got, errs, code := cliRun(t, "trace", "validate", trace)
	got += errs
	if code != 2 || !strings.Contains(got, "run would stop: "+want) || !strings.Contains(got, "tool names NOT checked") ||
		!strings.Contains(got, "1 of 1 trace file has no catalog, so its tool names were not checked") {
		t.Errorf("validate: exit %d, want 2 and run would stop: %q:\n%s", code, want, got)
	}
	if got, code := runCLI(t, "trace", "validate", "--no-catalogs", trace); code != 0 {
		t.Errorf("validate --no-catalogs: exit %d:\n%s", code, got)
	}
	got, code = runCLI(t, "trace", "validate", "--format", "json", trace)
	var rep struct {
		Files []struct {
			CatalogsFrom string `json:"catalogs_from"`
		} `json:"files"`
		Run runPrediction `json:"run"`
	}
	if err := json.Unmarshal([]byte(got[:strings.LastIndex(got, "}")+1]), &rep); err != nil || code != 2 {
		t.Fatalf("validate --format json: exit %d, %v:\n%s", code, err, got)
	}
	if len(rep.Files) != 1 || rep.Files[0].CatalogsFrom != catalogsFromNone || !rep.Run.Stops || rep.Run.Reason != want {
		t.Errorf("validate json: %+v", rep)
	}
	got, code = runCLI(t, "trace", "stats", trace)
	if code != 0 || !strings.Contains(got, "would stop: "+want) {
		t.Errorf("stats: exit %d, want 0 and would stop: %q:\n%s", code, want, got)
	}
	// With --catalogs both check against them, as run would load them.
	got, code = runCLI(t, "trace", "validate", "--catalogs", "embedded:catalog", trace)
	if code != 0 || strings.Contains(got, "would stop") {
		t.Errorf("validate --catalogs: exit %d:\n%s", code, got)
	}
}

// TestRunNamesWhatAnOldGeneratedTraceNeeds pins the stop on a trace that
// trace gen --catalogs wrote before it named the catalog in the trace
// (session_start meta generator "defersim trace gen --catalogs", no meta
// catalog): run and recommend say it was generated over real catalogs and
// that --catalogs must be the directory it was generated with, which
// nothing records; they said only "no catalog: pass --catalogs DIR".
func TestRunNamesWhatAnOldGeneratedTraceNeeds(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "trace.jsonl")
	old := strings.Replace(noCatalogTrace, `"model":"gpt-4o"`, `"model":"gpt-4o","meta":{"generator":"defersim trace gen --catalogs"}`, 1)
	if err := os.WriteFile(trace, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	want := "no catalog: " + trace + ` was generated over real catalogs (session_start meta generator "defersim trace gen --catalogs") before trace gen named its catalog in the trace (meta catalog), and nothing records which: pass --catalogs DIR, the catalog directory (or manifest) it was generated with`
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"run", []string{"run", "-q", "--traces", trace, "--strategies", "eager", "-o", filepath.Join(dir, "out")}},
		{"recommend", []string{"recommend", "-q", trace}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, code := runCLI(t, tc.args...)
			if code != 2 || !strings.Contains(got, want) {
				t.Errorf("exit %d, want 2 and %q:\n%s", code, want, got)
			}
		})
	}
}

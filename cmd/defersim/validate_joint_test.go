package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestValidateSeveralFilesAsRunLoadsThem pins that `trace validate A B`
// checks the files against the catalogs `run --traces A,B` loads for them
// together: a file with a catalog of its own makes run use the traces'
// catalogs for every file, and validate checked the other file alone,
// against the default scenario's catalogs, so that it predicted a stop
// (10 of 20 calls unresolved) where run replayed every call resolved.
func TestValidateSeveralFilesAsRunLoadsThem(t *testing.T) {
	if testing.Short() {
		t.Skip("replays sessions")
	}
	dir := t.TempDir()
	cat := filepath.Join(dir, "acat")
	if err := os.Mkdir(cat, 0o755); err != nil {
		t.Fatal(err)
	}
	list := `{"tools":[` +
		`{"name":"web_search","description":"Search the web.","inputSchema":{"type":"object","properties":{"query":{"type":"string"}}}},` +
		`{"name":"no_such_tool","description":"A tool only this catalog serves.","inputSchema":{"type":"object","properties":{"query":{"type":"string"}}}}]}`
	if err := os.WriteFile(filepath.Join(cat, "web@1.8.0.json"), []byte(list), 0o644); err != nil {
		t.Fatal(err)
	}
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	predictTrace(t, a, []int{10}, []int{10}, "", map[string]string{"catalog": cat})
	predictTrace(t, b, []int{10}, []int{10}, "", nil)
	data, err := os.ReadFile(b)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, []byte(strings.ReplaceAll(string(data), `"session":"s0"`, `"session":"b0"`)), 0o644); err != nil {
		t.Fatal(err)
	}

	out := filepath.Join(dir, "out")
	runOut, runCode := runCLI(t, "run", "--traces", a+","+b, "--strategies", "eager", "--bootstrap", "-1", "-q", "-o", out)
	if runCode != 0 {
		t.Fatalf("run: exit %d\n%s", runCode, runOut)
	}
	js, _ := runCLI(t, "trace", "validate", "--format", "json", a, b)
	var rep validateReport
	if err := json.Unmarshal([]byte(js[:strings.LastIndex(js, "}")+1]), &rep); err != nil {
		t.Fatalf("validate json: %v\n%s", err, js)
	}
	if rep.Run == nil || rep.Run.Resolution == nil {
		t.Fatalf("validate predicts nothing:\n%s", js)
	}
	if rep.Run.Stops || rep.Run.Resolution.Unresolved != 0 || rep.Run.Resolution.Calls != 20 {
		t.Errorf("validate predicts stop %v with %d of %d calls unresolved; run replayed all 20 resolved:\n%s",
			rep.Run.Stops, rep.Run.Resolution.Unresolved, rep.Run.Resolution.Calls, js)
	}
	for _, f := range rep.Files {
		if f.Catalog != cat {
			t.Errorf("%s checked against %q, want the traces' catalog %q (run loads it for both files)", f.File, f.Catalog, cat)
		}
	}
	text, code := runCLI(t, "trace", "validate", a, b)
	if code != 0 || !strings.Contains(text, "which `run --traces` loads together for all the files given") {
		t.Errorf("validate text (exit %d) does not say the catalogs are the files' together:\n%s", code, text)
	}
}

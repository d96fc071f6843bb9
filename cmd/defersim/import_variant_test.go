package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportedVariantResolves pins that a launch variant in a --tools
// catalog directory (a file <server>@<version>+<variant>.json) reaches the
// run: the import listed it as server "beta" at version "2.0+wide", which
// no catalog series holds (the series is "beta+wide" at "2.0"), so `run`
// stopped with "1 of 1 session … name … a server or version no catalog
// holds" on its own import (docs/importers.md's --connected all example,
// over the shared catalogs' supabase…@0.13.0+no-docs).
func TestImportedVariantResolves(t *testing.T) {
	dir := t.TempDir()
	cats := filepath.Join(dir, "cats")
	if err := os.Mkdir(cats, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"alpha@1.0.json":     `{"tools":[{"name":"alpha_op","inputSchema":{"type":"object"}}]}`,
		"beta@2.0+wide.json": `{"tools":[{"name":"beta_op","description":"the wide launch","inputSchema":{"type":"object"}}]}`,
		"../chat.jsonl":      `{"id":"s1","messages":[{"role":"user","content":"a"},{"role":"assistant","tool_calls":[{"id":"x","type":"function","function":{"name":"alpha_op","arguments":"{}"}}]},{"role":"tool","tool_call_id":"x","content":"ok"},{"role":"assistant","content":"done"}]}` + "\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(cats, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	trace := filepath.Join(dir, "t.jsonl")
	if msg, code := runCLI(t, "trace", "import", "--from", "openai-messages", filepath.Join(dir, "chat.jsonl"), "--tools", cats, "-o", trace); code != 0 {
		t.Fatalf("import: exit %d\n%s", code, msg)
	}
	msg, code := runCLI(t, "run", "--traces", trace, "--strategies", "eager", "--no-report", "-o", filepath.Join(dir, "run"))
	if code != 0 {
		t.Fatalf("run of the import: exit %d\n%s", code, msg)
	}
	res, err := os.ReadFile(filepath.Join(dir, "run", "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(res), `"sessions_missing_servers"`) {
		t.Errorf("results.json counts sessions naming a missing server:\n%s", res)
	}
	data, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"version":"2.0"`) || strings.Contains(string(data), `2.0+wide`) {
		t.Errorf("the session does not list the variant at its plain version:\n%s", data)
	}
}

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTraceGenNamesUnbuildableTools pins that trace gen --catalogs names on
// stderr, in the summary line and in --format json every tool it never
// calls because no arguments valid against its schema could be built (it
// called them with {}, silently, and run then counted malformed calls the
// generator had made).
func TestTraceGenNamesUnbuildableTools(t *testing.T) {
	cat := t.TempDir()
	v := `{"tools":[
 {"name":"wb","inputSchema":{"type":"object","properties":{"code":{"type":"string","pattern":"^[A-Z]{3}\\b[0-9]{4}$"}},"required":["code"]}},
 {"name":"list","inputSchema":{"type":"object","properties":{"limit":{"type":"integer"}}}}]}`
	for _, f := range []string{"odd@1.0.0.json", "odd@2.0.0.json"} {
		if err := os.WriteFile(filepath.Join(cat, f), []byte(v), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "g")
	got, code := runTraceCmdErr(t, "gen", "-o", out, "--catalogs", cat, "--sessions", "5")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, got)
	}
	for _, want := range []string{
		"warning: never called: odd@1.0.0/wb: no instance",
		"warning: never called: odd@2.0.0/wb: no instance",
		"warning: 2 tool versions are never called: no arguments valid against their schemas could be built",
		"trace gen: wrote 5 sessions", // the summary follows
		"; 2 tool versions never called (no valid arguments could be built)\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	got, code = runTraceCmdErr(t, "gen", "-o", out, "--catalogs", cat, "--sessions", "5", "--format", "json", "-q")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, got)
	}
	var sum struct {
		Unbuildable []struct{ Server, Version, Tool, Reason string } `json:"unbuildable"`
	}
	if err := json.Unmarshal([]byte(got), &sum); err != nil {
		t.Fatalf("%v:\n%s", err, got)
	}
	if len(sum.Unbuildable) != 2 || sum.Unbuildable[1].Version != "2.0.0" || sum.Unbuildable[1].Tool != "wb" || sum.Unbuildable[1].Reason == "" {
		t.Errorf("unbuildable = %+v", sum.Unbuildable)
	}
	trace, err := os.ReadFile(filepath.Join(out, "trace.jsonl.gz"))
	if err != nil || len(trace) == 0 {
		t.Fatalf("no trace: %v", err)
	}
}

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/shareddata"
)

func TestCatalogHistoryCmd(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"svc@1.0.json": `{"tools":[{"name":"a","inputSchema":{"type":"object"}},{"name":"b","inputSchema":{"type":"object"}}]}`,
		"svc@1.1.json": `{"tools":[{"name":"a","inputSchema":{"type":"object"}},{"name":"c","inputSchema":{"type":"object"}}]}`,
		"one@3.json":   `{"tools":[{"name":"x","inputSchema":{"type":"object"}}]}`,
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, code, msg := runCatalogCmd(t, "history", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, msg)
	}
	for _, want := range []string{"svc: 2 versions, 1 release, 1 breaking (100%)", "total: 1 series with history, 1 release, 1 breaking", "1 series with a single version"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	out, code, _ = runCatalogCmd(t, "history", "--format", "json", dir)
	var h catalog.History
	if code != 0 || json.Unmarshal([]byte(out), &h) != nil {
		t.Fatalf("--json: exit %d, output %s", code, out)
	}
	if len(h.Series) != 1 || h.Series[0].Releases[0].Added != 1 || h.Series[0].Releases[0].Removed != 1 {
		t.Errorf("--json history %+v", h)
	}
	if _, code, _ := runCatalogCmd(t, "history", filepath.Join(dir, "missing")); code == 0 {
		t.Error("no error for a missing directory")
	}
}

func TestCatalogHistoryCmdShared(t *testing.T) {
	dir := shareddata.Path(t, "catalogs")
	out, code, msg := runCatalogCmd(t, "history", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, msg)
	}
	if !strings.Contains(out, "total: 11 series with history, 31 releases") {
		t.Errorf("unexpected totals:\n%s", out)
	}
}

// TestCatalogCmdsNullSchema pins issue 16's abort: one tool with
// "inputSchema": null made catalog stats and catalog history fail for the
// whole directory. Both now finish, warn about that tool and count it.
func TestCatalogCmdsNullSchema(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"svc@1.0.json": `{"tools":[{"name":"a","inputSchema":{"type":"object"}},{"name":"b","inputSchema":null}]}`,
		"svc@1.1.json": `{"tools":[{"name":"a","inputSchema":{"type":"object","properties":{"x":{}}}},{"name":"b","inputSchema":null}]}`,
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"history", dir}, {"stats", "--all-versions", dir}} {
		out, code, msg := runCatalogCmd(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, msg)
		}
		for _, want := range []string{
			`warning: ` + filepath.Join(dir, "svc@1.0.json") + `: tools[1] "b": inputSchema is null; read as {"type":"object"}`,
			`warning: 2 tools read as {"type":"object"} for want of an input schema`,
		} {
			if !strings.Contains(out, want) {
				t.Errorf("%v: output lacks %q:\n%s", args, want, out)
			}
		}
	}
	out, code, _ := runCatalogCmd(t, "stats", "--format", "json", "--all-versions", dir)
	var st catalog.Stats
	if i := strings.Index(out, "{\n"); code != 0 || i < 0 || json.Unmarshal([]byte(out[i:]), &st) != nil {
		t.Fatalf("stats --json: exit %d, output %s", code, out)
	}
	if len(st.Warnings) != 2 || st.Total.Tools != 4 {
		t.Errorf("stats --json: %d warnings, %d tools", len(st.Warnings), st.Total.Tools)
	}
}

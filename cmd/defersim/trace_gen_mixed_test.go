package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTraceGenRefusesTheOtherKindsFiles pins that trace gen into a
// directory holding an earlier generation of the other kind stops (exit 1)
// unless --force removes the files it does not write: over a catalog, the
// earlier catalog/ files (run --traces DIR/trace.jsonl.gz loaded them as
// the new trace's catalog and stopped on 100% unresolved calls); a
// generated catalog, the earlier upgrades.yaml (left beside a trace it does
// not describe). A forced generation over a catalog also removes the
// catalog/ directory its files leave empty (it stayed, empty, beside the
// trace).
func TestTraceGenRefusesTheOtherKindsFiles(t *testing.T) {
	cat := writeOverCatalog(t)
	dir := filepath.Join(t.TempDir(), "g")
	gen := []string{"gen", "-o", dir, "--sessions", "5", "--servers", "4", "--drift", "off"}
	over := []string{"gen", "-o", dir, "--sessions", "5", "--catalogs", cat}
	for _, step := range []struct {
		name     string
		args     []string
		wantCode int
		want     string
		catalog  bool // DIR/catalog holds .json files after the step; else it is gone
		upgrades bool // DIR/upgrades.yaml exists after the step
	}{
		{"generated", gen, 0, "wrote", true, false},
		{"over a generation", over, 1, "catalog files this generation does not write", true, false},
		{"over a generation, forced", append(over, "--force"), 0, "wrote", false, true},
		{"generated over an over-generation", gen, 1, "holds upgrades.yaml, which this generation does not write", false, true},
		{"generated, forced", append(gen, "--force"), 0, "wrote", true, false},
	} {
		got, code := runTraceCmdErr(t, step.args...)
		if code != step.wantCode || !strings.Contains(got, step.want) {
			t.Fatalf("%s: exit %d (want %d), output lacks %q?\n%s", step.name, code, step.wantCode, step.want, got)
		}
		files, _ := filepath.Glob(filepath.Join(dir, "catalog", "*.json"))
		_, err := os.Stat(filepath.Join(dir, "upgrades.yaml"))
		if (len(files) > 0) != step.catalog || (err == nil) != step.upgrades {
			t.Errorf("%s: %d catalog files, upgrades.yaml stat %v; want catalog %v, upgrades %v", step.name, len(files), err, step.catalog, step.upgrades)
		}
		if _, err := os.Stat(filepath.Join(dir, "catalog")); !step.catalog && err == nil {
			t.Errorf("%s: DIR/catalog is left behind, holding no catalog file", step.name)
		}
	}
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBootstrapMemoryRefusedBeforeReplay pins issue B1 end to end: a
// --bootstrap whose intervals need more memory than --bootstrap-memory
// is refused before any session is replayed (exit 2, nothing written),
// in every command that bootstraps, and a limit raised above the need runs.
func TestBootstrapMemoryRefusedBeforeReplay(t *testing.T) {
	if testing.Short() {
		t.Skip("replays generated sessions")
	}
	trace, cat := genData(t, "5")
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"run", []string{"run", "-q", "--traces", trace, "--catalogs", cat, "-o", filepath.Join(dir, "run"), "--bootstrap", "100000000"}},
		{"run limit", []string{"run", "-q", "--traces", trace, "--catalogs", cat, "-o", filepath.Join(dir, "lim"), "--bootstrap", "2000", "--bootstrap-memory", "1MiB"}},
	} {
		msg, code := runCLI(t, tc.args...)
		if code != 2 || !strings.Contains(msg, "raise --bootstrap-memory") {
			t.Errorf("%s: exit %d, want 2 with the refusal\n%s", tc.name, code, msg)
		}
		if strings.Contains(msg, "replayed") {
			t.Errorf("%s: replayed before refusing\n%s", tc.name, msg)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "run")); err == nil {
		t.Error("a refused run created its output directory")
	}
	out := filepath.Join(dir, "ok")
	if msg, code := runCLI(t, "run", "-q", "--traces", trace, "--catalogs", cat, "-o", out, "--bootstrap", "2000", "--bootstrap-memory", "256MiB", "--no-report"); code != 0 {
		t.Fatalf("a bootstrap within the raised limit: exit %d\n%s", code, msg)
	}
}

package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFailedCommandsLeaveNoOutputDirectory pins that a run or an import
// that fails on its input leaves no output directory it created (both
// used to leave it, empty), and that an output directory that existed
// before stays.
func TestFailedCommandsLeaveNoOutputDirectory(t *testing.T) {
	root := t.TempDir()
	bad := filepath.Join(root, "bad.json")
	if err := os.WriteFile(bad, []byte("[]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	existing := filepath.Join(root, "existing")
	if err := os.Mkdir(existing, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		gone string // must not exist afterwards
	}{
		{"run", []string{"run", "--traces", bad, "-q", "-o", filepath.Join(root, "r", "out")}, filepath.Join(root, "r")},
		{"run into an existing directory", []string{"run", "--traces", bad, "-q", "-o", filepath.Join(existing, "out")},
			filepath.Join(existing, "out")},
		{"trace import", []string{"trace", "import", "--from", "tau-bench", bad, "-o", filepath.Join(root, "i", "sub", "t.jsonl")},
			filepath.Join(root, "i")},
		{"sweep", []string{"sweep", "--traces", bad, "--param", "params.user_think_ms", "--values", "1,2", "-q",
			"-o", filepath.Join(root, "s", "out")}, filepath.Join(root, "s")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := cliRun(t, tc.args...)
			if code != 2 {
				t.Fatalf("exit %d, want 2 on a bad input; stderr:\n%s", code, stderr)
			}
			if _, err := os.Stat(tc.gone); !os.IsNotExist(err) {
				t.Errorf("%s left behind after a failed %s (stat: %v)", tc.gone, tc.name, err)
			}
			if _, err := os.Stat(existing); err != nil {
				t.Errorf("the existing directory was removed: %v", err)
			}
		})
	}
}

// TestCalibrateWritesIntoANewDirectory pins that calibrate -o names a file
// in a directory that does not exist yet: it creates it (it stopped after
// its whole fit with "write held-out sessions: … no such file or
// directory", exit 2, and nothing written).
func TestCalibrateWritesIntoANewDirectory(t *testing.T) {
	if testing.Short() {
		t.Skip("calibrates generated sessions")
	}
	trace, cat := genData(t, "20")
	out := filepath.Join(t.TempDir(), "new", "sub", "cal.yaml")
	stdout, stderr, code := cliRun(t, "calibrate", trace, "--catalogs", cat, "-o", out)
	if code != 0 {
		t.Fatalf("calibrate: exit %d\n%s%s", code, stdout, stderr)
	}
	for _, f := range []string{out, filepath.Join(filepath.Dir(out), "cal.held-out.jsonl.gz")} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("calibrate did not write %s: %v", f, err)
		}
	}
}

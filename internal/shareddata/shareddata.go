// Package shareddata locates the real-data folder (../shared/data relative to
// the project root) for tests and benchmarks, which skip when it is absent —
// except in CI (CI=true), where a missing folder fails them: a clone
// without the data would otherwise pass with dozens of tests skipped.
package shareddata

import (
	"os"
	"path/filepath"
)

// TB is the part of testing.TB the helpers use. Declared here so that
// programs importing Find (the CLI) do not link package testing.
type TB interface {
	Helper()
	Skip(args ...any)
	Skipf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// inCI reports whether the tests run in CI (CI=true), where missing real
// data is an error.
func inCI() bool { return os.Getenv("CI") == "true" }

// startDir is the working directory the process started in (a test
// binary starts in its package's directory), read once when the package
// is initialised and never changed.
var startDir, _ = os.Getwd()

// Find returns the path of the real data, or "" when there is none:
// DEFERSIM_SHARED_DATA when set, else shared/data beside an ancestor of
// the working directory, else beside an ancestor of the directory the
// process started in. The last makes a test that changed its working
// directory (t.Chdir(t.TempDir())) find the data as one that did not: such
// tests failed in CI, finding it only through a shared/ directory some
// machines happened to have beside their temp directory.
func Find() string {
	if d := os.Getenv("DEFERSIM_SHARED_DATA"); d != "" {
		return d
	}
	if dir, err := os.Getwd(); err == nil {
		if d := findAbove(dir); d != "" {
			return d
		}
	}
	if startDir != "" {
		return findAbove(startDir)
	}
	return ""
}

// findAbove walks up from dir looking for shared/data beside dir or an
// ancestor, and returns its path ("" when there is none).
func findAbove(dir string) string {
	for {
		cand := filepath.Join(dir, "..", "shared", "data")
		if st, err := os.Stat(cand); err == nil && st.IsDir() {
			return filepath.Clean(cand)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Dir returns the real-data folder, or skips tb with a clear message.
func Dir(tb TB) string {
	tb.Helper()
	d := Find()
	if d == "" {
		const msg = "real data not found: ../shared/data is absent (set DEFERSIM_SHARED_DATA to its path to run this test)"
		if inCI() {
			tb.Fatalf("%s; CI=true requires it", msg)
		}
		tb.Skip(msg)
	}
	return d
}

// Path joins elems under the real-data folder, skipping tb when the folder or
// the path is absent.
func Path(tb TB, elems ...string) string {
	tb.Helper()
	p := filepath.Join(append([]string{Dir(tb)}, elems...)...)
	if _, err := os.Stat(p); err != nil {
		if inCI() {
			tb.Fatalf("real data file %s not present: %v; CI=true requires it", p, err)
		}
		tb.Skipf("real data file %s not present: %v", p, err)
	}
	return p
}

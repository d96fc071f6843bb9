package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMkdirUndoRemovesOnlyWhatItCreated pins Mkdir's undo: it removes the
// directories Mkdir created, deepest first, while they are empty, and
// never a directory that existed before or that holds a file by then.
func TestMkdirUndoRemovesOnlyWhatItCreated(t *testing.T) {
	for _, tc := range []struct {
		name string
		// make is created before Mkdir; dir is what Mkdir creates; file,
		// when set, is written (relative to the root) before undo.
		make, dir, file string
		// left are the paths that must exist after undo, gone those that
		// must not.
		left, gone []string
	}{
		{name: "three new levels", dir: "a/b/c", gone: []string{"a"}},
		{name: "existing parent kept", make: "a", dir: "a/b/c", left: []string{"a"}, gone: []string{"a/b"}},
		{name: "already there", make: "a/b", dir: "a/b", left: []string{"a/b"}},
		{name: "a file written inside keeps its directory and parents", dir: "a/b/c", file: "a/b/c/checkpoint",
			left: []string{"a/b/c/checkpoint"}},
		{name: "a file beside keeps the parent", dir: "a/b/c", file: "a/b/other", left: []string{"a/b/other"},
			gone: []string{"a/b/c"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			if tc.make != "" {
				if err := os.MkdirAll(filepath.Join(root, tc.make), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			undo, err := Mkdir(filepath.Join(root, tc.dir))
			if err != nil {
				t.Fatal(err)
			}
			if fi, err := os.Stat(filepath.Join(root, tc.dir)); err != nil || !fi.IsDir() {
				t.Fatalf("Mkdir did not create %s: %v", tc.dir, err)
			}
			if tc.file != "" {
				if err := os.WriteFile(filepath.Join(root, tc.file), []byte("x"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			undo()
			for _, p := range tc.left {
				if _, err := os.Stat(filepath.Join(root, p)); err != nil {
					t.Errorf("%s removed: %v", p, err)
				}
			}
			for _, p := range tc.gone {
				if _, err := os.Stat(filepath.Join(root, p)); !os.IsNotExist(err) {
					t.Errorf("%s left behind (stat: %v)", p, err)
				}
			}
			if _, err := os.Stat(root); err != nil {
				t.Errorf("undo removed the root it did not create: %v", err)
			}
		})
	}
}

// TestSetFileIntoANewDirectory pins that a Set writes a file into a
// directory that does not exist yet, creating it (calibrate -o
// new/cal.yaml stopped after its whole fit with "no such file or
// directory"), and that Abort removes the directories it created when
// nothing was committed.
func TestSetFileIntoANewDirectory(t *testing.T) {
	root := t.TempDir()
	final := filepath.Join(root, "a", "b", "out.txt")
	s := NewSet()
	if err := os.WriteFile(s.File(final), []byte("x"), 0o644); err != nil {
		t.Fatalf("writing the staged file: %v", err)
	}
	if err := s.Commit(nil); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(final); err != nil || string(b) != "x" {
		t.Fatalf("committed file: %q, %v", b, err)
	}

	aborted := filepath.Join(root, "c", "d", "out.txt")
	s = NewSet()
	_ = s.File(aborted)
	s.Abort()
	if _, err := os.Stat(filepath.Join(root, "c")); !os.IsNotExist(err) {
		t.Errorf("an aborted set left the directory it created (stat: %v)", err)
	}
}

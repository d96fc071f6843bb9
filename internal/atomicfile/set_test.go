package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

func tree(t *testing.T, dir string) string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		data, _ := os.ReadFile(p)
		out = append(out, rel+"="+string(data))
		return nil
	})
	sort.Strings(out)
	return strings.Join(out, " ")
}

// TestSetIsWholeOrNothing pins issue 18.2/18.8 ("a full disk leaves a new
// results.json beside the previous run's report.html"): the files of a set
// reach their names only when every one was written; a failure (or a
// refused target) before Commit leaves the previous files exactly as they
// were and no staging file; Commit removes the previous set's members this
// set does not write.
func TestSetIsWholeOrNothing(t *testing.T) {
	boom := errors.New("no space left on device")
	for _, tc := range []struct {
		name  string
		fail  error // returned while writing the second file
		check func(string) error
		want  string
	}{
		{"complete", nil, nil, "extra.csv=new-extra plots/a.png=new-a results.json=new-results user.txt=mine"},
		{"fails half-way", boom, nil, "plots/a.png=old-a plots/b.png=old-b report.html=old-report results.json=old-results user.txt=mine"},
		{"refused target", nil, func(p string) error {
			if filepath.Base(p) == "extra.csv" {
				return boom
			}
			return nil
		}, "plots/a.png=old-a plots/b.png=old-b report.html=old-report results.json=old-results user.txt=mine"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "out")
			for name, data := range map[string]string{"results.json": "old-results", "report.html": "old-report",
				"plots/a.png": "old-a", "plots/b.png": "old-b", "user.txt": "mine"} {
				os.MkdirAll(filepath.Dir(filepath.Join(out, name)), 0o755)
				if err := os.WriteFile(filepath.Join(out, name), []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			s := NewSet()
			stage, err := s.Dir(out)
			if err != nil {
				t.Fatal(err)
			}
			s.Replace(filepath.Join(out, "report.html"), filepath.Join(out, "plots", "*.png"))
			err = func() error {
				if err := WriteFile(filepath.Join(stage, "results.json"), []byte("new-results"), 0o644); err != nil {
					return err
				}
				if tc.fail != nil {
					return Write(filepath.Join(stage, "plots", "a.png"), 0o644, func(f *os.File) error { f.WriteString("half"); return tc.fail })
				}
				os.MkdirAll(filepath.Join(stage, "plots"), 0o755)
				if err := WriteFile(filepath.Join(stage, "plots", "a.png"), []byte("new-a"), 0o644); err != nil {
					return err
				}
				extra := s.File(filepath.Join(dir, "out", "extra.csv"))
				if got := s.Final(extra); got != filepath.Join(dir, "out", "extra.csv") {
					t.Errorf("Final(%s) = %s", extra, got)
				}
				if got := s.Final(filepath.Join(stage, "plots", "a.png")); got != filepath.Join(out, "plots", "a.png") {
					t.Errorf("Final = %s", got)
				}
				return WriteFile(extra, []byte("new-extra"), 0o644)
			}()
			if err == nil {
				err = s.Commit(tc.check)
			} else {
				s.Abort()
			}
			if (err != nil) != (tc.fail != nil || tc.check != nil) {
				t.Fatalf("error %v", err)
			}
			if got := tree(t, out); got != tc.want {
				t.Errorf("after: %s\nwant:  %s", got, tc.want)
			}
		})
	}
}

// TestRemoveClearsKilledWrites pins issue 18.8: SIGKILL during a checkpoint
// write left .checkpoint.tmp-* for good; Remove (called when a run
// completes) and the next successful Write of the same path remove it.
func TestRemoveClearsKilledWrites(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "checkpoint")
	left := filepath.Join(dir, ".checkpoint.tmp-123456")
	other := filepath.Join(dir, ".other.tmp-1")
	for _, p := range []string{left, other} {
		if err := os.WriteFile(p, []byte("half"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := WriteFile(path, []byte("state"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(left); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a write of %s kept %s", path, left)
	}
	os.WriteFile(left, []byte("half"), 0o644)
	if err := Remove(path); err != nil {
		t.Fatal(err)
	}
	if got := tree(t, dir); got != ".other.tmp-1=half" {
		t.Errorf("after Remove: %s", got)
	}
}

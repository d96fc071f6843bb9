package atomicfile

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A Set writes the output files of one command as a whole. Each file is
// first written in full under a staging name: a directory's files in a
// hidden directory inside it (StagePrefix), a single file beside its
// target. Commit then renames every staged file over its target and
// removes the members of a previous output set that this one does not
// write (Replace). A failure before Commit — an error, a full disk, a
// signal — leaves the previous files exactly as they were; renames need no
// space, so Commit itself fails only on a crash between two renames (a
// window of microseconds), which can leave some files new and some old.
//
// Directories are not swapped whole: an output directory may hold files
// that are not the command's (its inputs, other runs), which a swap would
// lose.
type Set struct {
	dirs    []stagedDir
	files   []staged
	replace []string // globs of final paths
	done    bool
	// undo removes the directories Dir created, if still empty (Abort).
	undo []func()
}

// StagePrefix starts the name of a Set's staging directory.
const StagePrefix = ".defersim-new-"

type stagedDir struct{ final, stage string }

type staged struct{ final, stage string }

// NewSet returns an empty set.
func NewSet() *Set { return &Set{} }

// Dir creates dir (if needed) and returns the directory in which the
// command writes what is meant for dir. Staging directories that a killed
// command left in dir are removed first.
func (s *Set) Dir(dir string) (string, error) {
	undo, err := Mkdir(dir)
	if err != nil {
		return "", fmt.Errorf("create output directory: %w", err)
	}
	s.undo = append(s.undo, undo)
	removeStale(dir, StagePrefix+"*")
	stage, err := os.MkdirTemp(dir, StagePrefix+"*")
	if err != nil {
		return "", fmt.Errorf("create output directory: %w", err)
	}
	s.dirs = append(s.dirs, stagedDir{final: dir, stage: stage})
	return stage, nil
}

// File returns the path under which the command writes what is meant for
// path (a hidden name beside it).
func (s *Set) File(path string) string {
	// The directory is created here, so that a command can write into a
	// directory that does not exist yet (calibrate -o new/cal.yaml failed
	// after its whole fit); Abort removes it again if it is left empty. An
	// error shows when the staged file is created.
	if undo, err := Mkdir(filepath.Dir(path)); err == nil {
		s.undo = append(s.undo, undo)
	}
	removeStale(filepath.Dir(path), globEscape("."+filepath.Base(path)+".new-")+"*")
	stage := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".new-"+rand.Text()[:12])
	s.files = append(s.files, staged{final: path, stage: stage})
	return stage
}

// Replace names files of a previous output set (globs, as filepath.Glob)
// that Commit removes unless this set writes them, so that the directory
// never holds a new file beside an old one of the same set.
func (s *Set) Replace(globs ...string) { s.replace = append(s.replace, globs...) }

// Final maps a staged path (under a Dir or from File) to the path it has
// after Commit; other paths are returned as they are.
func (s *Set) Final(p string) string {
	for _, d := range s.dirs {
		if rel, err := filepath.Rel(d.stage, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return filepath.Join(d.final, rel)
		}
	}
	for _, f := range s.files {
		if f.stage == p {
			return f.final
		}
	}
	return p
}

// Commit calls check (when not nil) on the final path of every file of the
// set, and only when every call succeeds renames the files into place. On
// an error before the renames, nothing is changed and the staged files are
// removed.
func (s *Set) Commit(check func(final string) error) (err error) {
	if s.done {
		return errors.New("output set committed twice")
	}
	defer func() {
		if err != nil {
			s.Abort()
		}
	}()
	var moves []staged
	for _, d := range s.dirs {
		err := filepath.WalkDir(d.stage, func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return err
			}
			rel, err := filepath.Rel(d.stage, p)
			if err != nil {
				return err
			}
			if strings.Contains(filepath.Base(p), ".tmp-") && strings.HasPrefix(filepath.Base(p), ".") {
				return nil // an atomic write that did not finish
			}
			moves = append(moves, staged{final: filepath.Join(d.final, rel), stage: p})
			return nil
		})
		if err != nil {
			return fmt.Errorf("output set: %w", err)
		}
	}
	for _, f := range s.files {
		if _, err := os.Lstat(f.stage); err == nil {
			moves = append(moves, f)
		}
	}
	if check != nil {
		for _, m := range moves {
			if err := check(m.final); err != nil {
				return err
			}
		}
	}
	written := map[string]bool{}
	for _, m := range moves {
		if written[filepath.Clean(m.final)] {
			return fmt.Errorf("two outputs are the same file %s", m.final)
		}
		written[filepath.Clean(m.final)] = true
	}
	for _, m := range moves {
		if err := os.MkdirAll(filepath.Dir(m.final), 0o755); err != nil {
			return fmt.Errorf("output set: %w", err)
		}
	}
	s.done = true
	var first error
	for _, m := range moves {
		if err := os.Rename(m.stage, m.final); err != nil && first == nil {
			first = fmt.Errorf("output set: move %s into place: %w", m.final, err)
		}
	}
	for _, g := range s.replace {
		old, _ := filepath.Glob(g)
		for _, o := range old {
			if !written[filepath.Clean(o)] {
				if err := os.Remove(o); err != nil && !errors.Is(err, fs.ErrNotExist) && first == nil {
					first = fmt.Errorf("output set: remove %s of the previous output: %w", o, err)
				}
			}
		}
	}
	for _, d := range s.dirs {
		os.RemoveAll(d.stage)
	}
	return first
}

// Abort removes every staged file, and the directories Dir created that
// are left empty. It does nothing after Commit.
func (s *Set) Abort() {
	if s.done {
		return
	}
	s.done = true
	for _, d := range s.dirs {
		os.RemoveAll(d.stage)
	}
	for _, f := range s.files {
		os.Remove(f.stage)
	}
	for i := len(s.undo) - 1; i >= 0; i-- {
		s.undo[i]()
	}
}

// Remove removes path and the temporary files that writes of path killed
// before their rename left beside it.
func Remove(path string) error {
	removeStale(filepath.Dir(path), globEscape("."+filepath.Base(path)+".tmp-")+"*")
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// globEscape quotes the characters filepath.Glob treats as patterns.
func globEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// removeStale removes what matches glob in dir (best effort).
func removeStale(dir, glob string) {
	old, _ := filepath.Glob(filepath.Join(dir, glob))
	for _, o := range slices.Sorted(slices.Values(old)) {
		os.RemoveAll(o)
	}
}

package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// Mkdir creates dir and any missing parents, as os.MkdirAll does, and
// returns undo, which removes the directories it created, deepest first,
// as long as they are empty. A command that fails before writing calls
// undo, so that a failed command leaves no empty output directory behind;
// a directory that holds anything by then (a checkpoint, a user's file)
// stays, with its parents.
func Mkdir(dir string) (undo func(), err error) {
	var created []string
	for d := filepath.Clean(dir); ; {
		if _, err := os.Lstat(d); err == nil || !errors.Is(err, fs.ErrNotExist) {
			break
		}
		created = append(created, d)
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return func() {}, err
	}
	return func() {
		for _, d := range created { // deepest first
			if os.Remove(d) != nil {
				return
			}
		}
	}, nil
}

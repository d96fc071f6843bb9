// Package outguard keeps a command from writing onto its own inputs.
//
// Paths are compared by file identity (device and inode, os.SameFile), not
// by spelling, so `./t.jsonl`, an absolute path, a symbolic link and a
// hard link to the same file are all the same input. A directory given as
// an input (a catalog directory) is read whole: no output may be written
// directly into it, where it would become an input of the next run.
package outguard

import (
	"fmt"
	"os"
	"path/filepath"
)

// ClashError is an output that would overwrite an input.
type ClashError struct {
	Output, Input string
	// InDir says the output lies inside the input directory Input.
	InDir bool
}

func (e *ClashError) Error() string {
	if e.InDir {
		return fmt.Sprintf("refusing to write %s: it is inside the input directory %s (choose another output path)", e.Output, e.Input)
	}
	if filepath.Clean(e.Output) == filepath.Clean(e.Input) {
		return fmt.Sprintf("refusing to write %s: it is one of the inputs (choose another output path)", e.Output)
	}
	return fmt.Sprintf("refusing to write %s: it is the input %s (choose another output path)", e.Output, e.Input)
}

// Guard holds the identities of a command's inputs.
type Guard struct {
	inputs []input
}

type input struct {
	path string
	info os.FileInfo
}

// New records the inputs. Paths that do not exist (yet), "" and "-" are
// ignored: what does not exist cannot be overwritten.
func New(inputs ...string) *Guard {
	g := &Guard{}
	for _, p := range inputs {
		if p == "" || p == "-" {
			continue
		}
		if st, err := os.Stat(p); err == nil {
			g.inputs = append(g.inputs, input{path: p, info: st})
		}
	}
	return g
}

// Check refuses an output path that is one of the inputs (an existing
// file, followed through links) or lies directly in an input directory. ""
// and "-" (standard output) are never refused.
func (g *Guard) Check(outputs ...string) error {
	for _, out := range outputs {
		if out == "" || out == "-" {
			continue
		}
		if st, err := os.Stat(out); err == nil {
			for _, in := range g.inputs {
				if os.SameFile(st, in.info) {
					return &ClashError{Output: out, Input: in.path}
				}
			}
		}
		if st, err := os.Stat(filepath.Dir(out)); err == nil {
			for _, in := range g.inputs {
				if in.info.IsDir() && os.SameFile(st, in.info) {
					return &ClashError{Output: out, Input: in.path, InDir: true}
				}
			}
		}
	}
	return nil
}

// CheckOne is Check of one output (a function for atomicfile.Set.Commit).
func (g *Guard) CheckOne(output string) error { return g.Check(output) }

// Check is New(inputs...).Check(outputs...): the one line a command
// calls before it writes anything.
func Check(inputs []string, outputs ...string) error {
	return New(inputs...).Check(outputs...)
}

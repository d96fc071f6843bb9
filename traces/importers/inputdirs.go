package importers

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/defersim/defersim/internal/nouns"
)

// expandInputs replaces each directory among inputs by the files it holds
// for format, when the format reads directories (format.dirs): the files
// ending in its suffix, at any depth, in lexical path order (SWE-agent
// keeps one run directory of .traj files per run, so a directory of runs
// needs the depth). A directory that holds none is an error, as is a
// directory given to a format that reads files only: the error says what
// to pass. Files are kept as they are, in the order given.
func expandInputs(name string, inputs []string) ([]string, error) {
	var f format
	for _, c := range formats() {
		if c.name == name {
			f = c
		}
	}
	var out []string
	for _, in := range inputs {
		st, err := os.Stat(in)
		if err != nil || !st.IsDir() {
			out = append(out, in) // the importer reports an unreadable input
			continue
		}
		if !f.dirs {
			return nil, refuseDir(in, name, f.ext)
		}
		n := len(out)
		err = filepath.WalkDir(in, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(d.Name(), f.ext) {
				out = append(out, path)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("%s: read directory: %w", in, err)
		}
		if len(out) == n {
			return nil, fmt.Errorf("%s: directory holds no %s file, at any depth (--from %s reads those)", in, f.ext, name)
		}
	}
	return out, nil
}

// refuseDir is the error for directory dir given to format name, which
// reads files only: it names the shell pattern of the files nearest dir's
// top that end in the format's suffix (dir/*.json, or dir/*/*.json when
// they are one level down, as in a ToolBench answer directory of
// G1_answer, G2_answer, …) with their count, so that pasted advice
// matches files. Which of them are the format's is the user's call: a
// directory may hold other files with the same suffix.
func refuseDir(dir, name, ext string) error {
	depth, n, err := shallowestFiles(dir, ext)
	switch {
	case err != nil:
		return fmt.Errorf("%s: read directory: %w", dir, err)
	case n == 0:
		return fmt.Errorf("%s: is a directory, and holds no %s file at any depth; --from %s reads %s files, one or more per input",
			dir, ext, name, ext)
	}
	pattern := shellArg(filepath.Clean(dir)) + strings.Repeat(string(filepath.Separator)+"*", depth) + ext
	return fmt.Errorf("%s: is a directory; --from %s reads files, one or more per input: pass them (the %s files nearest its top: %s, %s)",
		dir, name, ext, pattern, nouns.Count(n, "file"))
}

// shallowestFiles returns the least depth below dir (1: dir's own files)
// at which files ending in ext are, and how many are at that depth.
func shallowestFiles(dir, ext string) (depth, n int, err error) {
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(d.Name(), ext) {
			return nil
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		switch k := strings.Count(rel, string(filepath.Separator)) + 1; {
		case n == 0 || k < depth:
			depth, n = k, 1
		case k == depth:
			n++
		}
		return nil
	})
	return depth, n, err
}

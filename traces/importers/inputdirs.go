package importers

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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
			return nil, fmt.Errorf("%s: is a directory; --from %s reads files, one or more per input: pass them (%s)",
				in, name, shellArg(in)+string(filepath.Separator)+"*"+f.ext)
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

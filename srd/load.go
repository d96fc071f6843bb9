package srd

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// IsSRDFile reports whether a file name has an SRD extension (.yaml, .yml
// or .json).
func IsSRDFile(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml", ".json":
		return !strings.HasPrefix(filepath.Base(name), ".")
	}
	return false
}

// LoadFile reads and parses one SRD file. A read failure is an error;
// what is wrong inside the file comes back as problems.
func LoadFile(file string) ([]*SRD, Problems, error) {
	data, size, err := readLimited(file)
	if err != nil {
		return nil, nil, err
	}
	srds, probs := LoadData(file, data, size)
	return srds, probs, nil
}

// LoadData parses the SRD file named file whose first bytes are data, as
// LoadFile does once it has read them: data holds at most MaxFileSize+1
// bytes (more means the file is over the limit, a problem), and size is
// the file's own size, or -1 when it is not known. It is for a caller that
// reads the file through another filesystem (a Beam pipeline's URLs).
func LoadData(file string, data []byte, size int64) ([]*SRD, Problems) {
	if len(data) > MaxFileSize {
		// data stops one byte past the limit: the size is the file's own.
		return nil, Problems{tooLarge(file, size)}
	}
	return Parse(file, data)
}

// LoadPaths reads SRD files; a directory stands for its SRD files (not its
// subdirectories), in name order. A file named twice (a directory and one
// of its files, or the same file in two spellings) is read once.
func LoadPaths(paths []string) ([]*SRD, Problems, error) {
	var all []*SRD
	var probs Problems
	read := map[string]bool{}
	for _, p := range paths {
		files, err := Expand(p)
		if err != nil {
			return nil, nil, err
		}
		for _, f := range files {
			key, err := filepath.Abs(f)
			if err != nil {
				return nil, nil, fmt.Errorf("load SRDs: %w", err)
			}
			if read[key] {
				continue
			}
			read[key] = true
			s, ps, err := LoadFile(f)
			if err != nil {
				return nil, nil, err
			}
			all = append(all, s...)
			probs = append(probs, ps...)
		}
	}
	return all, probs, nil
}

// LoadFS reads the SRD files of directory dir in fsys (for SRDs embedded in
// the binary), in name order. Problems name files as dir/name.
func LoadFS(fsys fs.FS, dir string) ([]*SRD, Problems, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, nil, fmt.Errorf("load SRDs: %w", err)
	}
	var all []*SRD
	var probs Problems
	for _, e := range entries {
		if e.IsDir() || !IsSRDFile(e.Name()) {
			continue
		}
		name := path.Join(dir, e.Name())
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, nil, fmt.Errorf("load SRDs: %w", err)
		}
		s, ps := Parse(name, data)
		all = append(all, s...)
		probs = append(probs, ps...)
	}
	if len(all) == 0 && len(probs) == 0 {
		return nil, nil, fmt.Errorf("load SRDs: no SRD files in %s", dir)
	}
	return all, probs, nil
}

// Expand lists the SRD files a path stands for: the file, or a
// directory's SRD files (not its subdirectories) in name order.
func Expand(p string) ([]string, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, fmt.Errorf("load SRDs: %w", err)
	}
	if !st.IsDir() {
		return []string{p}, nil
	}
	entries, err := os.ReadDir(p)
	if err != nil {
		return nil, fmt.Errorf("load SRDs: %w", err)
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() && IsSRDFile(e.Name()) {
			out = append(out, filepath.Join(p, e.Name()))
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("load SRDs: no .yaml, .yml or .json files in %s", p)
	}
	slices.Sort(out)
	return out, nil
}

// readLimited reads an SRD file (ReadLimited, at most MaxFileSize+1
// bytes).
func readLimited(file string) ([]byte, int64, error) {
	data, size, err := ReadLimited(file, MaxFileSize)
	if err != nil {
		return nil, 0, fmt.Errorf("load SRD: %w", err)
	}
	return data, size, nil
}

package traces

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// MetaCatalog is the session_start meta key that names the catalog
// directory of a trace: a path relative to the directory of the trace file
// (slash-separated), or absolute. `trace import` and `trace gen
// --catalogs` write it, always relative (CatalogRef).
const MetaCatalog = "catalog"

// MetaGenerator is the session_start meta key that names the program that
// wrote a generated trace; GeneratorOverCatalogs is its value for `trace
// gen --catalogs`, whose sessions call the tools of real catalogs. Traces
// it wrote before it wrote MetaCatalog name no catalog
// (GeneratedOverCatalogs).
const (
	MetaGenerator         = "generator"
	GeneratorOverCatalogs = "defersim trace gen --catalogs"
)

// CatalogRef returns the value of meta "catalog" for a trace written to
// tracePath whose catalog is catalogDir: the path relative to the trace's
// directory, slash-separated. When there is none (another volume, or a
// working directory that cannot be read) it returns an error and no
// reference: an absolute path would put a machine's path in a trace that
// is shared, so the caller writes none and warns that run will need
// --catalogs catalogDir.
func CatalogRef(tracePath, catalogDir string) (string, error) {
	base, err := filepath.Abs(filepath.Dir(tracePath))
	if err != nil {
		return "", fmt.Errorf("no path from %s to its catalog %s: %w", tracePath, catalogDir, err)
	}
	dir, err := filepath.Abs(catalogDir)
	if err != nil {
		return "", fmt.Errorf("no path from %s to its catalog %s: %w", tracePath, catalogDir, err)
	}
	return relRef(base, dir)
}

// relRef is dir relative to base, slash-separated, or the error of
// filepath.Rel when there is no such path (CatalogRef passes both
// absolute; on Windows they may be on different volumes).
func relRef(base, dir string) (string, error) {
	rel, err := filepath.Rel(base, dir)
	if err != nil {
		return "", fmt.Errorf("no path from %s to its catalog %s: %w", base, dir, err)
	}
	return filepath.ToSlash(rel), nil
}

// CatalogFor returns the catalog directory of the trace at path, by the
// first of these that applies:
//
//  1. the session_start on the file's first line has meta "catalog"
//     (relative to the trace's directory): that directory, which must exist
//     (an error otherwise);
//  2. a directory path + ".catalog" exists (the default of `trace import`);
//  3. a directory "catalog" beside the trace holds catalog files (`trace
//     gen`); a directory of that name holding none (a Go package, say) is
//     not taken for one.
//
// ok is false when none applies. The error is non-nil when the trace cannot
// be read or names a catalog that is not there.
func CatalogFor(path string) (dir string, ok bool, err error) {
	var ref string
	// A FIFO or a pipe is not read here: its first line would be lost to
	// the command that reads it next (issue 18.1).
	if st, serr := os.Stat(path); serr != nil || st.Mode().IsRegular() {
		meta, err := firstStartMeta(path)
		if err != nil {
			return "", false, err
		}
		ref = meta[MetaCatalog]
	}
	if ref != "" {
		dir := filepath.FromSlash(ref)
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(filepath.Dir(path), dir)
		}
		st, err := os.Stat(dir)
		if err != nil {
			return "", false, fmt.Errorf("%s: its catalog %q (session_start meta %s): %w", path, ref, MetaCatalog, err)
		}
		if !st.IsDir() {
			return "", false, fmt.Errorf("%s: its catalog %q (session_start meta %s) is not a directory", path, ref, MetaCatalog)
		}
		return filepath.Clean(dir), true, nil
	}
	if c := path + ".catalog"; isDir(c) {
		return filepath.Clean(c), true, nil
	}
	if c := filepath.Join(filepath.Dir(path), "catalog"); isDir(c) && holdsCatalogFiles(c) {
		return filepath.Clean(c), true, nil
	}
	return "", false, nil
}

func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// holdsCatalogFiles reports whether dir holds a file a catalog directory
// is made of: a *.json file that is not a capture's *.meta.json, or a
// catalog.yaml / catalog.yml manifest.
func holdsCatalogFiles(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || strings.HasPrefix(n, ".") {
			continue
		}
		if n == "catalog.yaml" || n == "catalog.yml" || (strings.HasSuffix(n, ".json") && !strings.HasSuffix(n, ".meta.json")) {
			return true
		}
	}
	return false
}

// CatalogsFor returns the catalog directories of the traces (CatalogFor),
// without repeats, in the order of the traces. Traces without one add
// nothing.
func CatalogsFor(paths []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, p := range paths {
		dir, ok, err := CatalogFor(p)
		if err != nil {
			return nil, err
		}
		if ok && !seen[dir] {
			seen[dir] = true
			out = append(out, dir)
		}
	}
	return out, nil
}

// GeneratedOverCatalogs reports whether the trace at path is one `trace
// gen --catalogs` wrote before it named the catalog: the session_start on
// its first line has meta generator GeneratorOverCatalogs and no meta
// catalog. Such a trace was drawn over real catalogs that nothing in it
// or beside it records (its params.yaml does not either), so only the
// user can say which. A path that is not a regular file is not read (as
// CatalogFor).
func GeneratedOverCatalogs(path string) (bool, error) {
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return false, nil
	}
	meta, err := firstStartMeta(path)
	if err != nil {
		return false, err
	}
	return meta[MetaGenerator] == GeneratorOverCatalogs && meta[MetaCatalog] == "", nil
}

// firstStartMeta returns the meta of the session_start on the first
// non-blank line of the trace at path (nil when that line is something
// else).
func firstStartMeta(path string) (map[string]string, error) {
	f, err := openFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	src, err := newLineSource(f, path, DefaultMaxLineBytes)
	if err != nil {
		return nil, err
	}
	defer src.close()
	for {
		line, tooLong, err := src.next()
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		if tooLong {
			return nil, nil
		}
		if isBlank(line) {
			continue
		}
		var ev struct {
			Type EventType         `json:"type"`
			Meta map[string]string `json:"meta"`
		}
		if json.Unmarshal(line, &ev) != nil || ev.Type != SessionStart {
			return nil, nil
		}
		return ev.Meta, nil
	}
}

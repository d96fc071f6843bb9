package pipeline

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	// Local paths; the command adds gs:// and s3:// (cmd/defersim-beam).
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"

	"github.com/defersim/defersim/scenarios"
	defaultdata "github.com/defersim/defersim/scenarios/default"
)

// openTrace opens a trace (or any input) file: an embedded one, or any
// path a Beam filesystem serves (local, gs://, s3://).
func openTrace(ctx context.Context, p string) (io.ReadCloser, error) {
	if name, ok := strings.CutPrefix(p, scenarios.EmbeddedPrefix); ok {
		return defaultdata.FS().Open(name)
	}
	fsys, err := filesystem.New(ctx, p)
	if err != nil {
		return nil, err
	}
	r, err := fsys.OpenRead(ctx, p)
	if err != nil {
		fsys.Close()
		return nil, err
	}
	return closeBoth{r, fsys}, nil
}

// ReadFile reads a small file (a scenario) from a local path or a URL,
// refusing one over max bytes.
func ReadFile(ctx context.Context, p string, max int64) ([]byte, error) {
	r, err := openTrace(ctx, p)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", p, err)
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: larger than %d bytes", p, max)
	}
	return data, nil
}

// closeBoth is a reader whose Close also closes the filesystem it came from.
type closeBoth struct {
	io.ReadCloser
	fsys io.Closer
}

func (c closeBoth) Close() error {
	err := c.ReadCloser.Close()
	if ferr := c.fsys.Close(); err == nil {
		err = ferr
	}
	return err
}

// dirFS is a directory of a Beam filesystem as an fs.FS, so that the
// runner's catalog loader reads a catalog directory at a URL. It lists and
// reads the files directly in root.
type dirFS struct{ root string }

func (d dirFS) path(name string) string {
	if name == "." {
		return d.root
	}
	return d.root + "/" + name
}

// ReadDir lists the files of the directory (only "." is one).
func (d dirFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if name != "." {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	ctx := context.Background()
	fsys, err := filesystem.New(ctx, d.root)
	if err != nil {
		return nil, err
	}
	defer fsys.Close()
	files, err := fsys.List(ctx, d.root+"/*")
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no files (is it a directory?)", d.root)
	}
	var out []fs.DirEntry
	for _, f := range files {
		out = append(out, fileEntry(path.Base(f)))
	}
	return out, nil
}

// ReadFile reads the file name of the directory.
func (d dirFS) ReadFile(name string) ([]byte, error) {
	f, err := d.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// Open opens the file name of the directory for reading.
func (d dirFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) || name == "." || strings.Contains(name, "/") {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	r, err := openTrace(context.Background(), d.path(name))
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: d.path(name), Err: err}
	}
	return file{r, name}, nil
}

type file struct {
	io.ReadCloser
	name string
}

func (f file) Stat() (fs.FileInfo, error) { return fileEntry(f.name).Info() }

// fileEntry describes a plain file by its name.
type fileEntry string

func (e fileEntry) Name() string               { return string(e) }
func (e fileEntry) IsDir() bool                { return false }
func (e fileEntry) Type() fs.FileMode          { return 0 }
func (e fileEntry) Info() (fs.FileInfo, error) { return e, nil }
func (e fileEntry) Size() int64                { return -1 }
func (e fileEntry) Mode() fs.FileMode          { return 0o444 }
func (e fileEntry) ModTime() time.Time         { return time.Time{} }
func (e fileEntry) Sys() any                   { return nil }

// copyTree copies every file under the local directory dir to the
// directory URL out of a Beam filesystem.
func copyTree(ctx context.Context, dir, out string) error {
	fsys, err := filesystem.New(ctx, out)
	if err != nil {
		return err
	}
	defer fsys.Close()
	return filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		dst := strings.TrimSuffix(out, "/") + "/" + filepath.ToSlash(rel)
		src, err := os.Open(p)
		if err != nil {
			return err
		}
		defer src.Close()
		w, err := fsys.OpenWrite(ctx, dst)
		if err != nil {
			return fmt.Errorf("write %s: %w", dst, err)
		}
		if _, err := io.Copy(w, src); err != nil {
			w.Close()
			return fmt.Errorf("write %s: %w", dst, err)
		}
		if err := w.Close(); err != nil {
			return fmt.Errorf("write %s: %w", dst, err)
		}
		return nil
	})
}

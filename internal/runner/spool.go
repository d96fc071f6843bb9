package runner

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"os"

	"github.com/defersim/defersim/internal/inputnotes"
	"github.com/defersim/defersim/traces"
)

// Commands that replay the same traces more than once (sweep, plan
// --growth, calibrate, recommend) need sources they can read again. A
// regular file is simply opened again. A FIFO, a pipe or a process
// substitution (`<(zcat t.gz)`) can be read only once: Rereadable copies it,
// before the first pass, into an unlinked temporary file (mode 0600,
// in the system's temporary directory), which every later pass reads. The
// file has no name from the moment it is created (it is removed at once and
// kept open), so it disappears when the command ends, however it ends (a
// crash, SIGKILL), and no other process can open it by name. `run` reads
// its traces once and never spools.

// spooled is a non-seekable source copied into an unlinked temporary file.
type spooled struct {
	f    *os.File
	size int64
}

// Rereadable returns srcs with every one that cannot be read twice (not a
// regular file or an embedded one) copied into an unlinked temporary file.
// release closes those files; the sources must not be read after it.
func Rereadable(srcs []Source) (out []Source, release func(), err error) {
	out = make([]Source, len(srcs))
	var files []*os.File
	release = func() {
		for _, f := range files {
			f.Close()
		}
	}
	// The deferred cleanup calls its own copy: an error return sets the
	// named result release to nil before deferred calls run.
	cleanup := release
	defer func() {
		if err != nil {
			cleanup()
		}
	}()
	for i, s := range srcs {
		out[i] = s
		if s.FS != nil || s.spool != nil {
			continue
		}
		if err := notStdin(s.Path); err != nil {
			return nil, nil, err
		}
		st, err := os.Stat(s.Path)
		if err != nil {
			return nil, nil, fmt.Errorf("open trace: %w", err)
		}
		if st.Mode().IsRegular() || st.IsDir() {
			continue
		}
		sp, err := spool(s.Path)
		if err != nil {
			return nil, nil, err
		}
		files = append(files, sp.f)
		out[i].spool = sp
	}
	return out, release, nil
}

// notStdin refuses "-", which reads stdin for the commands docs/cli.md
// lists, given where a trace or catalog is read by name (it would
// otherwise be "open -: no such file or directory").
func notStdin(path string) error {
	if path == "-" {
		return errors.New(`"-" (stdin) is not an input here: this command reads its traces and catalogs by name ` +
			"(docs/cli.md, Input, lists the commands that read stdin); for a pipe, give /dev/stdin or a process substitution <(…)")
	}
	return nil
}

// spool copies what path yields into an unlinked temporary file.
func spool(path string) (*spooled, error) {
	in, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open trace: %w", err)
	}
	defer in.Close()
	f, err := os.CreateTemp("", "defersim-spool-*")
	if err != nil {
		return nil, fmt.Errorf("spool %s: %w", path, err)
	}
	if err := os.Remove(f.Name()); err != nil {
		f.Close()
		return nil, fmt.Errorf("spool %s: %w", path, err)
	}
	n, err := io.Copy(f, in)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("spool %s (a copy for the passes after the first): %w", path, err)
	}
	return &spooled{f: f, size: n}, nil
}

// SessionSource returns a function that yields every session of srcs,
// in order, each time it is called (srcs should be Rereadable for more
// than one call). The sessions of each file are read with opts.
func SessionSource(srcs []Source, opts traces.ReadOptions) func() iter.Seq2[*traces.Session, error] {
	return TalliedSessionSource(srcs, opts, nil)
}

// TalliedSessionSource is SessionSource adding each file's reader counts
// to tally (when set) after each read.
func TalliedSessionSource(srcs []Source, opts traces.ReadOptions, tally *inputnotes.Tally) func() iter.Seq2[*traces.Session, error] {
	return func() iter.Seq2[*traces.Session, error] {
		return tallied(srcs, opts, tally)
	}
}

// tallied yields the sessions of srcs and adds each file's reader counts
// to tally (when set) once the read ends, even early.
func tallied(srcs []Source, opts traces.ReadOptions, tally *inputnotes.Tally) iter.Seq2[*traces.Session, error] {
	if tally == nil {
		return allSessions(srcs, nil, opts, nil, nil, nil)
	}
	return func(yield func(*traces.Session, error) bool) {
		var counts []traces.Counts
		defer func() {
			for i, c := range counts {
				tally.Add(srcs[i].Path, c)
			}
		}()
		for s, err := range allSessions(srcs, nil, opts, &counts, nil, nil) {
			if !yield(s, err) {
				return
			}
		}
	}
}

// SessionsByPath returns a reader of the sessions of one of srcs, by its
// path (a source not among srcs is opened as a file), for packages that
// read traces by path (calibrate).
func SessionsByPath(srcs []Source, opts traces.ReadOptions) func(path string) iter.Seq2[*traces.Session, error] {
	return TalliedSessionsByPath(srcs, opts, nil)
}

// TalliedSessionsByPath is SessionsByPath adding the file's reader counts
// to tally (when set) after each read.
func TalliedSessionsByPath(srcs []Source, opts traces.ReadOptions, tally *inputnotes.Tally) func(path string) iter.Seq2[*traces.Session, error] {
	return func(path string) iter.Seq2[*traces.Session, error] {
		src := Source{Path: path}
		for _, s := range srcs {
			if s.Path == path {
				src = s
				break
			}
		}
		return tallied([]Source{src}, opts, tally)
	}
}

package cliout

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// StdinName names standard input in messages.
const StdinName = "<stdin>"

// Inputs opens the command's input files, "-" meaning stdin (once).
type Inputs struct {
	Stdin    io.Reader
	usedOnce bool
}

// Open opens path, or stdin for "-", and returns it with the name to use in
// messages. Closing stdin's reader does nothing.
func (in *Inputs) Open(path string) (io.ReadCloser, string, error) {
	if path != Stdio {
		f, err := os.Open(path)
		if err != nil {
			return nil, path, err // *PathError: names the file once
		}
		if st, err := f.Stat(); err == nil && st.IsDir() {
			// Opening a directory succeeds; its first read would fail
			// with "is a directory", reported as a problem at line 1.
			f.Close()
			return nil, path, &fs.PathError{Op: "open", Path: path, Err: ErrDirectory}
		}
		return f, path, nil
	}
	if in.usedOnce {
		return nil, StdinName, errors.New("- (stdin) can be given only once")
	}
	in.usedOnce = true
	if in.Stdin == nil {
		return io.NopCloser(os.Stdin), StdinName, nil
	}
	return io.NopCloser(in.Stdin), StdinName, nil
}

// ErrDirectory is the error of a directory given where a file is read.
var ErrDirectory = errors.New("is a directory, not a file: give the files in it")

// ReadFile reads path, or stdin for "-", whole.
func (in *Inputs) ReadFile(path string) ([]byte, error) {
	r, name, err := in.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	return data, nil
}

// Name is how path is named in messages.
func Name(path string) string {
	if path == Stdio {
		return StdinName
	}
	return path
}

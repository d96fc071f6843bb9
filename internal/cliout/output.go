package cliout

import (
	"bytes"
	"io"

	"github.com/spf13/cobra"

	"github.com/defersim/defersim/internal/atomicfile"
	"github.com/defersim/defersim/internal/outguard"
)

// Stdio is the name that means stdout as an output and stdin as an input.
const Stdio = "-"

// AddOutput registers -o/--output FILE on c ("-" or empty: stdout) and
// returns the variable it sets.
func AddOutput(c *cobra.Command, what string) *string {
	p := new(string)
	c.Flags().StringVarP(p, "output", "o", "", "write "+what+" to this file instead of stdout (- for stdout)")
	return p
}

// Sink is where a command writes its output: stdout, or a file written
// atomically by Commit (nothing is written when the command fails first).
type Sink struct {
	io.Writer
	path string
	buf  *bytes.Buffer
}

// Open returns the sink for path: stdout when path is "" or "-". It
// refuses a path that is one of inputs (or lies in an input directory), so
// that no command's -o overwrites what it reads (internal/outguard).
func Open(path string, stdout io.Writer, inputs ...string) (*Sink, error) {
	if path == "" || path == Stdio {
		return &Sink{Writer: stdout}, nil
	}
	if err := outguard.Check(inputs, path); err != nil {
		return nil, err
	}
	b := &bytes.Buffer{}
	return &Sink{Writer: b, path: path, buf: b}, nil
}

// ToFile reports whether the sink writes a file.
func (s *Sink) ToFile() bool { return s.buf != nil }

// Path is the file written, or "" for stdout.
func (s *Sink) Path() string { return s.path }

// Commit writes the file (for a file sink); it is a no-op for stdout.
func (s *Sink) Commit() error {
	if s.buf == nil {
		return nil
	}
	return atomicfile.WriteFile(s.path, s.buf.Bytes(), 0o644)
}

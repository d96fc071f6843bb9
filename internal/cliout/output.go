package cliout

import (
	"bytes"
	"io"

	"github.com/spf13/cobra"

	"github.com/defersim/defersim/internal/atomicfile"
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

// Open returns the sink for path: stdout when path is "" or "-".
func Open(path string, stdout io.Writer) *Sink {
	if path == "" || path == Stdio {
		return &Sink{Writer: stdout}
	}
	b := &bytes.Buffer{}
	return &Sink{Writer: b, path: path, buf: b}
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

package ingest

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/defersim/defersim/internal/jsonpos"
)

// Open opens path for reading, decompressing it when it starts with the gzip
// magic bytes (whatever its name).
func Open(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	r, err := Decompress(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return readCloser{r, f}, nil
}

type readCloser struct {
	io.Reader
	c io.Closer
}

func (r readCloser) Close() error { return r.c.Close() }

// Decompress returns r, transparently gunzipped when it starts with the gzip
// magic bytes, without the UTF-8 byte order mark some Windows tools put at
// the start of a text file (it is no part of the JSON; every importer failed
// on it with "invalid character 'ï'"). A gzip stream that is cut short or
// damaged reads as an error that says so (it said "unexpected EOF").
func Decompress(r io.Reader) (io.Reader, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	magic, err := br.Peek(2)
	if err == nil && magic[0] == 0x1f && magic[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, gzipError(err)
		}
		return withoutBOM(bufio.NewReaderSize(gzipReader{gz}, 64<<10)), nil
	}
	return withoutBOM(br), nil
}

// utf8BOM is the UTF-8 byte order mark.
const utf8BOM = "\xef\xbb\xbf"

// withoutBOM skips a UTF-8 byte order mark at the start of br.
func withoutBOM(br *bufio.Reader) *bufio.Reader {
	if head, err := br.Peek(len(utf8BOM)); err == nil && string(head) == utf8BOM {
		_, _ = br.Discard(len(utf8BOM))
	}
	return br
}

// gzipReader reads a gzip stream, its errors described by gzipError.
type gzipReader struct{ gz *gzip.Reader }

func (g gzipReader) Read(p []byte) (int, error) {
	n, err := g.gz.Read(p)
	if err != nil && err != io.EOF {
		err = gzipError(err)
	}
	return n, err
}

// gzipError says what a gzip failure means for the input: cut short, or
// damaged; another error is returned as it is.
func gzipError(err error) error {
	var corrupt flate.CorruptInputError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("truncated gzip stream (%w): the file ends inside its compressed data, "+
			"as a copy, download or export cut short leaves it; copy or export it again", err)
	case errors.Is(err, gzip.ErrHeader), errors.Is(err, gzip.ErrChecksum), errors.As(err, &corrupt):
		return fmt.Errorf("corrupt gzip stream (%w): the compressed data is damaged; copy or export it again", err)
	}
	return err
}

// ReadFile returns the (decompressed) content of path.
func ReadFile(path string) ([]byte, error) {
	r, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return data, nil
}

// DirLabel names a file by its directory and base name ("run/task.traj"),
// as formats that keep one session per file and name the run by the
// directory label their sessions.
func DirLabel(path string) string {
	label := filepath.Base(path)
	if dir := filepath.Base(filepath.Dir(path)); dir != "." && dir != string(filepath.Separator) {
		label = dir + "/" + label
	}
	return label
}

// EmitOne reads r whole, builds the one session it holds with build and
// hands it to sink; errors are prefixed with name.
func EmitOne(name string, r io.Reader, sink Sink, build func(data []byte) (*Session, error)) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	s, err := build(data)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return sink.Emit(s)
}

// Lines calls fn with every line of r that is not blank, and its 1-based
// number. Lines may be of any length.
func Lines(r io.Reader, fn func(n int, line []byte) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			if ferr := fn(n, line); ferr != nil {
				return ferr
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("line %d: %w", n, err)
		}
	}
}

// JSONError turns a JSON decoding error about data into one that says where
// in data it happened (line and column).
func JSONError(data []byte, err error) error {
	off, ok := jsonpos.Offset(err)
	if !ok || off < 0 || off > int64(len(data)) {
		return err
	}
	line, col := jsonpos.LineCol(data, off)
	return fmt.Errorf("line %d col %d: %w", line, col, err)
}

// LineJSONError says where in line n of a JSON Lines file (line holds that
// line alone) a JSON decoding error happened: "line 3 col 501: …". It read
// "line 3: line 1 col 501: …", the line within the line.
func LineJSONError(n int, line []byte, err error) error {
	if off, ok := jsonpos.Offset(err); ok && off >= 0 && off <= int64(len(line)) {
		_, col := jsonpos.LineCol(line, off)
		return fmt.Errorf("line %d col %d: %w", n, col, err)
	}
	return fmt.Errorf("line %d: %w", n, err)
}

// FirstByte returns the first byte of data that is not white space, or 0.
func FirstByte(data []byte) byte {
	t := bytes.TrimLeft(data, " \t\r\n\ufeff")
	t = bytes.TrimPrefix(t, []byte("\xef\xbb\xbf"))
	if len(t) == 0 {
		return 0
	}
	return t[0]
}

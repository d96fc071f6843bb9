package traces

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzip"
)

// bufSize is the read buffer size of a lineSource (and of its gzip layer).
const bufSize = 64 << 10

// lineSource splits a plain or gzip-compressed stream into lines, with a
// bound on line length that holds without buffering an over-long line.
type lineSource struct {
	file string
	max  int
	br   *bufio.Reader
	gz   *gzip.Reader
	// line is the number of the last line returned (1-based).
	line int
	// bytes counts the uncompressed bytes consumed, newlines included.
	bytes int64
	// buf assembles lines longer than the read buffer; reused across lines.
	buf []byte
	eof bool
	// Used by the pipeline's read stage (fill): the read buffer, the bytes
	// of the current line seen so far, and whether it is over the limit.
	chunk   []byte
	pending int
	tooLong bool
	// batchLines is the most lines a batch has held (fill sizes new
	// batches' line lists by it).
	batchLines int
}

// newLineSource wraps r. Gzip is detected by its magic bytes (1f 8b) and
// decompressed with github.com/klauspost/compress's gzip (about 1.4× the
// standard library's on trace files; docs/performance.md), which reports
// errors in the same words.
func newLineSource(r io.Reader, file string, maxLine int) (*lineSource, error) {
	raw := bufio.NewReaderSize(r, bufSize)
	s := &lineSource{file: file, max: maxLine, br: raw}
	magic, err := raw.Peek(2)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, s.ioError(err, false)
	}
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		gz, err := gzip.NewReader(raw)
		if err != nil {
			return nil, s.ioError(err, true)
		}
		s.gz = gz
		s.br = bufio.NewReaderSize(gz, bufSize)
	}
	return s, nil
}

// next returns the next line without its '\n'. The slice is valid until the
// next call. tooLong reports a line longer than the limit: its content is
// discarded and line is nil. err is io.EOF at the end of the stream or a
// *LineError when reading fails; both end the stream.
func (s *lineSource) next() (line []byte, tooLong bool, err error) {
	if s.eof {
		return nil, false, io.EOF
	}
	if cap(s.buf) > 4<<20 {
		s.buf = nil // do not keep a very long line's buffer for the rest of the file
	}
	s.buf = s.buf[:0]
	size := 0 // bytes of this line seen so far
	for {
		chunk, rerr := s.br.ReadSlice('\n')
		s.bytes += int64(len(chunk))
		switch {
		case rerr == nil:
			s.line++
			body := chunk[:len(chunk)-1]
			if tooLong || size+len(body) > s.max {
				return nil, true, nil
			}
			if len(s.buf) == 0 {
				return body, false, nil
			}
			s.buf = append(s.buf, body...)
			return s.buf, false, nil
		case errors.Is(rerr, bufio.ErrBufferFull):
			size += len(chunk)
			if tooLong || size > s.max {
				tooLong = true
				s.buf = s.buf[:0]
				continue
			}
			s.buf = append(s.buf, chunk...)
		case errors.Is(rerr, io.EOF):
			s.eof = true
			if size == 0 && len(chunk) == 0 {
				return nil, false, io.EOF
			}
			// A last line without a newline.
			s.line++
			if tooLong || size+len(chunk) > s.max {
				return nil, true, nil
			}
			s.buf = append(s.buf, chunk...)
			return s.buf, false, nil
		default:
			s.eof = true
			return nil, false, s.ioError(rerr, s.gz != nil)
		}
	}
}

// truncatedGzip is the reason of a gzip stream that ends inside its data
// (a format of the file's name): what such a file is, and what to do
// (--skip-bad cannot read past it).
const truncatedGzip = "truncated gzip stream (unexpected EOF): the file ends inside its compressed data, as a copy, download or export cut short leaves it; " +
	"copy or export it again (gzip -dc %s > part.jsonl keeps the lines before this one, its last session cut short; --skip-bad does not read past it)"

// ioError describes a read failure at the line being read; gz says whether
// it came from the gzip layer.
func (s *lineSource) ioError(err error, gz bool) *LineError {
	e := &LineError{File: s.file, Line: s.line + 1, Kind: KindIO, Err: err,
		Reason: fmt.Sprintf("read error: %v", err)}
	if !gz {
		return e
	}
	var corrupt flate.CorruptInputError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		e.Kind, e.Reason = KindCompression, fmt.Sprintf(truncatedGzip, s.file)
	case errors.Is(err, gzip.ErrHeader), errors.Is(err, gzip.ErrChecksum), errors.As(err, &corrupt):
		e.Kind, e.Reason = KindCompression, fmt.Sprintf("corrupt gzip stream (%v)", err)
	}
	return e
}

// close releases the gzip reader; the underlying reader is not closed.
func (s *lineSource) close() error {
	if s.gz != nil {
		return s.gz.Close()
	}
	return nil
}

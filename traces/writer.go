package traces

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
)

// Writer writes trace v1 events, one JSON object per line.
type Writer struct {
	bw  *bufio.Writer
	gz  *gzip.Writer
	enc *json.Encoder
}

// NewWriter returns a Writer on w. When compress is true the output is gzip.
func NewWriter(w io.Writer, compress bool) *Writer {
	wr := &Writer{}
	if compress {
		wr.gz, _ = gzip.NewWriterLevel(w, gzip.DefaultCompression)
		wr.bw = bufio.NewWriterSize(wr.gz, 64<<10)
	} else {
		wr.bw = bufio.NewWriterSize(w, 64<<10)
	}
	wr.enc = json.NewEncoder(wr.bw)
	wr.enc.SetEscapeHTML(false)
	return wr
}

// Write writes one event. Session-start events get the format version.
func (w *Writer) Write(ev *Event) error {
	if ev.Type == SessionStart && ev.V == 0 {
		ev.V = Version
	}
	if err := w.enc.Encode(ev); err != nil {
		return fmt.Errorf("write %s event of session %q: %w", ev.Type, ev.Session, err)
	}
	return nil
}

// WriteSession writes every event of s.
func (w *Writer) WriteSession(s *Session) error {
	for i := range s.Events {
		if err := w.Write(&s.Events[i]); err != nil {
			return err
		}
	}
	return nil
}

// Close flushes buffered output and ends the gzip stream; it does not close
// the underlying writer.
func (w *Writer) Close() error {
	if err := w.bw.Flush(); err != nil {
		return fmt.Errorf("flush trace: %w", err)
	}
	if w.gz != nil {
		if err := w.gz.Close(); err != nil {
			return fmt.Errorf("close gzip: %w", err)
		}
	}
	return nil
}

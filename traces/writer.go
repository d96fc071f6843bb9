package traces

import (
	"bufio"
	"bytes"
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
// A call's args are written as read, byte for byte: encoding/json compacts
// a json.RawMessage, and the replay counts the tokens of the args as
// recorded, so `{"a": 1}` rewritten as `{"a":1}` replayed a token short per
// key (a calibration's held-out file replayed other prompt sizes than the
// calibration measured on the same sessions).
func (w *Writer) Write(ev *Event) error {
	if ev.Type == SessionStart && ev.V == 0 {
		ev.V = Version
	}
	if err := w.write(ev); err != nil {
		return fmt.Errorf("write %s event of session %q: %w", ev.Type, ev.Session, err)
	}
	return nil
}

// argsPlaceholder stands for non-compact args while the event is encoded;
// its key with this value occurs once in the encoded line (quotes inside
// strings are escaped), and the args read from a line hold no newline.
const argsPlaceholder = `"args":0`

func (w *Writer) write(ev *Event) error {
	var c bytes.Buffer
	if len(ev.Args) == 0 || json.Compact(&c, ev.Args) != nil || bytes.Equal(c.Bytes(), ev.Args) || bytes.ContainsAny(ev.Args, "\r\n") {
		return w.enc.Encode(ev)
	}
	cp := *ev
	cp.Args = json.RawMessage("0")
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&cp); err != nil {
		return err
	}
	line := b.Bytes()
	i := bytes.Index(line, []byte(argsPlaceholder))
	if i < 0 {
		return w.enc.Encode(ev)
	}
	i += len(argsPlaceholder) - 1
	for _, part := range [][]byte{line[:i], ev.Args, line[i+1:]} {
		if _, err := w.bw.Write(part); err != nil {
			return err
		}
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

package pipeline

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"

	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/traces"
)

// traceFile is one trace of the run: its position among the run's traces
// and its path.
type traceFile struct {
	Ordinal int
	Path    string
}

// sessionBatch is consecutive sessions of one trace file: First is the
// position of the first among the file's sessions (after indexFn: among
// all sessions of the run), Sessions their gob encoding.
type sessionBatch struct {
	File     int
	First    int64
	Count    int
	Sessions []byte
}

// fileRead is what reading one trace file found: its fingerprint, its
// reader's counts (JSON of traces.Counts) and its number of sessions.
type fileRead struct {
	Ordinal  int
	Path     string
	SHA256   string
	Bytes    int64
	Sessions int64
	Counts   []byte
}

// traceRead is the runner's description of the read.
func (f fileRead) traceRead() (runner.TraceRead, error) {
	var c traces.Counts
	if err := json.Unmarshal(f.Counts, &c); err != nil {
		return runner.TraceRead{}, fmt.Errorf("counts of %s: %w", f.Path, err)
	}
	return runner.TraceRead{Input: runner.TraceInput(f.Path, f.SHA256, f.Bytes), Counts: c, Sessions: f.Sessions}, nil
}

// readFn reads one trace file with the reader `defersim run` uses — the
// sessions come out in the same order, so a session's position in the
// file and the file's position among the traces give its stream index —
// and hashes the file's bytes as it reads them.
type readFn struct {
	Spec Spec
}

// ProcessElement reads f, emitting its sessions in batches, each
// session's id with where it starts (for the check of ids repeated across
// files: repeats.go), and then what the read found. A malformed line stops
// the pipeline with the reader's file:line error (or, with skip-bad, is
// counted).
func (fn *readFn) ProcessElement(ctx context.Context, f traceFile, emitBatch func(sessionBatch), emitRead func(fileRead),
	emitStart func(string, sessionStarts)) error {
	rc, err := openTrace(ctx, f.Path)
	if err != nil {
		return InputError(fmt.Errorf("open trace %s: %w", f.Path, err))
	}
	defer rc.Close()
	h := sha256.New()
	cr := &countingReader{r: io.TeeReader(rc, h)}
	// A session repeated within the file stops the job (or is skipped), as
	// in defersim run; files are read apart, so a repeat across files is
	// found from the emitted starts (repeats.go).
	seen := traces.NewSessionSet()
	seen.Reread = func(int) (io.ReadCloser, error) { return openTrace(ctx, f.Path) }
	r, err := traces.NewReader(cr, f.Path, traces.ReadOptions{SkipBad: fn.Spec.SkipBad, Seen: seen})
	if err != nil {
		return InputError(err)
	}
	defer r.Close()
	var batch []*traces.Session
	var first, n int64
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		data, err := encodeSessions(batch)
		if err != nil {
			return err
		}
		emitBatch(sessionBatch{File: f.Ordinal, First: first, Count: len(batch), Sessions: data})
		first += int64(len(batch))
		batch = batch[:0]
		return nil
	}
	for s, err := range r.Sessions() {
		if err != nil {
			return InputError(err)
		}
		n++
		emitStart(s.ID, sessionStarts{First: sessionStart{File: f.Ordinal, Line: s.Lines[0]}})
		if batch = append(batch, s); len(batch) == fn.Spec.batch() {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	if _, err := io.Copy(io.Discard, cr); err != nil { // hash every byte, as defersim run does
		return InputError(fmt.Errorf("read %s: %w", f.Path, err))
	}
	counts, err := json.Marshal(r.Counts())
	if err != nil {
		return err
	}
	emitRead(fileRead{Ordinal: f.Ordinal, Path: f.Path, SHA256: hex.EncodeToString(h.Sum(nil)), Bytes: cr.n,
		Sessions: n, Counts: counts})
	return nil
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// encodeSessions and decodeSessions carry sessions between steps (gob
// keeps every field the replay reads).
func encodeSessions(sessions []*traces.Session) ([]byte, error) {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(sessions); err != nil {
		return nil, fmt.Errorf("encode sessions: %w", err)
	}
	return buf.Bytes(), nil
}

func decodeSessions(data []byte) ([]*traces.Session, error) {
	var out []*traces.Session
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&out); err != nil {
		return nil, fmt.Errorf("decode sessions: %w", err)
	}
	return out, nil
}

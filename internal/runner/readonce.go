package runner

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"sync"

	"github.com/defersim/defersim/sim"
)

// A run reads each trace once: the bytes are hashed as the replay reads
// them (so a FIFO or a process substitution works as a trace), and the
// hashes go into the results when the reading is done. A checkpoint cannot
// hold the hash of a whole file it has not finished reading: it holds, per
// trace, the hash of the prefix read so far (TracePrefix), which covers
// every byte the sessions before its stream index came from. A resumed run
// checks that prefix as it reads it again.

// TracePrefix is what a checkpoint knows of one trace: its path, and the
// length and SHA-256 of the bytes the run had read from it. Complete says
// the run had read the whole file (its hash is then the file's).
type TracePrefix struct {
	Path     string
	Bytes    int64
	SHA256   string
	Complete bool
}

// traceHash hashes one trace's bytes as they are read. The reading
// goroutine writes; a checkpoint snapshots from another goroutine.
type traceHash struct {
	path string
	mu   sync.Mutex
	h    hash.Hash
	n    int64
	eof  bool
	// expect, on resume, is the prefix the checkpoint saw; changed is set
	// when the bytes read differ from it.
	expect  *TracePrefix
	changed error
}

func newTraceHash(path string, expect *TracePrefix) *traceHash {
	return &traceHash{path: path, h: sha256.New(), expect: expect}
}

// reader returns r hashed into t: it reads r to its end at most once.
func (t *traceHash) reader(r io.Reader) io.Reader { return &hashingReader{r: r, t: t} }

type hashingReader struct {
	r io.Reader
	t *traceHash
}

func (hr *hashingReader) Read(p []byte) (int, error) {
	n, err := hr.r.Read(p)
	if cerr := hr.t.add(p[:n], err == io.EOF); cerr != nil {
		return n, cerr
	}
	return n, err
}

// add hashes b; eof says the stream ended after it. It returns an error
// when the bytes read contradict the expected prefix.
func (t *traceHash) add(b []byte, eof bool) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.changed != nil {
		return t.changed
	}
	if e := t.expect; e != nil && t.n < e.Bytes && t.n+int64(len(b)) >= e.Bytes {
		k := e.Bytes - t.n
		t.h.Write(b[:k])
		t.n += k
		b = b[k:]
		if hex.EncodeToString(t.h.Sum(nil)) != e.SHA256 {
			t.changed = fmt.Errorf("trace %s changed since the checkpoint: its first %d bytes differ", t.path, e.Bytes)
			return t.changed
		}
	}
	t.h.Write(b)
	t.n += int64(len(b))
	if e := t.expect; e != nil && e.Complete && t.n > e.Bytes {
		t.changed = fmt.Errorf("trace %s changed since the checkpoint: it was %d bytes long, it is longer now", t.path, e.Bytes)
		return t.changed
	}
	if eof {
		t.eof = true
		if e := t.expect; e != nil && t.n < e.Bytes {
			t.changed = fmt.Errorf("trace %s changed since the checkpoint: it was read up to byte %d, it ends at %d", t.path, e.Bytes, t.n)
			return t.changed
		}
	}
	return nil
}

// prefix snapshots what has been read so far.
func (t *traceHash) prefix() TracePrefix {
	t.mu.Lock()
	defer t.mu.Unlock()
	return TracePrefix{Path: t.path, Bytes: t.n, SHA256: hex.EncodeToString(t.h.Sum(nil)), Complete: t.eof}
}

// input describes the whole trace once it has been read to its end.
func (t *traceHash) input() (sim.Input, error) {
	p := t.prefix()
	if !p.Complete {
		return sim.Input{}, fmt.Errorf("trace %s was not read to its end", t.path)
	}
	return TraceInput(t.path, p.SHA256, p.Bytes), nil
}

// traceHashes hashes every trace of a run.
type traceHashes []*traceHash

func newTraceHashes(srcs []Source, expect []TracePrefix) (traceHashes, error) {
	if expect != nil && len(expect) != len(srcs) {
		return nil, fmt.Errorf("the checkpoint was made by another run: it read %d trace files, this run %d; pass the same scenario, traces and flags", len(expect), len(srcs))
	}
	out := make(traceHashes, len(srcs))
	for i, s := range srcs {
		var e *TracePrefix
		if expect != nil {
			// The checkpoint's trace #i is compared by its contents as it
			// is read again, not by its path: the same file moved is the
			// same run (docs/reliability.md, "Interrupts and resume").
			e = &expect[i]
		}
		out[i] = newTraceHash(s.Path, e)
	}
	return out, nil
}

func (ts traceHashes) prefixes() []TracePrefix {
	out := make([]TracePrefix, len(ts))
	for i, t := range ts {
		out[i] = t.prefix()
	}
	return out
}

// changed returns the first contradiction with the checkpoint, if any.
func (ts traceHashes) changed() error {
	for _, t := range ts {
		t.mu.Lock()
		err := t.changed
		t.mu.Unlock()
		if err != nil {
			return err
		}
	}
	return nil
}

func (ts traceHashes) inputs() ([]sim.Input, error) {
	var out []sim.Input
	for _, t := range ts {
		in, err := t.input()
		if err != nil {
			return nil, err
		}
		out = append(out, in)
	}
	return out, nil
}

package traces

import (
	"bytes"
	"errors"
	"io"
	"sync"
)

// A Reader works in three stages, each on its own goroutine, so that
// decompression and decoding use separate cores: the read stage
// decompresses and cuts the stream into batches of whole lines; the decode
// stage decodes every line of a batch and files its event into its session
// (filer.go); the Sessions iterator yields the sessions the batch ended.
// Batches go round a fixed set (pipelineBatches), so memory is bounded and
// little is allocated per batch once the set is warm; channels carry one
// message per batch of about batchBytes, never one per event.
const (
	// batchBytes is the uncompressed text a batch holds (it may hold more:
	// a line is never split).
	batchBytes = 256 << 10
	// pipelineBatches is how many batches exist per reader: one being
	// read, one being decoded, one being filed, and slack between stages.
	pipelineBatches = 4
)

// lineSpan locates one line in its batch's data.
type lineSpan struct {
	start, end int
	tooLong    bool // the line was over the limit; its bytes were dropped
}

// batch is a run of consecutive lines of the stream.
type batch struct {
	data  []byte
	lines []lineSpan
	// first is the number of the first line (1-based).
	first int
	// bytes is the count of uncompressed bytes read up to the end of the
	// batch (so far in the stream).
	bytes int64
	// err ends the stream after the batch's lines: io.EOF or a *LineError.
	err error
	// Filled by the decode stage: the sessions the lines ended (and, at the
	// end of the stream, those still open), and the counts so far.
	sessions []*Session
	counts   Counts
}

// pipeline runs the read and decode stages of one Reader.
type pipeline struct {
	src  *lineSource
	f    *filer
	free chan *batch // empty batches, for the read stage
	read chan *batch // read batches, for the decode stage
	out  chan *batch // decoded batches, for the iterator
	done chan struct{}
	wg   sync.WaitGroup
}

// startPipeline starts the read and decode stages on src. With inline,
// there is no decode stage: next decodes on the caller's goroutine (for
// ReadOptions.OnEvent, whose calls then come from the goroutine ranging
// over Sessions, as its callers expect).
func startPipeline(src *lineSource, f *filer, inline bool) *pipeline {
	p := &pipeline{src: src, f: f, free: make(chan *batch, pipelineBatches), read: make(chan *batch, pipelineBatches),
		out: make(chan *batch, pipelineBatches), done: make(chan struct{})}
	for range pipelineBatches {
		p.free <- &batch{}
	}
	p.wg.Add(1)
	go p.readStage()
	if inline {
		p.out = nil
	} else {
		p.wg.Add(1)
		go p.decodeStage()
	}
	return p
}

// next returns the next decoded batch; ok is false after the last.
func (p *pipeline) next() (b *batch, ok bool) {
	if p.out != nil {
		b, ok = <-p.out
		return b, ok
	}
	if b, ok = <-p.read; ok {
		p.f.file(b)
	}
	return b, ok
}

// stop ends both stages and waits for them; the iterator calls it when
// it returns, so no goroutine reads the source after Sessions.
func (p *pipeline) stop() {
	close(p.done)
	p.wg.Wait()
}

// recycle hands a filed batch back to the read stage. The sessions it
// carried are the caller's now: the batch forgets them, so that one the
// caller dropped is garbage at once, not kept (and scanned by every
// garbage collection) until the batch is refilled.
func (p *pipeline) recycle(b *batch) {
	clear(b.sessions)
	b.sessions = b.sessions[:0]
	select {
	case p.free <- b:
	default: // cannot happen: there are only pipelineBatches batches
	}
}

// readStage fills batches with whole lines until the stream ends.
func (p *pipeline) readStage() {
	defer p.wg.Done()
	defer close(p.read)
	s := p.src
	for {
		var b *batch
		select {
		case b = <-p.free:
		case <-p.done:
			return
		}
		s.fill(b)
		last := b.err != nil // read before the hand-off: b is the next stage's then
		select {
		case p.read <- b:
		case <-p.done:
			return
		}
		if last {
			return
		}
	}
}

// decodeStage decodes and files the lines of each batch; it stops after
// the batch whose error ends the stream.
func (p *pipeline) decodeStage() {
	defer p.wg.Done()
	defer close(p.out)
	for b := range p.read {
		p.f.file(b)
		last := b.err != nil // read before the hand-off: b is the iterator's then
		select {
		case p.out <- b:
		case <-p.done:
			return
		}
		if last {
			return
		}
	}
}

// fill reads whole lines into b (reset first) until it holds batchBytes
// or the stream ends; a line over the limit is recorded without its bytes.
// The part of a line read past the batch's last newline waits in s.buf
// for the next batch.
func (s *lineSource) fill(b *batch) {
	b.data, b.lines, b.err = b.data[:0], b.lines[:0], nil
	b.first = s.line + 1
	if cap(b.data) < batchBytes {
		b.data = make([]byte, 0, batchBytes+batchBytes/2)
	}
	if cap(b.lines) < s.batchLines {
		// A new batch: as many lines as the fullest so far, instead of
		// growing its list from nothing.
		b.lines = make([]lineSpan, 0, s.batchLines)
	}
	for len(b.data) < batchBytes && b.err == nil {
		if s.eof {
			b.err = io.EOF
			break
		}
		chunk, rerr := s.readChunk()
		s.addLines(b, chunk)
		if rerr != nil {
			s.eof = true
			b.err = s.endOfStream(b, rerr)
		}
	}
	b.bytes = s.bytes
	s.batchLines = max(s.batchLines, len(b.lines))
}

// readChunk reads the next piece of the decompressed stream (at most the
// reader's buffer) and counts its bytes.
func (s *lineSource) readChunk() ([]byte, error) {
	if s.chunk == nil {
		s.chunk = make([]byte, bufSize)
	}
	n, err := s.br.Read(s.chunk)
	for n == 0 && err == nil {
		n, err = s.br.Read(s.chunk)
	}
	s.bytes += int64(n)
	return s.chunk[:n], err
}

// addLines appends the lines that end in chunk to b, keeping the unended
// rest in s.buf (or, past the limit, only its length in s.pending).
func (s *lineSource) addLines(b *batch, chunk []byte) {
	for len(chunk) > 0 {
		nl := bytes.IndexByte(chunk, '\n')
		if nl < 0 {
			s.partial(chunk)
			return
		}
		s.partial(chunk[:nl])
		s.line++
		if s.tooLong {
			b.lines = append(b.lines, lineSpan{tooLong: true})
		} else {
			start := len(b.data)
			b.data = append(b.data, s.buf...)
			b.lines = append(b.lines, lineSpan{start: start, end: len(b.data)})
		}
		s.buf, s.pending, s.tooLong = s.buf[:0], 0, false
		chunk = chunk[nl+1:]
	}
}

// partial adds part of the current line to s.buf, or drops it once the
// line is over the limit.
func (s *lineSource) partial(part []byte) {
	s.pending += len(part)
	if s.tooLong {
		return
	}
	if s.pending > s.max {
		s.tooLong = true
		s.buf = s.buf[:0]
		if cap(s.buf) > 4<<20 {
			s.buf = nil // do not keep a very long line's buffer for the rest of the file
		}
		return
	}
	s.buf = append(s.buf, part...)
}

// endOfStream handles the end of the stream (err from the decompressor):
// a last line without a newline is added to b; the error ending the
// batch is returned (io.EOF at a clean end).
func (s *lineSource) endOfStream(b *batch, err error) error {
	if !errors.Is(err, io.EOF) {
		return s.ioError(err, s.gz != nil)
	}
	if s.pending > 0 || s.tooLong {
		s.addLines(b, []byte{'\n'})
	}
	return io.EOF
}

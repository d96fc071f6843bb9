package mcpsnap

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"
)

// maxLineBytes bounds one remembered stderr line; longer lines are cut.
const maxLineBytes = 512

// lineRing is an io.Writer that remembers the last n complete lines written
// to it (and the unterminated tail), each cut to maxLineBytes. It is safe for
// concurrent use.
type lineRing struct {
	mu      sync.Mutex
	n       int
	lines   []string // ring storage, len <= n
	next    int      // index of the slot the next line goes to, once full
	partial []byte
	total   int // lines seen in all
}

func newLineRing(n int) *lineRing {
	if n < 1 {
		n = 1
	}
	return &lineRing{n: n}
}

// Write implements io.Writer; it never fails.
func (r *lineRing) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	rest := p
	for len(rest) > 0 {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			r.partial = appendCapped(r.partial, rest)
			break
		}
		r.partial = appendCapped(r.partial, rest[:i])
		r.push(string(bytes.TrimRight(r.partial, "\r")))
		r.partial = r.partial[:0]
		rest = rest[i+1:]
	}
	return len(p), nil
}

func appendCapped(dst, src []byte) []byte {
	room := maxLineBytes - len(dst)
	if room <= 0 {
		return dst
	}
	if len(src) > room {
		src = src[:room]
	}
	return append(dst, src...)
}

func (r *lineRing) push(line string) {
	r.total++
	if len(r.lines) < r.n {
		r.lines = append(r.lines, line)
		return
	}
	r.lines[r.next] = line
	r.next = (r.next + 1) % r.n
}

// Lines returns the remembered lines, oldest first, with an unterminated
// last line included. Empty lines at the end are dropped.
func (r *lineRing) Lines() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]string, 0, len(r.lines)+1)
	out = append(out, r.lines[r.next:]...)
	out = append(out, r.lines[:r.next]...)
	if len(r.partial) > 0 {
		out = append(out, string(r.partial))
		if len(out) > r.n {
			out = out[len(out)-r.n:]
		}
	}
	for len(out) > 0 && strings.TrimSpace(out[len(out)-1]) == "" {
		out = out[:len(out)-1]
	}
	return out
}

// Dropped returns how many complete lines were forgotten.
func (r *lineRing) Dropped() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.total - len(r.lines)
}

// byteTail remembers the last n bytes written to it.
type byteTail struct {
	mu        sync.Mutex
	n         int
	buf       []byte
	truncated bool // bytes were dropped from the front
}

func (t *byteTail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.n {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.n:]...)
		t.truncated = true
	}
	return len(p), nil
}

// junkLine returns the first remembered line that is not a JSON-RPC
// message (not JSON, or JSON without "jsonrpc":"2.0"), cut to maxLineBytes,
// or "" when every line is one. A first line cut by the buffer's limit is
// skipped.
func (t *byteTail) junkLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(string(t.buf), "\n")
	if t.truncated && len(lines) > 0 {
		lines = lines[1:]
	}
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" || isJSONRPC(l) {
			continue
		}
		if len(l) > maxLineBytes {
			l = l[:maxLineBytes]
		}
		return l
	}
	return ""
}

// isJSONRPC reports whether line is a JSON-RPC 2.0 message or a batch.
func isJSONRPC(line string) bool {
	if strings.HasPrefix(line, "[") {
		return json.Valid([]byte(line))
	}
	var m struct {
		JSONRPC string `json:"jsonrpc"`
	}
	return json.Unmarshal([]byte(line), &m) == nil && m.JSONRPC == "2.0"
}

package tokens

import (
	"crypto/sha256"
	"sync"
	"sync/atomic"
)

// Memo memoises another counter's counts by content: identical bytes are
// counted once. Keys are SHA-256 digests of the bytes, so memory grows with
// the number of distinct contents (about 40 bytes each), not their size.
// A Memo is safe for concurrent use.
type Memo struct {
	inner  Counter
	mu     sync.RWMutex
	counts map[[sha256.Size]byte]int64
	hits   atomic.Int64
	misses atomic.Int64
}

// NewMemo wraps c.
func NewMemo(c Counter) *Memo {
	return &Memo{inner: c, counts: make(map[[sha256.Size]byte]int64)}
}

// Name returns the wrapped counter's name: memoising does not change counts.
func (m *Memo) Name() string { return m.inner.Name() }

// Count returns the wrapped counter's count of b, computing it at most once
// per distinct content (two goroutines missing at once may both compute it;
// the result is the same).
func (m *Memo) Count(b []byte) int64 {
	key := sha256.Sum256(b)
	m.mu.RLock()
	n, ok := m.counts[key]
	m.mu.RUnlock()
	if ok {
		m.hits.Add(1)
		return n
	}
	m.misses.Add(1)
	n = m.inner.Count(b)
	m.mu.Lock()
	m.counts[key] = n
	m.mu.Unlock()
	return n
}

// MemoStats are a Memo's lookup counters.
type MemoStats struct {
	Hits    int64 `json:"hits"`
	Misses  int64 `json:"misses"`
	Entries int   `json:"entries"`
}

// Stats returns the hits, misses and number of distinct contents so far.
func (m *Memo) Stats() MemoStats {
	m.mu.RLock()
	n := len(m.counts)
	m.mu.RUnlock()
	return MemoStats{Hits: m.hits.Load(), Misses: m.misses.Load(), Entries: n}
}

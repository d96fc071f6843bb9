package sim

import "sync"

// Memo bounds: a ranker keeps at most maxMemoQueries results taking at
// most maxMemoBytes (queries, which can be whole user messages, and
// results, which can be the whole corpus, plus an allowance per entry);
// results larger than maxMemoEntry are not kept. When a bound would be
// exceeded the memo starts again empty.
const (
	maxMemoQueries = 2048
	maxMemoBytes   = 512 << 10
	maxMemoEntry   = maxMemoBytes / 16
	memoOverhead   = 64 // map slot, key and slice headers
)

// minNestedK is the shortest ranking the memo asks a nested ranker for: a
// search asks for its k results plus the warm tools it may skip, so k
// varies by strategy and grows during a session; one ranking of at least
// this length answers most of them.
const minNestedK = 32

// rankMemo memoises a ranker's results. Every strategy of a session, and
// many sessions, search with the same queries (recorded queries, the user's
// text, a tool name's words) over the same corpus, and a ranker is
// immutable with Rank a function of (query, k), so a memoised result is
// the one Rank would return: results do not depend on the memo's bounds.
// A nested ranker's (NestedRanker) results are kept by query alone, the
// longest asked for so far, and cut to each k.
type rankMemo struct {
	mu    sync.RWMutex
	m     map[rankKey][]int  // by (query, k), for rankers that are not nested
	cut   map[string]ranking // by query, for nested rankers
	bytes int
}

type rankKey struct {
	query string
	k     int
}

// ranking is Rank(query, k) of a nested ranker, with the k it was asked for.
type ranking struct {
	ids []int
	k   int
}

// covers reports whether the ranking holds Rank(query, k): k is at most
// the k it was asked for, or it holds every match (fewer than asked).
func (c ranking) covers(k int) bool { return k <= c.k || len(c.ids) < c.k }

// cut is Rank(query, k) of a ranking that covers k, capacity clipped.
func (c ranking) cut(k int) []int {
	n := min(k, len(c.ids))
	return c.ids[:n:n]
}

// rank returns r.Rank(query, k). The result is shared with the memo: the
// caller must not change it (its capacity is its length, so appending to
// it copies). The memo holds its own copy of each result, so the ranker
// cannot change it either. A k larger than the corpus is the corpus size
// (Ranker's contract), so that searches asking for "everything" with
// different k share one result.
func (e *rankerEntry) rank(query string, k int) []int {
	k = min(k, len(e.tools))
	if e.nested {
		return e.rankNested(query, k)
	}
	key := rankKey{query, k}
	m := &e.memo
	m.mu.RLock()
	res, ok := m.m[key]
	m.mu.RUnlock()
	if ok {
		return res
	}
	res = clipped(e.r.Rank(query, k))
	size := len(query) + 8*len(res) + memoOverhead
	if size > maxMemoEntry {
		return res
	}
	m.mu.Lock()
	if m.m == nil {
		m.m = make(map[rankKey][]int)
	}
	m.makeRoom(size)
	if _, ok := m.m[key]; !ok {
		m.m[key] = res
		m.bytes += size
	}
	m.mu.Unlock()
	return res
}

// rankNested is rank for a nested ranker.
func (e *rankerEntry) rankNested(query string, k int) []int {
	return e.ranking(query, k).cut(k)
}

// ranking returns a ranking of query by a nested ranker that covers k (at
// most the corpus size): the memoised one, else a new one asked for at
// least minNestedK results (and twice as many as the last time when that
// no longer covers k). The ranking is shared with the memo: callers must
// not change it.
func (e *rankerEntry) ranking(query string, k int) ranking {
	m := &e.memo
	m.mu.RLock()
	c, ok := m.cut[query]
	m.mu.RUnlock()
	if ok && c.covers(k) {
		return c
	}
	kc := min(len(e.tools), max(k, minNestedK, 2*c.k))
	c = ranking{ids: clipped(e.r.Rank(query, kc)), k: kc}
	size := len(query) + 8*len(c.ids) + memoOverhead
	if size > maxMemoEntry {
		return c
	}
	m.mu.Lock()
	if m.cut == nil {
		m.cut = make(map[string]ranking)
	}
	if old, had := m.cut[query]; !had || old.k < c.k { // else another worker kept a longer one
		if had {
			m.bytes -= len(query) + 8*len(old.ids) + memoOverhead
		}
		m.makeRoom(size)
		m.cut[query] = c
		m.bytes += size
	}
	m.mu.Unlock()
	return c
}

// makeRoom empties the memo when an entry of size bytes would exceed its
// bounds. m.mu is held.
func (m *rankMemo) makeRoom(size int) {
	if len(m.m)+len(m.cut) < maxMemoQueries && m.bytes+size <= maxMemoBytes {
		return
	}
	clear(m.m) // keeps the maps' memory: they fill up again
	clear(m.cut)
	m.bytes = 0
}

// clipped copies ids into a slice whose capacity is its length.
func clipped(ids []int) []int {
	if len(ids) == 0 {
		return nil
	}
	return append(make([]int, 0, len(ids)), ids...)
}

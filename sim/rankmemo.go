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

// rankMemo memoises a ranker's results. Every strategy of a session, and
// many sessions, search with the same queries (recorded queries, the user's
// text, a tool name's words) over the same corpus, and a ranker is
// immutable with Rank a function of (query, k), so a memoised result is
// the one Rank would return: results do not depend on the memo's bounds.
type rankMemo struct {
	mu    sync.RWMutex
	m     map[rankKey][]int
	bytes int
}

type rankKey struct {
	query string
	k     int
}

// rank appends r.Rank(query, k) to dst. The memo holds its own copy of
// each result, so neither the ranker nor the caller can change it. A k
// larger than the corpus is the corpus size (Ranker's contract), so that
// searches asking for "everything" with different k share one result.
func (e *rankerEntry) rank(dst []int, query string, k int) []int {
	k = min(k, len(e.tools))
	key := rankKey{query, k}
	m := &e.memo
	m.mu.RLock()
	res, ok := m.m[key]
	m.mu.RUnlock()
	if ok {
		return append(dst, res...)
	}
	res = append([]int{}, e.r.Rank(query, k)...)
	size := len(query) + 8*len(res) + memoOverhead
	if size > maxMemoEntry {
		return append(dst, res...)
	}
	m.mu.Lock()
	if m.m == nil {
		m.m = make(map[rankKey][]int)
	}
	if len(m.m) >= maxMemoQueries || m.bytes+size > maxMemoBytes {
		clear(m.m) // keeps the map's memory: it fills up again
		m.bytes = 0
	}
	if _, ok := m.m[key]; !ok {
		m.m[key] = res
		m.bytes += size
	}
	m.mu.Unlock()
	return append(dst, res...)
}

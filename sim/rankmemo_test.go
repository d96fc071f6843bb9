package sim

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// prefixRanker ranks the documents whose name starts with the query, in
// corpus order. With reuse it hands out its own buffer, overwritten by the
// next call (not safe for concurrent use then), so a memo that kept its
// results without copying them would see them change.
type prefixRanker struct {
	names []string
	calls atomic.Int64
	reuse bool
	buf   []int
}

func (p *prefixRanker) Rank(q string, k int) []int {
	p.calls.Add(1)
	var out []int
	if p.reuse {
		out = p.buf[:0]
	}
	for i, n := range p.names {
		if len(out) < k && strings.HasPrefix(n, q) {
			out = append(out, i)
		}
	}
	if p.reuse {
		p.buf = out
	}
	return out
}

// direct is what Rank returns, copied.
func (p *prefixRanker) direct(q string, k int) []int {
	return append([]int{}, p.Rank(q, k)...)
}

// newMemoEntry is a ranker entry over names; nested says whether its
// memo treats the ranker as nested (prefixRanker's rankings are: corpus
// order, cut to k).
func newMemoEntry(nested bool, names ...string) (*rankerEntry, *prefixRanker) {
	p := &prefixRanker{names: names}
	e := &rankerEntry{r: p, nested: nested}
	for _, n := range names {
		e.tools = append(e.tools, &Tool{name: n})
	}
	return e, p
}

// memoModes runs f with a memo keyed by (query, k) and with one for
// nested rankers.
func memoModes(t *testing.T, f func(t *testing.T, nested bool)) {
	for _, nested := range []bool{false, true} {
		t.Run(fmt.Sprintf("nested=%v", nested), func(t *testing.T) { f(t, nested) })
	}
}

func TestRankMemoReturnsWhatRankReturns(t *testing.T) {
	memoModes(t, func(t *testing.T, nested bool) {
		e, p := newMemoEntry(nested, "read_file", "read_dir", "write_file", "remove", "rename", "search")
		for _, tc := range []struct {
			q string
			k int
		}{
			{"re", 10}, {"re", 2}, {"re", 6}, {"read", 1}, {"", 3}, {"x", 5}, {"re", 100},
		} {
			want := p.direct(tc.q, min(tc.k, len(p.names)))
			for round := range 2 { // the second from the memo
				before := p.calls.Load()
				got := e.rank(tc.q, tc.k)
				if !slices.Equal(got, want) {
					t.Errorf("rank(%q, %d) round %d = %v, want %v", tc.q, tc.k, round, got, want)
				}
				if round == 1 && p.calls.Load() != before {
					t.Errorf("rank(%q, %d) called the ranker again", tc.q, tc.k)
				}
			}
		}
		// A k past the corpus size is the corpus size: one ranker call.
		before := p.calls.Load()
		e.rank("rem", 50)
		e.rank("rem", 60)
		if n := p.calls.Load() - before; n != 1 {
			t.Errorf("k 50 and 60 over 6 tools: %d ranker calls, want 1", n)
		}
	})
}

// TestNestedMemoCutsOneRanking pins the memo of a nested ranker: searches
// for one query with any k are cut from one ranking (of at least
// minNestedK results, longer when a larger k is asked for) and equal what
// the ranker returns for that k.
func TestNestedMemoCutsOneRanking(t *testing.T) {
	names := make([]string, 3*minNestedK)
	for i := range names {
		names[i] = fmt.Sprintf("t%03d", i)
	}
	e, p := newMemoEntry(true, names...)
	ref := &prefixRanker{names: names}
	calls := 0
	for _, tc := range []struct {
		q     string
		k     int
		calls int // ranker calls so far
	}{
		{"t", 5, 1}, {"t", 1, 1}, {"t", minNestedK, 1}, // within the first ranking
		{"t", minNestedK + 1, 2}, {"t", 2 * minNestedK, 2}, // one longer ranking
		{"t", 2*minNestedK + 1, 3}, {"t", 10 * minNestedK, 3}, {"t", 7, 3}, // the whole corpus
		{"t00", 40, 4}, {"t00", 3, 4}, {"t00", 1000, 4}, // fewer matches than asked: every k
		{"none", 1, 5}, {"none", 1000, 5},
	} {
		if got, want := e.rank(tc.q, tc.k), ref.Rank(tc.q, min(tc.k, len(names))); !slices.Equal(got, want) {
			t.Errorf("rank(%q, %d) = %v, want %v", tc.q, tc.k, got, want)
		}
		if calls = int(p.calls.Load()); calls != tc.calls {
			t.Errorf("after rank(%q, %d): %d ranker calls, want %d", tc.q, tc.k, calls, tc.calls)
		}
	}
}

func TestRankMemoDoesNotAlias(t *testing.T) {
	memoModes(t, func(t *testing.T, nested bool) {
		e, p := newMemoEntry(nested, "aa", "ab", "ba")
		p.reuse = true
		got := e.rank("a", 5)
		_ = append(got, 99) // the caller appends to its result
		p.Rank("b", 5)      // the ranker reuses its buffer
		p.buf[0] = 77       // and scribbles on it
		again := e.rank("a", 5)
		if want := []int{0, 1}; !slices.Equal(again, want) {
			t.Errorf("memoised result = %v after writes to earlier results, want %v", again, want)
		}
		if short := e.rank("a", 1); nested && cap(short) != 1 {
			t.Errorf("a cut ranking has capacity %d, want 1 (appending must not write into the memo)", cap(short))
		}
	})
}

func TestRankMemoIsBounded(t *testing.T) {
	memoModes(t, func(t *testing.T, nested bool) {
		e, p := newMemoEntry(nested, "q1", "q2", "q3")
		for i := range 3 * maxMemoQueries {
			q := fmt.Sprintf("q%d", i%7)
			if got, want := e.rank(q, 2), p.direct(q, 2); !slices.Equal(got, want) {
				t.Fatalf("rank(%q) = %v, want %v", q, got, want)
			}
			e.rank(fmt.Sprintf("unique-%d", i), 2)
			if n := len(e.memo.m) + len(e.memo.cut); n > maxMemoQueries {
				t.Fatalf("after %d queries the memo holds %d, want at most %d", 2*i+2, n, maxMemoQueries)
			}
			if e.memo.bytes > maxMemoBytes {
				t.Fatalf("memo holds %d bytes of queries, want at most %d", e.memo.bytes, maxMemoBytes)
			}
		}
		long := strings.Repeat("q", maxMemoEntry)
		e.rank(long, 2)
		_, kept := e.memo.m[rankKey{long, 2}]
		_, cut := e.memo.cut[long]
		if kept || cut {
			t.Errorf("a query of %d bytes was kept", len(long))
		}
	})
}

func TestRankMemoConcurrent(t *testing.T) {
	memoModes(t, func(t *testing.T, nested bool) {
		e, p := newMemoEntry(nested, "a", "ab", "abc", "b", "bc")
		ref := &prefixRanker{names: p.names}
		var wg sync.WaitGroup
		for w := range 4 {
			wg.Go(func() {
				for i := range 500 {
					q := []string{"a", "ab", "b", "c", ""}[(i+w)%5]
					k := 1 + (i+w)%4
					if got, want := e.rank(q, k), ref.Rank(q, k); !slices.Equal(got, want) {
						t.Errorf("rank(%q, %d) = %v, want %v", q, k, got, want)
						return
					}
				}
			})
		}
		wg.Wait()
		if n := p.calls.Load(); n > 4*20 {
			t.Errorf("%d ranker calls for 20 distinct (query, k), want them memoised", n)
		}
		if nested && e.memo.bytes != 0 && len(e.memo.cut) != 5 {
			t.Errorf("nested memo holds %d queries, want 5", len(e.memo.cut))
		}
	})
}

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

func newMemoEntry(names ...string) (*rankerEntry, *prefixRanker) {
	p := &prefixRanker{names: names}
	e := &rankerEntry{r: p}
	for _, n := range names {
		e.tools = append(e.tools, &Tool{name: n})
	}
	return e, p
}

func TestRankMemoReturnsWhatRankReturns(t *testing.T) {
	e, p := newMemoEntry("read_file", "read_dir", "write_file", "remove", "rename", "search")
	for _, tc := range []struct {
		q string
		k int
	}{
		{"re", 10}, {"re", 2}, {"re", 6}, {"read", 1}, {"", 3}, {"x", 5}, {"re", 100},
	} {
		want := p.direct(tc.q, min(tc.k, len(p.names)))
		for round := range 2 { // the second from the memo
			before := p.calls.Load()
			got := e.rank([]int{-1}, tc.q, tc.k)
			if !slices.Equal(got[1:], want) || got[0] != -1 {
				t.Errorf("rank(%q, %d) round %d = %v, want [-1] + %v", tc.q, tc.k, round, got, want)
			}
			if round == 1 && p.calls.Load() != before {
				t.Errorf("rank(%q, %d) called the ranker again", tc.q, tc.k)
			}
		}
	}
	// A k past the corpus size is the corpus size: one ranker call.
	before := p.calls.Load()
	e.rank(nil, "rem", 50)
	e.rank(nil, "rem", 60)
	if n := p.calls.Load() - before; n != 1 {
		t.Errorf("k 50 and 60 over 6 tools: %d ranker calls, want 1", n)
	}
}

func TestRankMemoDoesNotAlias(t *testing.T) {
	e, p := newMemoEntry("aa", "ab", "ba")
	p.reuse = true
	got := e.rank(nil, "a", 5)
	got[0] = 99    // the caller scribbles on its result
	p.Rank("b", 5) // the ranker reuses its buffer
	p.buf[0] = 77  // and scribbles on it
	again := e.rank(nil, "a", 5)
	if want := []int{0, 1}; !slices.Equal(again, want) {
		t.Errorf("memoised result = %v after writes to earlier results, want %v", again, want)
	}
}

func TestRankMemoIsBounded(t *testing.T) {
	e, p := newMemoEntry("q1", "q2", "q3")
	for i := range 3 * maxMemoQueries {
		q := fmt.Sprintf("q%d", i%7)
		if got, want := e.rank(nil, q, 2), p.direct(q, 2); !slices.Equal(got, want) {
			t.Fatalf("rank(%q) = %v, want %v", q, got, want)
		}
		e.rank(nil, fmt.Sprintf("unique-%d", i), 2)
		if n := len(e.memo.m); n > maxMemoQueries {
			t.Fatalf("after %d queries the memo holds %d, want at most %d", 2*i+2, n, maxMemoQueries)
		}
		if e.memo.bytes > maxMemoBytes {
			t.Fatalf("memo holds %d bytes of queries, want at most %d", e.memo.bytes, maxMemoBytes)
		}
	}
	long := strings.Repeat("q", maxMemoEntry)
	e.rank(nil, long, 2)
	if _, ok := e.memo.m[rankKey{long, 2}]; ok {
		t.Errorf("a query of %d bytes was kept", len(long))
	}
}

func TestRankMemoConcurrent(t *testing.T) {
	e, p := newMemoEntry("a", "ab", "abc", "b", "bc")
	ref := &prefixRanker{names: p.names}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 500 {
				q := []string{"a", "ab", "b", "c", ""}[(i+w)%5]
				k := 1 + (i+w)%4
				if got, want := e.rank(nil, q, k), ref.Rank(q, k); !slices.Equal(got, want) {
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
}

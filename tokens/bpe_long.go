package tokens

import "math"

// longPiece is the length from which pieceTokens merges through a heap:
// the pair-by-pair scan costs O(n²) for a piece of n bytes, the heap
// O(n log n). A long piece comes from text without word breaks: a run of
// CJK characters or box drawing, a line of '=', a base64 blob.
const longPiece = 64

// mergeCand is a candidate merge in heapTokens: the part starting at byte
// pos with its right neighbour, whose concatenation has rank rank.
type mergeCand struct{ rank, pos int32 }

// before orders candidates as the pair-by-pair scan picks them: the lowest
// rank first, the leftmost on ties.
func (a mergeCand) before(b mergeCand) bool {
	return a.rank < b.rank || a.rank == b.rank && a.pos < b.pos
}

// heapTokens returns the number of tokens of piece p, merging exactly as
// scanTokens does (always the lowest-ranked adjacent pair, the leftmost on
// ties) but finding that pair in a binary heap. Parts are identified by the
// byte where they start, which no merge changes; a heap entry is stale
// when its part has been merged into its left neighbour or its pair's rank
// has changed since, and is skipped when popped. Every live pair has an
// entry with its current rank, so the first live entry popped is the pair
// the scan would merge. Positions are int32: a piece is at most 2 GB (a
// longer one is counted by scanTokens, which would take years anyway).
func (b *bpe) heapTokens(p string) int {
	if len(p) > math.MaxInt32-1 {
		return b.scanTokens(p)
	}
	const none = math.MaxInt32
	n := int32(len(p))
	next := make([]int32, n) // start of the following part (n at the end; -1 once merged away)
	prev := make([]int32, n) // start of the preceding part (-1 at the start)
	rank := make([]int32, n) // rank of the part starting here merged with the next
	pairRank := func(i int32) int32 {
		j := next[i]
		if j >= n {
			return none
		}
		if r, ok := b.ranks[p[i:next[j]]]; ok && r < none {
			return int32(r)
		}
		return none
	}
	for i := range n {
		next[i], prev[i] = i+1, i-1
	}
	h := make(candHeap, 0, n)
	for i := range n {
		rank[i] = pairRank(i)
		if rank[i] != none {
			h = append(h, mergeCand{rank[i], i})
		}
	}
	h.init()
	parts := int(n)
	for len(h) > 0 {
		c := h.pop()
		if next[c.pos] < 0 || rank[c.pos] != c.rank {
			continue // stale
		}
		// Merge the part at c.pos with the next one.
		i, j := c.pos, next[c.pos]
		next[i], next[j] = next[j], -1
		if next[i] < n {
			prev[next[i]] = i
		}
		parts--
		if rank[i] = pairRank(i); rank[i] != none {
			h.push(mergeCand{rank[i], i})
		}
		if k := prev[i]; k >= 0 {
			if rank[k] = pairRank(k); rank[k] != none {
				h.push(mergeCand{rank[k], k})
			}
		}
	}
	return parts
}

// candHeap is a binary min-heap of merge candidates (ordered by before).
type candHeap []mergeCand

func (h candHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *candHeap) push(c mergeCand) {
	*h = append(*h, c)
	s := *h
	for i := len(s) - 1; i > 0; {
		parent := (i - 1) / 2
		if !s[i].before(s[parent]) {
			break
		}
		s[i], s[parent] = s[parent], s[i]
		i = parent
	}
}

func (h *candHeap) pop() mergeCand {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	*h = s[:last]
	h.down(0)
	return top
}

func (h candHeap) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && h[r].before(h[l]) {
			m = r
		}
		if !h[m].before(h[i]) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

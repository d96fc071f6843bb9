package tokens

import (
	"math"
	"strings"
	"unicode/utf8"
)

// bpe counts tokens with a byte-pair encoding: a split function that cuts
// text into pieces and the merge ranks of the encoding's vocabulary. It
// counts, it does not encode: a piece that is itself in the vocabulary is
// one token (most pieces are), any other is merged pair by pair, always
// merging the adjacent pair whose concatenation has the lowest rank (the
// leftmost on ties) until no adjacent pair is in the vocabulary.
type bpe struct {
	ranks  map[string]int
	next   func(s string, i int) int
	caches cachePool
}

// count returns the number of tokens of s.
func (b *bpe) count(s string) int {
	if !utf8.ValidString(s) {
		s = replaceInvalid(s)
	}
	c := b.caches.get()
	n := 0
	for i := 0; i < len(s); {
		j := b.next(s, i)
		p := s[i:j]
		i = j
		if len(p) > cacheKeyMax {
			n += b.pieceTokens(p)
			continue
		}
		k, ok := c.get(p)
		if !ok {
			k = b.pieceTokens(p)
			c.put(p, k)
		}
		n += k
	}
	b.caches.put(c)
	return n
}

// replaceInvalid returns s with every byte that is not part of a valid
// UTF-8 sequence replaced by U+FFFD, one per byte, as converting s to runes
// does (which is what the reference tokenizer counts).
func replaceInvalid(s string) string {
	var sb strings.Builder
	sb.Grow(len(s) + 16)
	for _, r := range s {
		sb.WriteRune(r)
	}
	return sb.String()
}

// pieceTokens returns the number of tokens of one piece.
func (b *bpe) pieceTokens(p string) int {
	if len(p) <= 1 {
		return len(p)
	}
	if _, ok := b.ranks[p]; ok {
		return 1
	}
	if len(p) >= longPiece {
		return b.heapTokens(p)
	}
	return b.scanTokens(p)
}

// scanTokens merges p pair by pair, finding the lowest-ranked pair by a
// scan of all pairs (tiktoken's own way): fast for short pieces, O(n²)
// for long ones.
func (b *bpe) scanTokens(p string) int {
	// starts[k] is where part k begins; part k ends where part k+1 begins
	// (the last entry is len(p)). rank[k] is the rank of parts k and k+1
	// merged, or none.
	const none = math.MaxInt
	var startBuf, rankBuf [64]int
	starts, rank := startBuf[:0], rankBuf[:0]
	for k := 0; k <= len(p); k++ {
		starts = append(starts, k)
	}
	pair := func(k int) int {
		if k+2 >= len(starts) {
			return none
		}
		if r, ok := b.ranks[p[starts[k]:starts[k+2]]]; ok {
			return r
		}
		return none
	}
	for k := 0; k < len(starts)-1; k++ {
		rank = append(rank, pair(k))
	}
	for {
		best, at := none, -1
		for k, r := range rank {
			if r < best {
				best, at = r, k
			}
		}
		if at < 0 {
			break
		}
		// Merge parts at and at+1: drop the boundary between them.
		starts = append(starts[:at+1], starts[at+2:]...)
		rank = append(rank[:at], rank[at+1:]...)
		rank[at] = pair(at)
		if at > 0 {
			rank[at-1] = pair(at - 1)
		}
	}
	return len(starts) - 1
}

package search

import (
	"cmp"
	"slices"
)

// scored is a document with its score, kept by value so that ordering
// compares in registers instead of looking scores up by document.
type scored struct {
	score float64
	doc   int32
}

// rankedBefore reports whether a ranks before b: higher score first
// (compared with cmp.Compare), then lower corpus index. Documents are
// distinct, so this is a strict total order and any correct selection or
// sort yields the one same sequence.
func rankedBefore(a, b scored) bool {
	if c := cmp.Compare(a.score, b.score); c != 0 {
		return c > 0
	}
	return a.doc < b.doc
}

// compareRanked is rankedBefore as a three-way comparison for slices.SortFunc.
func compareRanked(a, b scored) int {
	if c := cmp.Compare(b.score, a.score); c != 0 {
		return c
	}
	return cmp.Compare(a.doc, b.doc)
}

// topK reorders hs so that hs[:min(k, len(hs))] holds its best k entries
// in rank order and returns that prefix; the rest of hs is scratch
// afterwards (the heap overwrites entries, so it may hold repeats). Small k (the common case: a search asks for about 8 to
// 20 tools among tens or hundreds of matches) keeps a bounded heap of the
// k best seen, O(n log k), and sorts only those. Sorting everything is
// cheaper when k is half of len(hs) or more, or len(hs) is small
// (BenchmarkTopKChoice: the heap wins 1.2× at n = 40, k = 20 and 4× at
// n = 130, k = 8, and loses at n = 20, k = 8 and n = 80, k = 65).
func topK(hs []scored, k int) []scored {
	if k <= 0 {
		return hs[:0]
	}
	if k*2 >= len(hs) || len(hs) <= 24 {
		slices.SortFunc(hs, compareRanked)
		return hs[:min(k, len(hs))]
	}
	return heapTopK(hs, k)
}

// heapTopK is topK for 0 < k < len(hs) by a bounded heap.
func heapTopK(hs []scored, k int) []scored {
	// hs[:k] is a heap whose root is the worst entry kept: every entry
	// ranks after none of its children.
	h := hs[:k]
	for i := k/2 - 1; i >= 0; i-- {
		siftDownWorst(h, i)
	}
	for _, x := range hs[k:] {
		if rankedBefore(x, h[0]) {
			h[0] = x
			siftDownWorst(h, 0)
		}
	}
	slices.SortFunc(h, compareRanked)
	return h
}

// siftDownWorst restores the heap property below i in a heap with the
// worst-ranked entry at the root.
func siftDownWorst(h []scored, i int) {
	for {
		w := 2*i + 1
		if w >= len(h) {
			return
		}
		if r := w + 1; r < len(h) && rankedBefore(h[w], h[r]) {
			w = r // the right child ranks after the left one
		}
		if !rankedBefore(h[i], h[w]) {
			return
		}
		h[i], h[w] = h[w], h[i]
		i = w
	}
}

package search

import (
	"cmp"
	"math/bits"
	"slices"
)

// scored is a document with its score, kept by value so that ordering
// compares in registers instead of looking scores up by document.
type scored struct {
	score float64
	doc   int32
}

// rankedBefore reports whether a ranks before b: higher score first
// (ordered as cmp.Compare orders floats: NaN below every number, -0 equal
// to +0), then lower corpus index. Documents are distinct, so this is a
// strict total order and any correct selection or sort yields the one same
// sequence. The comparisons are spelled out so that numbers, the common
// case, cost one or two of them.
func rankedBefore(a, b scored) bool {
	switch {
	case a.score > b.score:
		return true
	case a.score < b.score:
		return false
	case a.score == b.score:
		return a.doc < b.doc
	}
	// One score at least is NaN.
	aNaN, bNaN := a.score != a.score, b.score != b.score
	if aNaN && bNaN {
		return a.doc < b.doc
	}
	return bNaN
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
// afterwards. It selects the best k (selectBest, linear on average) and
// sorts only those; small inputs are sorted whole (BenchmarkTopKChoice:
// selection then sort beats a bounded heap of the k best from about 30
// matches, and a full sort from about 20).
func topK(hs []scored, k int) []scored {
	if k <= 0 {
		return hs[:0]
	}
	if k < len(hs) && len(hs) > sortWhole {
		selectBest(hs, k)
		hs = hs[:k]
	}
	sortRanked(hs)
	return hs[:min(k, len(hs))]
}

// sortWhole is the most entries topK sorts whole.
const sortWhole = 16

// sortRanked sorts hs in rank order: by binary insertion when short (a
// search's k best), else with slices.SortFunc.
func sortRanked(hs []scored) {
	if len(hs) > 64 {
		slices.SortFunc(hs, compareRanked)
		return
	}
	for i := 1; i < len(hs); i++ {
		x := hs[i]
		if !rankedBefore(x, hs[i-1]) {
			continue // in place
		}
		lo, hi := 0, i-1 // x goes before the first entry it ranks before: hs[i-1] or one earlier
		for lo < hi {
			if m := int(uint(lo+hi) >> 1); rankedBefore(x, hs[m]) {
				hi = m
			} else {
				lo = m + 1
			}
		}
		copy(hs[lo+1:i+1], hs[lo:i])
		hs[lo] = x
	}
}

// selectBest reorders hs (0 < k < len(hs)) so that hs[:k] holds its best
// k entries, in no particular order: quickselect with a median-of-three
// pivot, and a bounded heap if the partitions keep coming out lopsided.
func selectBest(hs []scored, k int) {
	selectWithin(hs, k, 2*bits.Len(uint(len(hs))))
}

// selectWithin is selectBest with at most budget partitions.
func selectWithin(hs []scored, k, budget int) {
	lo, hi := 0, len(hs) // hs[:lo] rank before hs[lo:hi], which rank before hs[hi:]
	for ; lo < k && hi-lo > sortWhole; budget-- {
		if budget == 0 {
			heapTopK(hs[lo:hi], k-lo)
			return
		}
		p := lo + partition(hs[lo:hi])
		switch {
		case p == k:
			return
		case p < k:
			lo = p + 1
		default:
			hi = p
		}
	}
	sortRanked(hs[lo:hi])
}

// partition reorders h (at least 3 entries) around a pivot, the median of
// its first, middle and last entries, and returns the pivot's index: the
// entries before it rank before it, those after rank after.
func partition(h []scored) int {
	m, last := len(h)/2, len(h)-1
	if rankedBefore(h[m], h[0]) {
		h[m], h[0] = h[0], h[m]
	}
	if rankedBefore(h[last], h[0]) {
		h[last], h[0] = h[0], h[last]
	}
	if rankedBefore(h[last], h[m]) {
		h[last], h[m] = h[m], h[last]
	}
	h[m], h[last] = h[last], h[m] // the median is the pivot, kept at the end
	pivot, i := h[last], 0
	for j := range last {
		if rankedBefore(h[j], pivot) {
			h[i], h[j] = h[j], h[i]
			i++
		}
	}
	h[i], h[last] = h[last], h[i]
	return i
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

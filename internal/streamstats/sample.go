package streamstats

import (
	"container/heap"
	"slices"
)

// Sample is a bottom-k sample: of every unit offered, it keeps the K with
// the smallest (priority, index). With priorities drawn from a seeded hash
// of the unit's index (Priority), it is a uniform sample without
// replacement that does not depend on the order units are offered in, and
// two samples merge into the sample of the union. K ≤ 0 keeps every unit.
type Sample[T any] struct {
	K int
	// Items is a max-heap on (Priority, Index) (exported for encoding).
	Items []SampleItem[T]
}

// SampleItem is one kept unit.
type SampleItem[T any] struct {
	Priority uint64
	Index    int64
	Value    T
}

// NewSample returns an empty sample of at most k units (k ≤ 0: all).
func NewSample[T any](k int) *Sample[T] { return &Sample[T]{K: k} }

// Priority is the seeded pseudo-random priority of unit idx.
func Priority(seed uint64, idx int64) uint64 {
	return splitmix(seed ^ splitmix(uint64(idx)+0x632be59bd9b4e019))
}

// Wants reports whether a unit of priority pri and index idx would be kept
// (so a caller can skip building its value).
func (s *Sample[T]) Wants(pri uint64, idx int64) bool {
	if s.K <= 0 || len(s.Items) < s.K {
		return true
	}
	top := s.Items[0]
	return less(pri, idx, top.Priority, top.Index)
}

// Offer adds a unit; it is kept only while among the K smallest.
func (s *Sample[T]) Offer(pri uint64, idx int64, v T) {
	if !s.Wants(pri, idx) {
		return
	}
	h := (*itemHeap[T])(&s.Items)
	heap.Push(h, SampleItem[T]{Priority: pri, Index: idx, Value: v})
	if s.K > 0 && len(s.Items) > s.K {
		heap.Pop(h)
	}
}

// Merge offers every unit of o (which may share values with s afterwards).
func (s *Sample[T]) Merge(o *Sample[T]) {
	for _, it := range o.Items {
		s.Offer(it.Priority, it.Index, it.Value)
	}
}

// Len returns the number of units kept.
func (s *Sample[T]) Len() int { return len(s.Items) }

// Sorted returns the kept units in index order.
func (s *Sample[T]) Sorted() []SampleItem[T] {
	out := slices.Clone(s.Items)
	slices.SortFunc(out, func(a, b SampleItem[T]) int {
		switch {
		case a.Index < b.Index:
			return -1
		case a.Index > b.Index:
			return 1
		}
		return 0
	})
	return out
}

func less(p1 uint64, i1 int64, p2 uint64, i2 int64) bool {
	return p1 < p2 || (p1 == p2 && i1 < i2)
}

// itemHeap is a max-heap of items on (Priority, Index).
type itemHeap[T any] []SampleItem[T]

func (h itemHeap[T]) Len() int { return len(h) }
func (h itemHeap[T]) Less(i, j int) bool {
	return less(h[j].Priority, h[j].Index, h[i].Priority, h[i].Index)
}
func (h itemHeap[T]) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *itemHeap[T]) Push(x any)   { *h = append(*h, x.(SampleItem[T])) }
func (h *itemHeap[T]) Pop() any {
	old := *h
	it := old[len(old)-1]
	*h = old[:len(old)-1]
	return it
}

// splitmix is the SplitMix64 finaliser.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

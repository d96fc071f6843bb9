package sim

import "sync"

// DocMemo keeps what rankers derive from one tool's document (its tokens,
// its parameters), so that the rankers of a run built over corpora that
// share tools derive each tool's once. The engine gives every ToolDoc of
// one tool the same DocMemo; a ToolDoc without one (nil) shares nothing.
// A value must be a function of the document and its key alone: whichever
// ranker stores it first, every ranker reads the same.
type DocMemo struct {
	mu      sync.Mutex
	entries []memoEntry // a few: one per way rankers read a document
}

type memoEntry struct{ key, val any }

// get returns the value stored under key; d.mu must be held.
func (d *DocMemo) get(key any) (any, bool) {
	for _, e := range d.entries {
		if e.key == key {
			return e.val, true
		}
	}
	return nil, false
}

// Load returns the value stored under key (compared with ==), calling
// build and storing its result when there is none. On a nil DocMemo it returns build(). Values
// are shared: callers must not modify them.
func (d *DocMemo) Load(key any, build func() any) any {
	if d == nil {
		return build()
	}
	d.mu.Lock()
	v, ok := d.get(key)
	d.mu.Unlock()
	if ok {
		return v
	}
	v = build()
	d.mu.Lock()
	defer d.mu.Unlock()
	if w, ok := d.get(key); ok {
		return w // another ranker stored it meanwhile: keep one value
	}
	d.entries = append(d.entries, memoEntry{key, v})
	return v
}

package sim

// warmEntry is one loaded schema: the tool as it was when loaded.
type warmEntry struct {
	ti       *toolInfo // schema snapshot at load time
	loadedAt int       // load sequence number
	usedAt   int       // last use sequence number
}

// warmSet is a session's memory of loaded schemas, keyed by tool identity
// (server + name). Under fingerprint keying an entry only serves the exact
// schema it holds; under name keying it serves whatever the name now means.
type warmSet struct {
	cfg     WarmSet
	entries []warmEntry // in load order
	tokens  int64
	seq     int
	// at indexes entries by tool identity: at[ident] is the entry's index
	// plus one, 0 when the tool is not warm (idents past its end too).
	at []int32
}

func (w *warmSet) reset(cfg WarmSet) {
	for _, e := range w.entries {
		w.at[e.ti.ident] = 0
	}
	w.cfg = cfg
	w.entries = w.entries[:0]
	w.tokens = 0
	w.seq = 0
}

func (w *warmSet) find(ident int32) int {
	if int(ident) < len(w.at) {
		return int(w.at[ident]) - 1
	}
	return -1
}

// reindex updates at for entries[from:] (after entries moved).
func (w *warmSet) reindex(from int) {
	for i := from; i < len(w.entries); i++ {
		id := int(w.entries[i].ti.ident)
		if id >= len(w.at) {
			w.at = append(w.at, make([]int32, id+1-len(w.at))...)
		}
		w.at[id] = int32(i + 1)
	}
}

// touch marks a tool as used now (for LRU eviction).
func (w *warmSet) touch(ident int32) {
	if i := w.find(ident); i >= 0 {
		w.seq++
		w.entries[i].usedAt = w.seq
	}
}

// add loads ti; it returns the tools evicted to respect the limits.
func (w *warmSet) add(ti *toolInfo) (evicted int) {
	w.seq++
	if i := w.find(ti.ident); i >= 0 {
		w.tokens += ti.tokens - w.entries[i].ti.tokens
		w.entries[i] = warmEntry{ti: ti, loadedAt: w.seq, usedAt: w.seq}
	} else {
		w.entries = append(w.entries, warmEntry{ti: ti, loadedAt: w.seq, usedAt: w.seq})
		w.reindex(len(w.entries) - 1)
		w.tokens += ti.tokens
	}
	for w.over() && len(w.entries) > 1 {
		w.evictOne()
		evicted++
	}
	return evicted
}

func (w *warmSet) over() bool {
	return (w.cfg.MaxTools > 0 && len(w.entries) > w.cfg.MaxTools) ||
		(w.cfg.MaxTokens > 0 && w.tokens > w.cfg.MaxTokens)
}

// evictOne removes the least recently loaded (or used) entry, never the newest load.
func (w *warmSet) evictOne() {
	newest := 0
	for i := range w.entries {
		if w.entries[i].loadedAt > w.entries[newest].loadedAt {
			newest = i
		}
	}
	victim := -1
	for i := range w.entries {
		if i == newest {
			continue
		}
		if victim < 0 || w.key(i) < w.key(victim) {
			victim = i
		}
	}
	if victim < 0 {
		return
	}
	w.tokens -= w.entries[victim].ti.tokens
	w.at[w.entries[victim].ti.ident] = 0
	w.entries = append(w.entries[:victim], w.entries[victim+1:]...)
	w.reindex(victim)
}

func (w *warmSet) key(i int) int {
	if w.cfg.Eviction == "lru" {
		return w.entries[i].usedAt
	}
	return w.entries[i].loadedAt
}

// dropChanged removes fingerprint-keyed entries whose server now serves a
// different schema (or no longer serves the tool); it returns how many.
func (w *warmSet) dropChanged(served func(server, name string) *toolInfo) int {
	n := 0
	out := w.entries[:0]
	for _, e := range w.entries {
		cur := served(e.ti.server, e.ti.name)
		if cur == nil || cur.fp != e.ti.fp {
			w.tokens -= e.ti.tokens
			w.at[e.ti.ident] = 0
			n++
			continue
		}
		out = append(out, e)
	}
	w.entries = out
	w.reindex(0)
	return n
}

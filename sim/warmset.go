package sim

// Keying says which loaded schemas survive a change of the registry (a
// server moving to another catalog version during a session).
type Keying interface {
	// Keep reports whether a warm entry holding the schema held still
	// serves its tool now that the registry serves served for it (nil: the
	// tool is no longer served). A kept entry keeps held: the model goes
	// on seeing the schema it loaded.
	Keep(held, served *Tool) bool
}

// Eviction chooses which entry leaves a warm set over its caps.
type Eviction interface {
	// Victim returns the index in entries (in load order) of the entry to
	// evict; never newest, the entry just loaded. -1 evicts nothing.
	Victim(entries []WarmEntry, newest int) int
}

// WarmEntry is one loaded schema of a warm set: the tool as it was when
// loaded, and when it was loaded and last used (sequence numbers of the
// set's loads and uses, unique within a session).
type WarmEntry struct {
	Tool     *Tool
	LoadedAt int
	UsedAt   int
}

type nameKeying struct{}

func (nameKeying) Keep(held, served *Tool) bool { return true }

type fingerprintKeying struct{}

func (fingerprintKeying) Keep(held, served *Tool) bool { return served != nil && served.fp == held.fp }

// oldestBy evicts the entry with the smallest key, never newest.
type oldestBy func(e *WarmEntry) int

func (key oldestBy) Victim(entries []WarmEntry, newest int) int {
	victim := -1
	for i := range entries {
		if i == newest {
			continue
		}
		if victim < 0 || key(&entries[i]) < key(&entries[victim]) {
			victim = i
		}
	}
	return victim
}

func registerWarmPolicies(r *Registry) error {
	clearParam, caps := keyingParams, evictionParams
	for _, k := range []struct {
		info Info
		k    Keying
	}{
		{Info{Name: WarmKeyName, Params: clearParam,
			Description: "a loaded schema stays warm across catalog changes: the model keeps the schema it loaded (stale after an upgrade)"}, nameKeying{}},
		{Info{Name: warmKeyFingerprint, Params: clearParam,
			Description: "a loaded schema is dropped when its server starts serving a different one: the next call searches again"}, fingerprintKeying{}},
	} {
		if err := r.RegisterKeying(k.info, k.k); err != nil {
			return err
		}
	}
	if err := r.RegisterEviction(Info{Name: EvictLRL, Params: caps,
		Description: "over a cap, evict the least recently loaded schema, never the newest"},
		oldestBy(func(e *WarmEntry) int { return e.LoadedAt })); err != nil {
		return err
	}
	return r.RegisterEviction(Info{Name: evictLRU, Params: caps,
		Description: "over a cap, evict the least recently used schema (loaded or called), never the newest"},
		oldestBy(func(e *WarmEntry) int { return e.UsedAt }))
}

// warmSet is a session's memory of loaded schemas, keyed by tool identity
// (server + name). What survives a registry change is the keying's rule;
// which entry leaves a full set is the eviction's.
type warmSet struct {
	keying    Keying
	evict     Eviction
	maxTools  int
	maxTokens int64
	cost      []int64 // by tool id: a schema's size under warm.counter (nil: Tool.tokens)

	entries []WarmEntry // in load order
	tokens  int64
	seq     int
	// at indexes entries by tool identity: at[ident] is the entry's index
	// plus one, 0 when the tool is not warm (idents past its end too).
	at []int32
}

func (w *warmSet) reset(p *plan) {
	for _, e := range w.entries {
		w.at[e.Tool.ident] = 0
	}
	w.keying, w.evict = p.keying, p.eviction
	w.maxTools, w.maxTokens = p.s.Warm.MaxTools, p.s.Warm.MaxTokens
	w.cost = p.warmCost
	w.entries = w.entries[:0]
	w.tokens = 0
	w.seq = 0
}

// warmSize is a schema's size as warm.max_tokens counts it: cost[ti.id]
// (warm.counter over the OpenAI function form) when the strategy names a
// counter, else the tokens of its definition in tools[].
func warmSize(cost []int64, ti *Tool) int64 {
	if cost != nil {
		return cost[ti.id]
	}
	return ti.tokens
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
		id := int(w.entries[i].Tool.ident)
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
		w.entries[i].UsedAt = w.seq
	}
}

// add loads ti; it returns how many tools were evicted to respect the caps.
func (w *warmSet) add(ti *Tool) (evicted int) {
	w.seq++
	newest := w.find(ti.ident)
	if newest >= 0 {
		w.tokens += warmSize(w.cost, ti) - warmSize(w.cost, w.entries[newest].Tool)
		w.entries[newest] = WarmEntry{Tool: ti, LoadedAt: w.seq, UsedAt: w.seq}
	} else {
		newest = len(w.entries)
		w.entries = append(w.entries, WarmEntry{Tool: ti, LoadedAt: w.seq, UsedAt: w.seq})
		w.reindex(newest)
		w.tokens += warmSize(w.cost, ti)
	}
	for w.over() && len(w.entries) > 1 {
		victim := w.evict.Victim(w.entries, newest)
		if victim < 0 || victim == newest {
			break
		}
		w.remove(victim)
		if victim < newest {
			newest--
		}
		evicted++
	}
	return evicted
}

// clear empties the set; it returns how many entries it held.
func (w *warmSet) clear() int {
	n := len(w.entries)
	for _, e := range w.entries {
		w.at[e.Tool.ident] = 0
	}
	w.entries = w.entries[:0]
	w.tokens = 0
	return n
}

func (w *warmSet) over() bool {
	return (w.maxTools > 0 && len(w.entries) > w.maxTools) ||
		(w.maxTokens > 0 && w.tokens > w.maxTokens)
}

func (w *warmSet) remove(i int) {
	w.tokens -= warmSize(w.cost, w.entries[i].Tool)
	w.at[w.entries[i].Tool.ident] = 0
	w.entries = append(w.entries[:i], w.entries[i+1:]...)
	w.reindex(i)
}

// registryChanged applies the keying after a registry change: entries
// whose tool the registry no longer serves as the keying wants are
// dropped. It returns how many.
func (w *warmSet) registryChanged(set *serverSet) int {
	n := 0
	out := w.entries[:0]
	for _, e := range w.entries {
		if !w.keying.Keep(e.Tool, set.bySrv[toolKey{e.Tool.server, e.Tool.name}]) {
			w.tokens -= warmSize(w.cost, e.Tool)
			w.at[e.Tool.ident] = 0
			n++
			continue
		}
		out = append(out, e)
	}
	w.entries = out
	w.reindex(0)
	return n
}

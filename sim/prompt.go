package sim

import "slices"

// buildPrompt assembles tools → system → directory → messages and the
// cache breakpoints, and returns the prompt plus its schema tokens.
//
// Consecutive requests mostly share their blocks: the static part (tools,
// system, directory) changes only on loads, listings and registry changes,
// and messages are only appended within a run. So the prompt is not rebuilt
// but rewritten over the previous one: its prefix hashes and sums are a
// function of the block sequence alone, and stay valid up to the first
// block that differs; only the rest is hashed again.
func (r *replayer) buildPrompt() (*Prompt, int64) {
	e := r.e
	mode := r.deferredMode()
	search := mode || r.unlisted > 0
	// The tools[] segment is current if built in this mode and, in deferred
	// mode, at this tver (which every load, eviction, drop, listing and
	// registry change bumps). Outside deferred mode it is every listed tool,
	// so only registry and listing changes (lver) make it stale.
	if r.toolMode != mode || (mode && r.toolBuilt != r.tver) || r.toolLver != r.lver {
		r.buildTools(mode, search)
	}
	w := blockWriter{b: r.blocks}
	// blocks[:nTools] hold toolBlks as of generation pToolGen (a new
	// generation means new content).
	if r.pToolGen == r.toolGen && r.nTools == len(r.toolBlks) {
		w.skip(r.nTools)
	} else {
		for _, bl := range r.toolBlks {
			w.put(bl)
		}
	}
	toolsEnd := w.n - 1
	w.put(r.sessSys)
	if search && r.s.Directory.Format != "none" {
		if !r.dirOK {
			r.dir = r.directory(mode)
			r.dirOK = true
		}
		if r.dir.tokens > 0 {
			w.put(r.dir)
		}
	}
	sysEnd := w.n - 1
	static := w.n
	// Messages are append-only within a run: when the static part has the
	// length it had, blocks[static:] still start with msgs[:nMsgs] (whose
	// prefix sums are current if the static part is unchanged too).
	from := 0
	if r.nStatic == static {
		from = r.nMsgs
		w.skip(from)
	}
	for _, bl := range r.msgs[from:] {
		w.put(bl)
	}
	r.blocks = w.b[:w.n]
	r.nTools, r.pToolGen, r.nStatic, r.nMsgs = len(r.toolBlks), r.toolGen, static, len(r.msgs)
	r.rehash(w.same)

	// Breakpoints, by priority: the last message, the end of tools[], the
	// end of the system prompt, the second-to-last message.
	p := &r.prompt
	p.Breakpoints = p.Breakpoints[:0]
	last := len(r.blocks) - 1
	cands := [4]int{last, toolsEnd, sysEnd, last - 1}
	if len(r.msgs) < 2 {
		cands[3] = -1
	}
	maxBP := e.model.Cache.Breakpoints
	if maxBP <= 0 {
		maxBP = 4
	}
	for _, c := range cands {
		if len(p.Breakpoints) >= maxBP {
			break
		}
		if c < 0 || containsInt(p.Breakpoints, c) {
			continue
		}
		p.Breakpoints = append(p.Breakpoints, c)
	}
	sortInts(p.Breakpoints)
	return p, r.schemaCum[last]
}

// buildTools rebuilds the tools[] segment; toolGen changes only when its
// content does. The rule is listedState's, for every tool of a listed
// server: direct tools, and warm ones unless loaded schemas go inline.
func (r *replayer) buildTools(mode, search bool) {
	tb := r.toolTmp[:0]
	if search {
		tb = append(tb, r.searchBlk)
	}
	switch {
	case !mode:
		tb = r.appendListed(tb)
	case r.set.identPos == nil:
		tb = r.appendDeferredScan(tb)
	default:
		tb = r.appendDeferred(tb)
	}
	if slices.Equal(tb, r.toolBlks) {
		r.toolTmp = tb
	} else {
		r.toolBlks, r.toolTmp = tb, r.toolBlks
		r.toolGen++
	}
	r.toolBuilt, r.toolLver, r.toolMode = r.tver, r.lver, mode
}

// appendListed appends every tool of the listed servers (outside deferred
// mode all are direct).
func (r *replayer) appendListed(tb []block) []block {
	start := 0
	for i, end := range r.set.tableEnd {
		if r.tblListed[i] {
			tb = append(tb, r.set.blks[start:end]...)
		}
		start = end
	}
	return tb
}

// appendDeferred appends, in deferred mode, the direct tools (known per
// strategy) and the warm deferrable ones (found from the warm set and the
// transient loads, which are few, rather than by testing every tool) of
// the listed servers, in registry order. It needs set.identPos.
func (r *replayer) appendDeferred(tb []block) []block {
	set := r.set
	warm := r.posBuf[:0]
	if r.s.Injection != "inline" {
		for i := range r.warm.entries {
			warm = r.addWarmPos(warm, r.warm.entries[i].ti.ident)
		}
		for _, t := range r.transient {
			warm = r.addWarmPos(warm, t.ident)
		}
		slices.Sort(warm)
	}
	r.posBuf = warm
	direct := set.strat[r.si].direct
	// Merge the two position lists (disjoint: warm holds deferrable tools).
	for len(direct) > 0 || len(warm) > 0 {
		if len(warm) == 0 || (len(direct) > 0 && direct[0] < warm[0]) {
			p := direct[0]
			direct = direct[1:]
			if r.tblListed[set.tools[p].table] {
				tb = append(tb, set.blks[p])
			}
			continue
		}
		st := &set.tools[warm[0]]
		warm = warm[1:]
		if r.tblListed[st.table] {
			w := r.warmIdent(st.ident)
			tb = append(tb, block{h: w.h, tokens: w.tokens, schema: true})
		}
	}
	return tb
}

// addWarmPos adds to pos the position of a loaded tool identity, when the
// registry has it, the strategy defers it, and it is not there yet.
func (r *replayer) addWarmPos(pos []int32, ident int32) []int32 {
	p, ok := r.set.identPos[ident]
	if !ok || r.flags[r.set.tools[p].id]&flagDeferrable == 0 || slices.Contains(pos, p) {
		return pos
	}
	return append(pos, p)
}

// appendDeferredScan is appendDeferred testing every tool (for registries
// holding a tool identity twice).
func (r *replayer) appendDeferredScan(tb []block) []block {
	inline := r.s.Injection == "inline"
	for p := range r.set.tools {
		st := &r.set.tools[p]
		if !r.tblListed[st.table] {
			continue // lazy discovery: the runtime does not know its tools yet
		}
		if r.flags[st.id]&flagDeferrable == 0 {
			tb = append(tb, r.set.blks[p]) // direct
			continue
		}
		if w := r.warmIdent(st.ident); w != nil && !inline {
			tb = append(tb, block{h: w.h, tokens: w.tokens, schema: true}) // warm, in tools[]
		}
	}
	return tb
}

// rehash recomputes the prompt's prefix hashes and sums from block from on
// (those before it are current).
func (r *replayer) rehash(from int) {
	p := &r.prompt
	p.PrefixHash = p.PrefixHash[:from]
	p.CumTokens = p.CumTokens[:from]
	r.schemaCum = r.schemaCum[:from]
	var h uint64
	var cum, schema int64
	if from > 0 {
		h, cum, schema = p.PrefixHash[from-1], p.CumTokens[from-1], r.schemaCum[from-1]
	}
	for _, bl := range r.blocks[from:] {
		h = mix(h, bl.h)
		cum += bl.tokens
		if bl.schema {
			schema += bl.tokens
		}
		p.PrefixHash = append(p.PrefixHash, h)
		p.CumTokens = append(p.CumTokens, cum)
		r.schemaCum = append(r.schemaCum, schema)
	}
}

// blockWriter writes a prompt's blocks over the previous prompt's, keeping
// count of the leading blocks that did not change (same).
type blockWriter struct {
	b       []block
	n, same int
}

func (w *blockWriter) put(bl block) {
	switch {
	case w.n == len(w.b):
		w.b = append(w.b, bl)
	case w.same == w.n && w.b[w.n] == bl:
		w.same++
	default:
		w.b[w.n] = bl
	}
	w.n++
}

// skip passes over k blocks known to be unchanged.
func (w *blockWriter) skip(k int) {
	if w.same == w.n {
		w.same += k
	}
	w.n += k
}

// maxDirMemo bounds a replayer's memo of directory blocks (past it, the
// memo starts again empty).
const maxDirMemo = 1024

// dirKey is what a directory block depends on: the strategy (its format
// and deferrable tools), the registry, whether deferred mode was on, and
// which of the registry's tables are listed (bit i: tables[i]).
type dirKey struct {
	set    *serverSet
	si     int
	mode   bool
	listed uint64
}

// directory returns the directory block, memoised: every session with the
// same servers, listed alike, shows a strategy the same directory.
func (r *replayer) directory(mode bool) block {
	build := func() block {
		return r.e.directory(r.s, r.tables, func(ti *toolInfo) bool { return mode && r.deferrable(ti) }, r.listed)
	}
	if len(r.tables) > 64 {
		return build()
	}
	key := dirKey{set: r.set, si: r.si, mode: mode}
	for i, l := range r.tblListed {
		if l {
			key.listed |= 1 << i
		}
	}
	if d, ok := r.dirMemo[key]; ok {
		return d
	}
	if r.dirMemo == nil || len(r.dirMemo) >= maxDirMemo {
		r.dirMemo = make(map[dirKey]block)
	}
	d := build()
	r.dirMemo[key] = d
	return d
}

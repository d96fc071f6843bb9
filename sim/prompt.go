package sim

import (
	bits64 "math/bits"
	"slices"
)

// promptMemo is the previous prompt and what it was assembled from. Every
// field is derived from the simulated state (simState) and kept only so
// that the next prompt is reassembled incrementally; the generation
// counters say when a part is stale.
type promptMemo struct {
	// tver counts changes of what decides the tools[] segment in deferred
	// mode (loads, evictions, drops, listings, registry changes); lver
	// counts registry and listing changes.
	tver, lver uint64

	// Listing (kept by countUnlisted): how many of the registry's servers
	// are not listed, and tblListed[i] = listed[tables[i].name].
	unlisted  int
	tblListed []bool

	dir   block // the directory block, valid while dirOK
	dirOK bool

	// The tools[] segment, rebuilt only when what decides it changes:
	// built at tver toolBuilt and lver toolLver in mode toolMode;
	// toolGen counts changes of its content.
	toolBuilt uint64
	toolLver  uint64
	toolMode  bool
	toolGen   uint64
	// toolSame is how many leading blocks generation toolGen shares with
	// generation toolGen-1.
	toolSame int
	// mode is the deferred mode of the last prompt built.
	mode      bool
	toolBlks  []block
	toolTmp   []block
	searchBlk block // the tool_search definition

	// The last prompt (prompt.go's Prompt: a static part and the
	// conversation). static holds the static part's blocks: tools[]
	// (toolBlks of generation pToolGen in static[:nTools]), the system
	// prompt and the directory; sSchema[i] sums the schema tokens of
	// static[:i+1]. The conversation's chains cover r.st.msgs[:len(
	// prompt.mHash)] of this run; mSchema sums their schema tokens.
	prompt   Prompt
	static   []block
	sSchema  []int64
	nTools   int
	pToolGen uint64
	sSys     block // the system prompt block in static
	sDir     block // the directory block in static (zero: none)
	mSchema  int64
}

// resetMsgs forgets the conversation's chains: the next run's messages
// are another conversation.
func (pm *promptMemo) resetMsgs() {
	pm.prompt.mHash, pm.prompt.mCum = pm.prompt.mHash[:0], pm.prompt.mCum[:0]
	pm.mSchema = 0
}

// registryChanged notes a change of the registry or of what is listed.
func (r *replayer) registryChanged() {
	r.pm.dirOK = false
	r.countUnlisted()
	r.pm.tver++
}

// countUnlisted counts the session's servers whose tools are not listed,
// and notes which are (tblListed) for the prompt. It is called after every
// change of the registry or of what is listed, which lver counts.
func (r *replayer) countUnlisted() {
	pm := &r.pm
	pm.unlisted = 0
	pm.tblListed = pm.tblListed[:0]
	for _, t := range r.st.tables {
		l := r.st.servers.has(t.srv, srvListed)
		if !l {
			pm.unlisted++
		}
		pm.tblListed = append(pm.tblListed, l)
	}
	pm.lver++
}

// buildPrompt assembles tools → system → directory → messages and the
// cache breakpoints, and returns the prompt plus its schema tokens.
//
// Consecutive requests mostly share their blocks: the static part (tools,
// system, directory) changes only on loads, listings and registry changes,
// and messages are only appended within a run. So the prompt is not rebuilt
// but rewritten over the previous one. The static part's prefix hashes and
// sums stay valid up to its first block that differs; only the rest is
// hashed again. The conversation's chains do not depend on the static part
// (Prompt), so only the messages appended since the last request are
// hashed: the cost of a request does not grow with the session.
func (r *replayer) buildPrompt() (*Prompt, int64) {
	pm := &r.pm
	mode := r.deferredMode()
	pm.mode = mode
	search := mode || pm.unlisted > 0
	// The tools[] segment is current if built in this mode and, in deferred
	// mode, at this tver (which every load, eviction, drop, listing and
	// registry change bumps). Outside deferred mode it is every listed tool,
	// so only registry and listing changes (lver) make it stale.
	if pm.toolMode != mode || (mode && pm.toolBuilt != pm.tver) || pm.toolLver != pm.lver {
		r.buildTools(mode, search)
	}
	var dir block // the directory block, when shown
	if search && r.p.showsNames {
		if !pm.dirOK {
			pm.dir = r.directory(mode)
			pm.dirOK = true
		}
		if pm.dir.tokens > 0 {
			dir = pm.dir
		}
	}
	// static[:nTools] holds toolBlks as of generation pToolGen (a new
	// generation means new content), then sSys and sDir.
	sameTools := pm.pToolGen == pm.toolGen && pm.nTools == len(pm.toolBlks)
	if !sameTools || pm.sSys != r.sess.sys || pm.sDir != dir || len(pm.static) == 0 {
		w := blockWriter{b: pm.static}
		switch {
		case sameTools:
			w.skip(pm.nTools)
		case pm.pToolGen+1 == pm.toolGen && len(pm.static) > 0:
			// static[:nTools] holds the previous generation, which
			// buildTools compared with this one: copy from the first
			// block that differs.
			w.copyFrom(pm.toolBlks, pm.toolSame)
		default:
			for _, bl := range pm.toolBlks {
				w.put(bl)
			}
		}
		w.put(r.sess.sys)
		if dir.tokens > 0 {
			w.put(dir)
		}
		pm.static = w.b[:w.n]
		pm.nTools, pm.pToolGen = len(pm.toolBlks), pm.toolGen
		pm.sSys, pm.sDir = r.sess.sys, dir
		if w.same < w.n || len(pm.prompt.sHash) != w.n {
			r.rehashStatic(w.same)
		}
	}
	n := len(pm.static)
	toolsEnd, sysEnd := pm.nTools-1, n-1
	r.extendMsgs()

	p := &pm.prompt
	msgs := len(r.st.msgs)
	last := n + msgs - 1
	p.Breakpoints = p.Breakpoints[:0]
	if r.st.placer != nil {
		user := -1
		if r.st.userMsg >= 0 {
			user = n + r.st.userMsg
		}
		p.Breakpoints = r.st.placer.Breakpoints(p.Breakpoints,
			PromptLayout{ToolsEnd: toolsEnd, SystemEnd: sysEnd, Last: last, Messages: msgs, User: user, Layout: r.p.cacheLayout})
	}
	return p, pm.sSchema[n-1] + pm.mSchema
}

// buildTools rebuilds the tools[] segment; toolGen changes only when its
// content does. The rule is listedState's, for every tool of a listed
// server: direct tools, and warm ones when the injection puts loaded
// schemas in tools[].
func (r *replayer) buildTools(mode, search bool) {
	pm := &r.pm
	tb := pm.toolTmp[:0]
	if search {
		tb = append(tb, pm.searchBlk)
	}
	switch {
	case !mode:
		tb = r.appendListed(tb)
	case r.st.set.identPos == nil:
		tb = r.appendDeferredScan(tb)
	default:
		tb = r.appendDeferred(tb)
	}
	if same := commonPrefix(tb, pm.toolBlks); same == len(tb) && same == len(pm.toolBlks) {
		pm.toolTmp = tb
	} else {
		pm.toolBlks, pm.toolTmp = tb, pm.toolBlks
		pm.toolGen++
		pm.toolSame = same
	}
	pm.toolBuilt, pm.toolLver, pm.toolMode = pm.tver, pm.lver, mode
}

// appendListed appends every tool of the listed servers (outside deferred
// mode all are direct).
func (r *replayer) appendListed(tb []block) []block {
	start := 0
	for i, end := range r.st.set.tableEnd {
		if r.pm.tblListed[i] {
			tb = append(tb, r.st.set.blks[start:end]...)
		}
		start = end
	}
	return tb
}

// appendDeferred appends, in deferred mode, the direct tools (known per
// strategy) and the warm deferrable ones (found from the warm set and the
// transient loads, which are few, rather than by testing every tool) of
// the listed servers, in registry order. It needs set.identPos. The
// positions to emit are marked in a bitmap, which orders and de-duplicates
// them without a sort: it starts as a copy of the strategy's direct
// positions (set.strat), then the warm ones are marked; at[p] is the
// schema seen at a warm position p (read only where direct has no bit).
func (r *replayer) appendDeferred(tb []block) []block {
	set := r.st.set
	n := len(set.tools)
	direct := set.strat[r.si].direct
	bits := append(r.buf.bits[:0], direct...)
	at := r.buf.at
	if len(at) < n {
		at = make([]*Tool, n)
	}
	r.buf.bits, r.buf.at = bits, at
	if r.p.inTools {
		// The warm set before the transient loads, as warmIdent looks.
		for i := range r.st.warm.entries {
			r.markWarm(bits, at, r.st.warm.entries[i].Tool)
		}
		for _, t := range r.st.transient {
			r.markWarm(bits, at, t)
		}
	}
	listed := r.pm.tblListed
	all := r.pm.unlisted == 0 // every server listed: no position to skip
	for wi, word := range bits {
		d := direct[wi]
		for word != 0 {
			p := wi<<6 | bits64.TrailingZeros64(word)
			word &= word - 1
			if !all && !listed[set.tools[p].table] {
				continue
			}
			if d&(1<<(p&63)) != 0 {
				tb = append(tb, set.blks[p]) // direct
			} else {
				w := at[p]
				tb = append(tb, block{h: w.h, tokens: w.tokens, schema: true}) // warm
			}
		}
	}
	return tb
}

// markWarm marks the position of a loaded tool's identity in bits, with
// the schema loaded in at, when the registry has it, the strategy defers
// it and it is not marked yet. bits started as the strategy's direct
// positions (setStrategy.direct: those it cannot defer), so a clear bit
// is a deferrable position not marked yet.
func (r *replayer) markWarm(bits []uint64, at []*Tool, t *Tool) {
	set := r.st.set
	if int(t.ident) >= len(set.identPos) || set.identPos[t.ident] < 0 {
		return
	}
	p := set.identPos[t.ident]
	if bits[p>>6]&(1<<(p&63)) == 0 {
		bits[p>>6] |= 1 << (p & 63)
		at[p] = t
	}
}

// appendDeferredScan is appendDeferred testing every tool (for registries
// holding a tool identity twice).
func (r *replayer) appendDeferredScan(tb []block) []block {
	set := r.st.set
	for p := range set.tools {
		st := &set.tools[p]
		if !r.pm.tblListed[st.table] {
			continue // lazy discovery: the runtime does not know its tools yet
		}
		if r.flags[st.id]&flagDeferrable == 0 {
			tb = append(tb, set.blks[p]) // direct
			continue
		}
		if w := r.warmIdent(st.ident); w != nil && r.p.inTools {
			tb = append(tb, block{h: w.h, tokens: w.tokens, schema: true}) // warm, in tools[]
		}
	}
	return tb
}

// rehashStatic recomputes the static part's prefix hashes and sums from
// block from on (those before it are current).
func (r *replayer) rehashStatic(from int) {
	pm := &r.pm
	p := &pm.prompt
	n := len(pm.static)
	if cap(p.sHash) < n || cap(p.sCum) < n || cap(pm.sSchema) < n {
		p.sHash = slices.Grow(p.sHash[:from], n-from)
		p.sCum = slices.Grow(p.sCum[:from], n-from)
		pm.sSchema = slices.Grow(pm.sSchema[:from], n-from)
	}
	p.sHash, p.sCum, pm.sSchema = p.sHash[:n], p.sCum[:n], pm.sSchema[:n] // (no write barrier)
	sh, sc, ss := p.sHash, p.sCum, pm.sSchema
	var h uint64
	var cum, schema int64
	if from > 0 {
		h, cum, schema = sh[from-1], sc[from-1], ss[from-1]
	}
	for i, bl := range pm.static[from:n] {
		h = mix(h, bl.h)
		cum += bl.tokens
		if bl.schema {
			schema += bl.tokens
		}
		sh[from+i], sc[from+i], ss[from+i] = h, cum, schema
	}
}

// extendMsgs chains the messages appended since the last prompt of the
// run.
func (r *replayer) extendMsgs() {
	pm := &r.pm
	p := &pm.prompt
	from, n := len(p.mHash), len(r.st.msgs)
	if from == n {
		return
	}
	if cap(p.mHash) < n || cap(p.mCum) < n {
		p.mHash, p.mCum = slices.Grow(p.mHash, n-from), slices.Grow(p.mCum, n-from)
	}
	p.mHash, p.mCum = p.mHash[:n], p.mCum[:n] // (no write barrier)
	mh, mc := p.mHash, p.mCum
	var h uint64
	var cum int64
	if from > 0 {
		h, cum = mh[from-1], mc[from-1]
	}
	for i, bl := range r.st.msgs[from:n] {
		h = mix(h, bl.h)
		cum += bl.tokens
		if bl.schema {
			pm.mSchema += bl.tokens
		}
		mh[from+i], mc[from+i] = h, cum
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

// copyFrom writes bls at the start (nothing written yet), known to equal
// the blocks there up to same (and possibly further: same only bounds
// what is reused). What follows is written as changed.
func (w *blockWriter) copyFrom(bls []block, same int) {
	w.b = append(w.b[:same], bls[same:]...)
	w.n, w.same = len(bls), same
}

// commonPrefix returns how many leading blocks a and b share.
func commonPrefix(a, b []block) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
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
// which of the registry's tables are listed (bit i of listed: tables[i];
// past 64 tables, more holds bits 64 and up, eight to a byte).
type dirKey struct {
	set    *serverSet
	si     int
	mode   bool
	listed uint64
	more   string
}

// directory returns the directory block, memoised: every session with the
// same servers, listed alike, shows a strategy the same directory.
func (r *replayer) directory(mode bool) block {
	key := dirKey{set: r.st.set, si: r.si, mode: mode}
	listed := r.pm.tblListed
	for i, l := range listed[:min(len(listed), 64)] {
		if l {
			key.listed |= 1 << i
		}
	}
	if len(listed) > 64 {
		more := r.buf.dirKey[:0]
		for i, l := range listed[64:] {
			if i%8 == 0 {
				more = append(more, 0)
			}
			if l {
				more[i/8] |= 1 << (i % 8)
			}
		}
		r.buf.dirKey = more
		key.more = string(more)
	}
	if d, ok := r.memo.dirs[key]; ok {
		return d
	}
	if r.memo.dirs == nil || len(r.memo.dirs) >= maxDirMemo {
		r.memo.dirs = make(map[dirKey]block)
	}
	d := r.e.directory(r.si, r.st.tables, func(ti *Tool) bool { return mode && r.deferrable(ti) }, r.pm.tblListed, &r.buf.dir)
	r.memo.dirs[key] = d
	return d
}

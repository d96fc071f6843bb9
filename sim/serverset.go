package sim

import (
	"encoding/binary"
	"slices"
	"strconv"
	"sync"
)

// serverSet is one session registry: a sequence of server versions, with the
// lookups and per-strategy facts the replay derives from it. It depends only
// on the sequence of tables (and the engine's read-only strategies, flags
// and tables), so one set is shared, read-only, by every strategy, session
// and worker that sees the same server versions. The only mutable parts are
// the per-strategy slots, each filled once under its sync.Once.
type serverSet struct {
	tables []*serverTable   // in registry order; never modified
	byName map[string]*Tool // first tool of each name, in registry order
	// shared lists, for each tool name two or more servers of the set
	// serve, those servers in registry order: a call naming no server
	// resolves to the first (byName). Nil when no name is shared.
	shared map[string][]string
	bySrv  map[toolKey]*Tool // (server, name) → tool; later tables win
	strat  []setStrategy     // by strategy index
	// tools is every tool of tables, in order, laid out flat for the
	// tools[] rebuild (a tool's position is its index here); blks holds
	// their schema blocks; tables[i]'s tools end at tableEnd[i].
	tools    []setTool
	blks     []block
	tableEnd []int
	// identPos is the position of each tool identity (indexed by ident;
	// -1 or past its end: not in the set), nil when one occurs twice (the
	// same server listed twice).
	identPos []int32
	// fp is the registry's fingerprint (registryFingerprint).
	fp uint64
}

// setTool is what rebuilding tools[] reads of a tool.
type setTool struct {
	id, ident int32
	table     int32 // index in tables
}

// toolKey names a tool of a server.
type toolKey struct{ server, name string }

// setStrategy holds what one strategy derives from a server set.
type setStrategy struct {
	// staticOn is the part of the trigger that depends only on the registry.
	staticOn bool
	// direct marks the positions of the tools the strategy cannot defer:
	// bit p&63 of direct[p>>6] for set.tools[p]. appendDeferred starts
	// each tools[] from a copy of it.
	direct []uint64

	// The strategy's search ranker over the set's deferrable tools,
	// resolved on the first keyword search, and the tool the set serves
	// for each of the ranker's (served[i] for ranker.tools[i], nil when
	// none).
	rankOnce sync.Once
	ranker   *rankerEntry
	rankErr  error
	served   []*Tool
}

func (e *Engine) newServerSet(tables []*serverTable) *serverSet {
	set := &serverSet{tables: slices.Clone(tables), byName: map[string]*Tool{}, bySrv: map[toolKey]*Tool{},
		strat: make([]setStrategy, len(e.strategies)), fp: registryFingerprint(tables)}
	nIdent := int32(0)
	for _, t := range tables {
		for _, ti := range t.tools {
			nIdent = max(nIdent, ti.ident+1)
		}
	}
	set.identPos = make([]int32, nIdent)
	for i := range set.identPos {
		set.identPos[i] = -1
	}
	for i, t := range tables {
		for _, ti := range t.tools {
			if first, ok := set.byName[ti.name]; !ok {
				set.byName[ti.name] = ti
			} else if first.server != ti.server {
				set.share(first.server, ti)
			}
			set.bySrv[toolKey{ti.server, ti.name}] = ti
			if set.identPos != nil {
				if set.identPos[ti.ident] >= 0 {
					set.identPos = nil // a server listed twice: buildTools scans
				} else {
					set.identPos[ti.ident] = int32(len(set.tools))
				}
			}
			set.tools = append(set.tools, setTool{id: ti.id, ident: ti.ident, table: int32(i)})
			set.blks = append(set.blks, block{h: ti.h, tokens: ti.tokens, schema: true})
		}
		set.tableEnd = append(set.tableEnd, len(set.tools))
	}
	for si := range e.strategies {
		ss := &set.strat[si]
		flags := e.flags[si]
		ss.staticOn = e.staticTrigger(si, tables, flags)
		ss.direct = make([]uint64, (len(set.tools)+63)/64)
		for p, st := range set.tools {
			if flags[st.id]&flagDeferrable == 0 {
				ss.direct[p>>6] |= 1 << (p & 63)
			}
		}
	}
	return set
}

// share records that ti's name, first served by server first, is also
// served by ti's server.
func (set *serverSet) share(first string, ti *Tool) {
	if set.shared == nil {
		set.shared = map[string][]string{}
	}
	l := set.shared[ti.name]
	if l == nil {
		l = []string{first}
	}
	if !slices.Contains(l, ti.server) {
		l = append(l, ti.server)
	}
	set.shared[ti.name] = l
}

// registryFingerprint is a 64-bit fingerprint of a registry: every tool's
// server, name and definition (its fingerprint: what the model sees, or the
// whole tool under catalog_fingerprint: served), in registry order. It
// stands for the anchor runtime's registry-wide SHA-256 (REFERENCE: name,
// source, namespace, exposure and compact schema of every tool): a
// strategy's exposure of a tool is fixed by the tool, so within one
// strategy the two change together.
func registryFingerprint(tables []*serverTable) uint64 {
	h := uint64(len(tables))
	for _, t := range tables {
		h = mix(h, hashString(t.name))
		for _, ti := range t.tools {
			h = mix(h, ti.h)
		}
	}
	return h
}

// rankerFor returns strategy si's ranker over the set's deferrable tools
// (built once per run and corpus by the engine's ranker cache), and the
// tools the set serves for the ranker's corpus.
func (set *serverSet) rankerFor(e *Engine, si int) (*rankerEntry, []*Tool, error) {
	ss := &set.strat[si]
	ss.rankOnce.Do(func() {
		flags := e.flags[si]
		ss.ranker, ss.rankErr = e.rankers.get(e.strategies[si].Search.Mode, e.plans[si].ranker, set.corpusKey(flags), func() []*Tool {
			return set.corpus(flags)
		})
		if ss.rankErr != nil {
			return
		}
		ss.served = make([]*Tool, len(ss.ranker.tools))
		for i, t := range ss.ranker.tools {
			ss.served[i] = set.bySrv[toolKey{t.server, t.name}]
		}
	})
	return ss.ranker, ss.served, ss.rankErr
}

// corpus is every deferrable tool of the set.
func (set *serverSet) corpus(flags []uint8) []*Tool {
	var out []*Tool
	for _, t := range set.tables {
		for _, ti := range t.tools {
			if flags[ti.id]&flagDeferrable != 0 {
				out = append(out, ti)
			}
		}
	}
	return out
}

// corpusKey identifies the corpus by the ids of its tools, so strategies
// that defer the same tools share one ranker.
func (set *serverSet) corpusKey(flags []uint8) string {
	h := uint64(len(set.tables))
	for _, t := range set.tables {
		for _, ti := range t.tools {
			if flags[ti.id]&flagDeferrable != 0 {
				h = mix(h, uint64(ti.id)+1)
			}
		}
	}
	return strconv.FormatUint(h, 16)
}

// Bounds of the shared cache of server sets: at most maxServerSets sets
// holding at most maxSetTools tools in all (a set takes roughly 150 bytes
// per tool, plus 4 per tool and strategy). Past them, sets are built for
// the session alone, as if there were no cache: results do not depend on
// it.
const (
	maxServerSets = 512
	maxSetTools   = 1 << 17
)

// serverSets shares server sets between sessions, strategies and workers,
// keyed by the sequence of server versions (a server name and version name
// one table: toolTables.byKey).
type serverSets struct {
	mu    sync.RWMutex
	m     map[string]*serverSet
	tools int // tools of the sets in m
}

// setKey appends the key of a table sequence to buf: each table's name and
// version, length-prefixed so that no two sequences share a key.
func setKey(buf []byte, tables []*serverTable) []byte {
	for _, t := range tables {
		buf = binary.AppendUvarint(buf, uint64(len(t.name)))
		buf = append(buf, t.name...)
		buf = binary.AppendUvarint(buf, uint64(len(t.version)))
		buf = append(buf, t.version...)
	}
	return buf
}

// set returns the server set of tables (which it copies: the caller may
// reuse tables). key is scratch space; it returns it for reuse.
func (e *Engine) set(tables []*serverTable, key []byte) (*serverSet, []byte) {
	key = setKey(key[:0], tables)
	c := &e.sets
	c.mu.RLock()
	set := c.m[string(key)]
	c.mu.RUnlock()
	if set != nil {
		return set, key
	}
	set = e.newServerSet(tables)
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.m[string(key)]; old != nil {
		return old, key // another worker built it first
	}
	if c.m == nil {
		c.m = map[string]*serverSet{}
	}
	if len(c.m) < maxServerSets && c.tools+len(set.tools) <= maxSetTools {
		c.m[string(key)] = set
		c.tools += len(set.tools)
	}
	return set, key
}

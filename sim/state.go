package sim

// simState is the simulated session under one strategy: what the runtime
// and the model would hold at this point of the replay. Everything that
// decides an outcome is here (or in the need and the engine's read-only
// tables); run resets it.
type simState struct {
	cache     PromptCache      // the session's prompt cache
	placer    BreakpointPlacer // cache, when it places breakpoints
	warm      warmSet
	transient []*Tool // loads that live only until the end of the step (no warm set)

	// The registry: a shared, read-only server set (serverset.go); tables
	// is set.tables and must not be modified. staticOn is the part of the
	// trigger that depends on it alone.
	set      *serverSet
	tables   []*serverTable
	staticOn bool
	// runFP is the registry's fingerprint at the last run start (warm.clear).
	runFP uint64

	msgs     []block // the conversation so far
	msgSeq   uint64  // the hash chain of msgs
	clock    float64 // ms since the session started
	t0       float64 // the first user message's time
	userSeen bool
	// turnOpen: no model request since the latest user message (or the
	// session start), so the next one opens the turn.
	turnOpen bool
	replied  bool   // the first reply has been seen
	lastUser string // the latest user message
	userStep int    // the index of the step lastUser comes from
	userMsg  int    // the index in msgs of the latest user message (-1: none)

	// Loading layers (layers.go): which servers are connected and listed,
	// which routing domains were announced, and the time spent in each
	// layer so far.
	started bool
	servers serverFlags
	active  map[string]bool
	layerMs [numLayers]float64
}

func (s *simState) init() {
	s.active = map[string]bool{}
}

// reset starts a run of plan p; msgSeq starts the message hash chain.
func (s *simState) reset(p *plan, msgSeq uint64) {
	s.cache.Reset()
	s.warm.reset(p)
	s.transient = s.transient[:0]
	s.msgs = s.msgs[:0]
	s.msgSeq = msgSeq
	s.clock, s.t0 = 0, 0
	s.userSeen, s.replied = false, false
	s.turnOpen = true
	s.lastUser, s.userStep, s.userMsg = "", -1, -1
	s.servers.reset()
	clear(s.active)
	s.started = false
	s.layerMs = [numLayers]float64{}
}

// changeVersion moves a server of the registry to another version (or
// adds it), then lets the warm set's keying drop what no longer serves.
func (r *replayer) changeVersion(server, version string) {
	st := r.e.tables.lookup(server, version)
	if st == nil {
		return
	}
	tables := append(r.buf.tables[:0], r.st.tables...)
	found := false
	for i, t := range tables {
		if t.name == server {
			if t != st {
				r.relist(st)
			}
			tables[i] = st
			found = true
		}
	}
	if !found {
		tables = append(tables, st)
		sortTables(tables)
		r.addServer(st) // before useSet, which counts what is listed
	}
	r.buf.tables = tables
	var set *serverSet
	set, r.buf.key = r.e.set(tables, r.buf.key)
	r.useSet(set)
	if r.st.warm.registryChanged(set) > 0 {
		r.pm.tver++
	}
}

// runStart is the start of a run (a user message). Under warm.clear:
// registry-change the warm set is emptied when the registry's fingerprint
// differs from the one at the previous run start.
func (r *replayer) runStart() {
	if !r.p.clearOnChange || r.st.set.fp == r.st.runFP {
		return
	}
	r.st.runFP = r.st.set.fp
	if r.st.warm.clear() > 0 {
		r.pm.tver++
	}
}

// useSet makes set the registry.
func (r *replayer) useSet(set *serverSet) {
	r.st.set = set
	r.st.tables = set.tables
	r.st.staticOn = set.strat[r.si].staticOn
	r.registryChanged()
}

func (r *replayer) served(server, name string) *Tool {
	return r.st.set.bySrv[toolKey{server, name}]
}

// resolve returns the tool a call names in the registry (nil: none): a
// call naming a server only on that server (as the resolution counts it,
// resolution.go: a tool that server does not serve is unresolved, and the
// replay leaves it out, whatever other server serves the name), a call
// naming none by its tool name.
func (r *replayer) resolve(c *pcall) *Tool {
	if c.server != "" {
		return r.served(c.server, c.tool)
	}
	return r.st.set.byName[c.tool]
}

// deferrable reports whether the strategy may defer ti at all.
func (r *replayer) deferrable(ti *Tool) bool {
	return r.flags[ti.id]&flagDeferrable != 0
}

func (r *replayer) isWarm(ti *Tool) *Tool { return r.warmIdent(ti.ident) }

// warmIdent returns the schema loaded for a tool identity (nil when cold).
func (r *replayer) warmIdent(ident int32) *Tool {
	if i := r.st.warm.find(ident); i >= 0 {
		return r.st.warm.entries[i].Tool
	}
	for _, t := range r.st.transient {
		if t.ident == ident {
			return t
		}
	}
	return nil
}

// deferredMode evaluates the trigger for the next request.
func (r *replayer) deferredMode() bool {
	return r.st.staticOn || (r.p.session != nil && r.p.session.OnNow(r))
}

// ColdAlwaysDefer reports whether a tool of the registry that the strategy
// always defers is cold (TriggerState).
func (r *replayer) ColdAlwaysDefer() bool {
	for _, t := range r.st.tables {
		for _, ti := range t.tools {
			if r.flags[ti.id]&flagCategorical != 0 && r.isWarm(ti) == nil {
				return true
			}
		}
	}
	return false
}

// ColdDeferrable reports whether a tool of the registry that the strategy
// may defer is cold (TriggerState). It stops at the first one: in a
// session that has not loaded every deferrable tool, that is one of the
// first tools looked at.
func (r *replayer) ColdDeferrable() bool {
	for _, t := range r.st.tables {
		for _, ti := range t.tools {
			if r.flags[ti.id]&flagDeferrable != 0 && r.isWarm(ti) == nil {
				return true
			}
		}
	}
	return false
}

// state returns a tool's exposure and the schema the model sees (nil when cold).
func (r *replayer) state(ti *Tool, mode bool) (exposure, *Tool) {
	if !r.isListed(ti) {
		return expCold, nil // lazy discovery: the runtime does not know it yet
	}
	return r.listedState(ti, mode)
}

// isListed reports whether ti's server is listed: through the registry's
// table of ti (pm.tblListed mirrors listed) when ti is a tool of the
// registry, else by name.
func (r *replayer) isListed(ti *Tool) bool {
	set := r.st.set
	if int(ti.ident) < len(set.identPos) {
		if p := set.identPos[ti.ident]; p >= 0 && set.tools[p].id == ti.id {
			return r.pm.tblListed[set.tools[p].table]
		}
	}
	return r.st.servers.has(ti.srv, srvListed)
}

// listedState is state for a tool of a listed server.
func (r *replayer) listedState(ti *Tool, mode bool) (exposure, *Tool) {
	if !mode || !r.deferrable(ti) {
		return expDirect, ti
	}
	if w := r.isWarm(ti); w != nil {
		return expWarm, w
	}
	return expCold, nil
}

func (r *replayer) appendMsg(tokens int64, schema bool) {
	s := &r.st
	s.msgSeq = mix(s.msgSeq, uint64(len(s.msgs)+1))
	s.msgs = append(s.msgs, block{h: s.msgSeq, tokens: tokens + r.e.params.MessageOverheadTokens, schema: schema})
}

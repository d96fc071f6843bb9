package sim

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
)

// exposure of one tool in one request.
type exposure uint8

const (
	expDirect exposure = iota
	expWarm
	expCold
)

// block is one unit of a prompt: its content hash and tokens.
type block struct {
	h      uint64
	tokens int64
	schema bool
}

// replayer replays one session under one strategy. A worker reuses one
// replayer (and its buffers) for every session and strategy.
type replayer struct {
	e   *Engine
	s   *Strategy
	si  int
	n   *Need
	out *Outcome
	rng *rand.Rand

	cache     PromptCache
	warm      warmSet
	transient []*toolInfo // loads that live only until the end of the step (no warm set)

	// The registry: a shared, read-only server set (serverset.go); tables
	// is set.tables and must not be modified.
	set      *serverSet
	tables   []*serverTable
	flags    []uint8 // e.flags[si]
	staticOn bool
	dir      block
	dirOK    bool
	dirMemo  map[dirKey]block
	tblBuf   []*serverTable // scratch for building table sequences
	keyBuf   []byte         // scratch for server set keys

	// What every strategy of the current session shares, computed for its
	// first strategy: sess is the need they are for. A worker extracts
	// every session into the same Need, so endSession must clear sess
	// before the next session (its address alone does not tell sessions
	// apart).
	sess      *Need
	sessSet   *serverSet
	sessSeed  uint64           // hashString(SessionID)
	sessSys   block            // the system prompt block
	sessWords map[int][]string // by user step, cut from words
	words     []string         // this session's content words
	wordsSeen map[string]bool  // scratch for appendContentWords
	userFn    func() []string  // r.userWords (a method value allocates)

	msgs     []block
	msgSeq   uint64
	clock    float64
	t0       float64
	userSeen bool
	replied  bool
	lastUser string
	userStep int // index of the step lastUser comes from

	pcg    rand.PCG
	ranked []int      // scratch for ranker results
	tools  []toolMemo // by tool id

	// Scratch for search round trips and token counts.
	gotBuf  []*toolInfo // keywordLoad's results
	selBuf  []*toolInfo // load's select batch
	one     [1]*toolInfo
	queryB  []byte // a select query being built
	callB   []byte // a search call: {"query":...}
	textBuf []byte // text being counted (countString)

	// Prompt assembly (prompt.go).
	prompt    Prompt
	blocks    []block // the last prompt's blocks, described by prompt
	schemaCum []int64 // schema tokens of blocks[:i+1]
	nTools    int     // blocks[:nTools] are toolBlks of generation pToolGen
	nStatic   int     // blocks[:nStatic] are tools, system and directory
	nMsgs     int     // blocks[nStatic:] are msgs[:nMsgs] of this run
	pToolGen  uint64
	searchBlk block // the tool_search definition

	// Loading layers (layers.go): which servers are connected and listed,
	// and the time spent in each layer so far.
	connected map[string]bool
	listed    map[string]bool
	unlisted  int
	tblListed []bool // listed[tables[i].name], kept by countUnlisted
	lver      uint64 // counts registry and listing changes
	started   bool
	active    map[string]bool // domains whose activation notice was shown
	layerMs   [numLayers]float64

	// The tools[] segment is rebuilt only when what decides it changes:
	// tver counts such changes (loads, evictions, drops, registry changes).
	// toolGen counts changes of the segment's content.
	tver      uint64
	toolBuilt uint64 // tver and lver when the segment was built
	toolLver  uint64
	toolMode  bool
	toolGen   uint64
	toolBlks  []block
	toolTmp   []block
	posBuf    []int32 // scratch for buildTools
	fid       []FidelityPair
	outcome   Outcome     // scratch outcome (run.go)
	need      needBuffers // the need of the session being replayed (run.go)
}

func newReplayer(e *Engine) *replayer {
	r := &replayer{}
	r.init(e)
	return r
}

// init (re)sets r to a new replayer's state. A replayer whose run
// panicked is re-initialised: its buffers and memos may be inconsistent.
func (r *replayer) init(e *Engine) {
	*r = replayer{e: e, connected: map[string]bool{}, listed: map[string]bool{}, active: map[string]bool{},
		searchBlk: block{h: hashString("\x00tool_search"), tokens: e.params.SearchToolTokens, schema: true}}
	r.rng = rand.New(&r.pcg)
	r.userFn = r.userWords
}

// FidelityPair is one model request of the recorded strategy: what the
// trace recorded and what the replay computed.
type FidelityPair struct {
	Session       string  `json:"session"`
	Request       int     `json:"request"`
	RecordedInput int64   `json:"recorded_input"`
	SimInput      int64   `json:"sim_input"`
	RecordedMs    float64 `json:"recorded_ms"`
	SimMs         float64 `json:"sim_ms"`
}

func (r *replayer) run(n *Need, si int, out *Outcome, wantFid bool) {
	e := r.e
	if !n.prepared {
		e.prepare(n, &r.textBuf)
	}
	r.s = &e.strategies[si]
	r.si = si
	r.flags = e.flags[si]
	r.n = n
	r.out = out
	*out = Outcome{PerRequest: out.PerRequest[:0]}
	if r.sess != n {
		r.newSession(n)
	}
	// Common random numbers: every strategy of a session draws from the same
	// stream (seeded by the run seed and the session id, not the strategy),
	// so paired comparisons are not blurred by independent draws and
	// renaming a strategy does not change its results.
	r.pcg.Seed(uint64(e.seed), r.sessSeed)
	if r.cache == nil {
		r.cache = e.newCache()
	}
	r.cache.Reset()
	r.warm.reset(r.s.Warm)
	r.transient = r.transient[:0]
	r.msgs = r.msgs[:0]
	r.nMsgs = 0 // the previous prompt's messages are another run's
	r.msgSeq = mix(r.sessSeed, 1)
	r.clock, r.t0 = 0, 0
	r.userSeen, r.replied = false, false
	r.lastUser, r.userStep = "", -1
	r.fid = r.fid[:0]
	clear(r.connected)
	clear(r.listed)
	clear(r.active)
	r.started = false
	r.layerMs = [numLayers]float64{}
	r.tver++
	r.useSet(r.sessSet)

	for i := range n.Steps {
		st := &n.Steps[i]
		switch st.Kind {
		case StepUser:
			if r.userSeen {
				if st.PauseMs >= 0 {
					r.clock += st.PauseMs
				} else {
					r.clock += e.params.UserThinkMs
				}
			} else {
				r.userSeen = true
				r.t0 = r.clock
			}
			if !r.started {
				r.started = true
				r.startSession()
			}
			r.lastUser, r.userStep = st.Text, i
			r.appendMsg(st.TextTokens, false)
		case StepCanned:
			r.appendMsg(st.TextTokens, false)
		case StepCatalogChange:
			r.changeVersion(st.Server, st.Version)
		case StepModel:
			if !r.started {
				r.started = true
				r.startSession()
			}
			r.modelStep(st, wantFid)
		}
	}
	v := &out.Values
	v[MSessionMs] = r.clock
	if !r.replied {
		r.recordFirstReply()
	}
	v[MConnectMs] = r.layerMs[layerConnect] + r.layerMs[layerList]
	v[MInputTokens] = v[MUncachedTokens] + v[MCacheWriteTokens] + v[MCacheReadTokens]
	if v[MInputTokens] > 0 {
		v[MCacheHitRatio] = v[MCacheReadTokens] / v[MInputTokens]
	}
	p := e.model.Pricing
	c := e.model.Cache
	v[MCostUSD] = ((v[MUncachedTokens]+v[MCacheWriteTokens]*c.WriteMultiplier+v[MCacheReadTokens]*c.ReadMultiplier)*p.InputPerMTok +
		v[MOutputTokens]*p.OutputPerMTok) / 1e6
	v[MMalformedCalls] = v[MMalformedMissingRequired] + v[MMalformedUnknownProperty] + v[MMalformedType] + v[MMalformedEnum] + v[MMalformedOther] + v[MMalformedNoSchema]
}

// newSession computes what every strategy of a session shares: its
// initial registry (all catalog servers at their latest version when the
// trace names none), its random seed and its system prompt block.
func (r *replayer) newSession(n *Need) {
	e := r.e
	r.sess = n
	r.sessSeed = hashString(n.SessionID)
	r.sessSys = block{h: e.systemHash(n), tokens: e.systemTokens(n) + e.params.RequestOverheadTokens}
	r.resetWords()
	tables := r.tblBuf[:0]
	tt := e.tables
	if len(n.Servers) == 0 {
		for _, name := range tt.names {
			tables = append(tables, tt.latest[name])
		}
	} else {
		for _, s := range n.Servers {
			if st := tt.lookup(s.Name, s.Version); st != nil {
				tables = append(tables, st)
			}
		}
		sortTables(tables)
	}
	r.tblBuf = tables
	r.sessSet, r.keyBuf = e.set(tables, r.keyBuf)
}

// endSession lets the session's need go: the next run recomputes what
// its strategies share.
func (r *replayer) endSession() {
	r.sess, r.sessSet = nil, nil
	r.resetWords()
}

func (r *replayer) changeVersion(server, version string) {
	st := r.e.tables.lookup(server, version)
	if st == nil {
		return
	}
	tables := append(r.tblBuf[:0], r.tables...)
	found := false
	for i, t := range tables {
		if t.name == server {
			tables[i] = st
			found = true
		}
	}
	if !found {
		tables = append(tables, st)
		sortTables(tables)
	}
	r.tblBuf = tables
	var set *serverSet
	set, r.keyBuf = r.e.set(tables, r.keyBuf)
	r.useSet(set)
	if r.s.Warm.Key == "fingerprint" {
		r.warm.dropChanged(r.served)
		r.tver++
	}
}

// useSet makes set the registry.
func (r *replayer) useSet(set *serverSet) {
	r.set = set
	r.tables = set.tables
	r.dirOK = false
	r.countUnlisted()
	r.tver++
	r.staticOn = set.strat[r.si].staticOn
}

func (r *replayer) served(server, name string) *toolInfo {
	return r.set.bySrv[toolKey{server, name}]
}

func (r *replayer) resolve(c *Call) *toolInfo {
	if c.Server != "" {
		if ti := r.served(c.Server, c.Tool); ti != nil {
			return ti
		}
	}
	return r.set.byName[c.Tool]
}

// deferrable reports whether the strategy may defer ti at all.
func (r *replayer) deferrable(ti *toolInfo) bool {
	return r.flags[ti.id]&flagDeferrable != 0
}

// computeDeferrable is deferrable's rule, evaluated once per strategy and tool.
func computeDeferrable(s *Strategy, ti *toolInfo) bool {
	if matchList(s.NeverDefer, ti.server, ti.name) {
		return false
	}
	if matchList(s.AlwaysDefer, ti.server, ti.name) {
		return true
	}
	if s.Scope == "always-defer-only" || ti.local {
		return false
	}
	return true
}

func (r *replayer) isWarm(ti *toolInfo) *toolInfo { return r.warmIdent(ti.ident) }

// warmIdent returns the schema loaded for a tool identity (nil when cold).
func (r *replayer) warmIdent(ident int32) *toolInfo {
	if i := r.warm.find(ident); i >= 0 {
		return r.warm.entries[i].ti
	}
	for _, t := range r.transient {
		if t.ident == ident {
			return t
		}
	}
	return nil
}

// deferredMode evaluates the trigger for the next request.
func (r *replayer) deferredMode() bool {
	if r.staticOn {
		return true
	}
	if !r.s.Trigger.Categorical || len(r.s.AlwaysDefer) == 0 {
		return false
	}
	for _, t := range r.tables {
		for _, ti := range t.tools {
			if r.flags[ti.id]&flagCategorical != 0 && r.isWarm(ti) == nil {
				return true
			}
		}
	}
	return false
}

// state returns a tool's exposure and the schema the model sees (nil when cold).
func (r *replayer) state(ti *toolInfo, mode bool) (exposure, *toolInfo) {
	if !r.listed[ti.server] {
		return expCold, nil // lazy discovery: the runtime does not know it yet
	}
	return r.listedState(ti, mode)
}

// listedState is state for a tool of a listed server.
func (r *replayer) listedState(ti *toolInfo, mode bool) (exposure, *toolInfo) {
	if !mode || !r.deferrable(ti) {
		return expDirect, ti
	}
	if w := r.isWarm(ti); w != nil {
		return expWarm, w
	}
	return expCold, nil
}

func (r *replayer) appendMsg(tokens int64, schema bool) {
	r.msgSeq = mix(r.msgSeq, uint64(len(r.msgs)+1))
	r.msgs = append(r.msgs, block{h: r.msgSeq, tokens: tokens + r.e.params.MessageOverheadTokens, schema: schema})
}

// send simulates one model request producing output tokens.
func (r *replayer) send(extra bool, output int64, rec *Step, wantFid bool) {
	e := r.e
	p, schemaTok := r.buildPrompt()
	read, write := r.cache.Request(r.clock, p)
	total := p.Total()
	uncached := total - read - write
	lat := &e.model.Latency
	ttft := lat.OverheadMs + float64(uncached+write)/lat.PrefillTPS*1000 + float64(read)/lat.CachedPrefillTPS*1000
	dur := ttft + float64(output)/lat.DecodeTPS*1000
	if lat.JitterCV > 0 {
		sigma := math.Sqrt(math.Log(1 + lat.JitterCV*lat.JitterCV))
		dur *= math.Exp(r.rng.NormFloat64()*sigma - sigma*sigma/2)
	}
	r.clock += dur
	if extra {
		r.layerMs[layerSearch] += dur
	}
	v := &r.out.Values
	v[MUncachedTokens] += float64(uncached)
	v[MCacheWriteTokens] += float64(write)
	v[MCacheReadTokens] += float64(read)
	v[MOutputTokens] += float64(output)
	v[MSchemaTokens] += float64(schemaTok)
	v[MRequests]++
	if extra {
		v[MExtraRoundTrips]++
	}
	r.out.PerRequest = append(r.out.PerRequest, RequestTokens{Input: total, Uncached: uncached, CacheRead: read, CacheWrite: write, Output: output, Extra: extra})
	if wantFid && rec != nil && !extra && rec.Usage != nil {
		u := rec.Usage
		fp := FidelityPair{Session: r.n.SessionID, Request: len(r.out.PerRequest) - 1,
			RecordedInput: u.Input + u.CacheRead + u.CacheWrite, SimInput: total, RecordedMs: -1, SimMs: dur}
		if rec.DurationMs > 0 {
			fp.RecordedMs = rec.DurationMs
		}
		r.fid = append(r.fid, fp)
	}
}

func (r *replayer) modelStep(st *Step, wantFid bool) {
	e := r.e
	mode := r.deferredMode()
	// Which needed tools are cold?
	var cold []*toolInfo
	for i := range st.Calls {
		ti := r.resolve(&st.Calls[i])
		if ti == nil {
			continue
		}
		if exp, _ := r.state(ti, mode); exp == expCold && !containsTool(cold, ti) {
			cold = append(cold, ti)
		}
	}
	cold = r.coldCalls(st, cold)
	if len(cold) > 0 {
		r.load(cold)
	}
	r.send(false, e.outputTokens(st), st, wantFid)
	if !r.replied && r.userSeen && (st.Text != "" || st.TextTokens > 0) {
		r.replied = true
		r.recordFirstReply()
	}
	r.appendMsg(e.assistantTokens(st), false)
	mode = r.deferredMode()
	for i := range st.Calls {
		c := &st.Calls[i]
		ti := r.resolve(c)
		if ti != nil {
			exp, seen := r.state(ti, mode)
			switch exp {
			case expWarm:
				r.warm.touch(ti.ident)
				if seen.fp != ti.fp {
					r.out.Values[MStaleWarmCalls]++
					r.classify(e.validate(seen, ti, c.Args), true)
				}
			case expCold:
				r.out.Values[MCallsWithoutSchema]++
			}
			if r.flags[ti.id]&flagDenied != 0 {
				r.out.Values[MDeniedCalls]++
			}
		}
		if ti != nil {
			r.ensureConnected(ti.server)
		}
		if c.DurationMs >= 0 {
			r.clock += c.DurationMs
		} else {
			r.clock += e.params.DefaultToolMs
		}
		r.appendMsg(e.resultTokens(c), false)
	}
	if r.s.Warm.Disabled && len(r.transient) > 0 {
		r.transient = r.transient[:0]
		r.tver++
	}
}

// coldCalls applies the cold-call assumption: with probability ColdCallProb
// the model calls a cold tool directly, guessing its schema from the
// directory. Under rejected: execute, a guess that is well formed (with
// probability ColdCallWellFormedProb) runs without a schema in view and
// needs no load. Any other guess is rejected: the request that made it is
// wasted (an extra round trip), the rejection is added to the conversation,
// and the tool is loaded as usual. It returns the tools still to load.
func (r *replayer) coldCalls(st *Step, cold []*toolInfo) []*toolInfo {
	e := r.e
	if e.params.ColdCallProb <= 0 || len(cold) == 0 {
		return cold
	}
	keep := cold[:0:0]
	rejected := 0
	for _, ti := range cold {
		if r.rng.Float64() >= e.params.ColdCallProb {
			keep = append(keep, ti)
			continue
		}
		if r.s.Rejected == "execute" && r.rng.Float64() < e.params.ColdCallWellFormedProb {
			continue // executed without a schema in view: counted at the call
		}
		rejected++
		r.out.Values[MMalformedNoSchema]++
		keep = append(keep, ti)
	}
	if rejected > 0 {
		r.send(true, e.outputTokens(st), nil, false)
		r.appendMsg(e.assistantTokens(st), false)
		r.appendMsg(e.countText(rejectionText)*int64(rejected), false)
	}
	return keep
}

// rejectionText is what a runtime answers to a call of an unloaded tool
// (its token count is what the conversation grows by).
const rejectionText = "Tool not loaded: call tool_search first, then retry."

// recordFirstReply notes the first reply's time and how much of it each
// loading layer took.
func (r *replayer) recordFirstReply() {
	v := &r.out.Values
	v[MFirstReplyMs] = r.clock - r.t0
	v[MFirstReplyConnectMs] = r.layerMs[layerConnect]
	v[MFirstReplyListMs] = r.layerMs[layerList]
	v[MFirstReplySearchMs] = r.layerMs[layerSearch]
}

// classify records a validation outcome of a call made against a stale schema.
func (r *replayer) classify(class string, stale bool) {
	v := &r.out.Values
	switch class {
	case "":
		if stale {
			v[MStaleValidCalls]++
		}
	case ClassMissingRequired:
		v[MMalformedMissingRequired]++
	case ClassUnknownProperty:
		v[MMalformedUnknownProperty]++
	case ClassType:
		v[MMalformedType]++
	case ClassEnum:
		v[MMalformedEnum]++
	default:
		v[MMalformedOther]++
	}
}

// load brings the cold tools a step needs into view through tool_search
// round trips, as the strategy's search mode and the model assumptions say.
func (r *replayer) load(cold []*toolInfo) {
	e := r.e
	f, ranked := e.registry.Ranker(r.s.Search.Mode)
	selects := r.selBuf[:0]
	for _, ti := range cold {
		if !ranked || (r.s.Directory.Format != "none" && r.rng.Float64() < e.params.SelectProb) {
			selects = append(selects, ti)
			continue
		}
		r.keywordLoad(ti, f)
	}
	r.selBuf = selects
	if len(selects) > 0 {
		q := append(r.queryB[:0], "select:"...)
		for i, ti := range selects {
			if i > 0 {
				q = append(q, ',')
			}
			q = append(q, ti.name...)
		}
		r.queryB = q
		r.searchRoundTrip(q, selects)
	}
}

// keywordLoad searches for ti with keyword queries, falling back to select.
func (r *replayer) keywordLoad(ti *toolInfo, f RankerFactory) {
	ent, served, err := r.set.rankerFor(r.e, r.si, f)
	v := &r.out.Values
	var retry string // every retry searches for the name's words
	for qi := 0; qi <= r.s.Search.KeywordRetries; qi++ {
		var q string
		switch qi {
		case 0:
			q = r.queryFor(ti)
		case 1:
			retry = r.toolMemo(ti).query
			fallthrough
		default:
			v[MSearchRetries]++
			q = retry
		}
		got := r.gotBuf[:0]
		if err == nil {
			k := r.s.Search.K
			r.ranked = ent.rank(r.ranked[:0], q, k+len(r.warm.entries)+8)
			for _, idx := range r.ranked {
				t := served[idx] // what the registry serves of ent.tools[idx]
				if t == nil || r.isWarm(t) != nil {
					continue
				}
				got = append(got, t)
				if len(got) >= k {
					break
				}
			}
		}
		r.gotBuf = got // keep its memory for the next search
		r.queryB = append(r.queryB[:0], q...)
		r.searchRoundTrip(r.queryB, got)
		if containsTool(got, ti) {
			return
		}
		v[MSearchMisses]++
	}
	if r.s.Directory.Format == "none" {
		v[MUnrecoveredMisses]++
		return
	}
	v[MSearchRetries]++
	r.queryB = append(append(r.queryB[:0], "select:"...), ti.name...)
	r.one[0] = ti
	r.searchRoundTrip(r.queryB, r.one[:])
}

// queryFor picks the keyword query for a needed tool: the recorded query
// that returned it, else what the query model says the model would write.
func (r *replayer) queryFor(ti *toolInfo) string {
	if q := r.n.QueryFor[ti.name]; q != "" {
		return q
	}
	tm := r.toolMemo(ti)
	return queryFor(r.e.params.QueryModel, r.s.Search.Mode, r.s.Directory.Format != "none",
		queryText{user: r.lastUser, userWords: r.userFn, toolWords: tm.words, toolQuery: tm.query})
}

// userWords returns contentWords(r.lastUser), computed once per user step
// for every strategy of the session.
func (r *replayer) userWords() []string {
	if ws, ok := r.sessWords[r.userStep]; ok {
		return ws
	}
	start := len(r.words)
	r.words = appendContentWords(r.words, r.lastUser, &r.wordsSeen)
	ws := r.words[start:len(r.words):len(r.words)]
	if r.sessWords == nil {
		r.sessWords = map[int][]string{}
	}
	r.sessWords[r.userStep] = ws
	return ws
}

// Bounds of the word memory a replayer keeps from one session to the next.
const (
	maxReusedWords     = 4096
	maxReusedUserSteps = 256
)

// resetWords forgets the session's content words (keeping their memory).
func (r *replayer) resetWords() {
	if len(r.sessWords) > maxReusedUserSteps {
		r.sessWords = nil
	}
	clear(r.sessWords)
	if cap(r.words) > maxReusedWords {
		r.words = nil
	}
	clear(r.words)
	r.words = r.words[:0]
}

// searchRoundTrip is one tool_search call: an extra model request whose
// output is the search call, the search itself, and its result loading got.
// The query is only read during the call (callers pass scratch buffers).
func (r *replayer) searchRoundTrip(query []byte, got []*toolInfo) {
	e := r.e
	out, ok := r.n.queryTokens[string(query)]
	if !ok {
		r.callB = appendSearchCall(r.callB[:0], query)
		out = e.raw.Count(r.callB) + e.params.MessageOverheadTokens
		if r.n.queryTokens == nil {
			r.n.queryTokens = map[string]int64{}
		}
		r.n.queryTokens[string(query)] = out
	}
	if cap(r.queryB) > maxScratchText || cap(r.callB) > maxScratchText {
		r.queryB, r.callB = nil, nil // a very long query: do not keep its buffers
	}
	r.send(true, out, nil, false)
	r.out.Values[MSearches]++
	r.appendMsg(out, false)
	r.addLayer(layerSearch, e.params.SearchExecMs)
	got = r.expandFamily(got)
	if len(got) > 0 {
		r.tver++
	}
	for _, ti := range got {
		r.ensureListed(ti.server)
	}
	var res int64
	inline := r.s.Injection == "inline"
	for _, ti := range got {
		if r.s.Warm.Disabled {
			r.transient = append(r.transient, ti)
		} else {
			r.warm.add(ti)
		}
		if inline {
			res += ti.tokens
		} else {
			res += r.nameTokens(ti) + 2
			if r.s.EchoSchema {
				res += ti.pretty
			}
		}
	}
	r.appendMsg(res, inline)
	if r.s.Directory.Notice && e.domains != nil {
		for _, ti := range got {
			if d := e.domains.DomainOf(ti.server, ti.name); d != "" && !r.active[d] {
				r.active[d] = true
				r.appendMsg(e.countText(e.domains.ActivationNotice(d)), false)
			}
		}
	}
	if e.params.NudgeProb > 0 && r.rng.Float64() < e.params.NudgeProb {
		r.send(true, e.params.NudgeTokens, nil, false)
		r.appendMsg(e.params.NudgeTokens, false)
	}
}

// toolMemo is what a replayer derives from a tool's name, once per tool
// (by id) for every session and strategy.
type toolMemo struct {
	ok      bool     // words and query are set
	words   []string // nameWords(name)
	query   string   // words joined by spaces: the name as a keyword query
	counted bool     // nameTok is set
	nameTok int64    // e.countText(name)
}

func (r *replayer) toolMemo(ti *toolInfo) *toolMemo {
	if int(ti.id) >= len(r.tools) {
		r.tools = append(r.tools, make([]toolMemo, int(ti.id)+1-len(r.tools))...)
	}
	tm := &r.tools[ti.id]
	if !tm.ok {
		tm.words = nameWords(ti.name)
		tm.query = strings.Join(tm.words, " ")
		tm.ok = true
	}
	return tm
}

// nameTokens is e.countText(ti.name).
func (r *replayer) nameTokens(ti *toolInfo) int64 {
	tm := r.toolMemo(ti)
	if !tm.counted {
		tm.nameTok, tm.counted = r.e.countText(ti.name), true
	}
	return tm.nameTok
}

// expandFamily adds the family core when a family member is loaded.
func (r *replayer) expandFamily(got []*toolInfo) []*toolInfo {
	s := &r.s.Search
	if len(s.Family) == 0 || len(s.FamilyCore) == 0 {
		return got
	}
	hit := false
	for _, ti := range got {
		if matchList(s.Family, ti.server, ti.name) {
			hit = true
			break
		}
	}
	if !hit {
		return got
	}
	for _, name := range s.FamilyCore {
		ti := r.set.byName[name]
		if ti != nil && !containsTool(got, ti) && r.isWarm(ti) == nil {
			got = append(got, ti)
		}
	}
	return got
}

func containsTool(list []*toolInfo, ti *toolInfo) bool {
	for _, t := range list {
		if t.ident == ti.ident {
			return true
		}
	}
	return false
}

func containsInt(list []int, v int) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// appendSearchCall appends the arguments of a search call for query,
// {"query":"..."}, with the query quoted as encoding/json quotes it.
func appendSearchCall(dst, query []byte) []byte {
	dst = append(dst, `{"query":`...)
	dst = appendJSONString(dst, query)
	return append(dst, '}')
}

// appendJSONString appends s as json.Marshal encodes a string. Printable
// ASCII other than the characters json.Marshal escapes (quote, backslash
// and the HTML-sensitive <, > and &) is copied; anything else goes through
// json.Marshal itself.
func appendJSONString(dst, s []byte) []byte {
	for _, c := range s {
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			b, _ := json.Marshal(string(s))
			return append(dst, b...)
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}

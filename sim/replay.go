package sim

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/defersim/defersim/traces"
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

	tables   []*serverTable
	byName   map[string]*toolInfo
	bySrv    map[string]*toolInfo
	regSig   uint64
	staticOn bool
	dir      block
	dirOK    bool

	msgs     []block
	msgSeq   uint64
	clock    float64
	t0       float64
	userSeen bool
	replied  bool
	lastUser string

	blocks []block
	prompt Prompt
	// corpusKey's cache: valid for one registry (regSig) and strategy (si).
	ckey    string
	ckeySig uint64
	ckeySI  int
	ckeyOK  bool
	// The tools[] segment is rebuilt only when what decides it changes:
	// tver counts such changes (loads, evictions, drops, registry changes).
	// Loading layers (layers.go): which servers are connected and listed,
	// and the time spent in each layer so far.
	connected map[string]bool
	listed    map[string]bool
	unlisted  int
	started   bool
	active    map[string]bool // domains whose activation notice was shown
	layerMs   [numLayers]float64

	tver      uint64
	toolBuilt uint64
	toolMode  bool
	toolBlks  []block
	fid       []FidelityPair
}

func newReplayer(e *Engine) *replayer {
	return &replayer{e: e, byName: map[string]*toolInfo{}, bySrv: map[string]*toolInfo{},
		connected: map[string]bool{}, listed: map[string]bool{}, active: map[string]bool{}}
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
		e.prepare(n)
	}
	r.s = &e.strategies[si]
	r.si = si
	r.n = n
	r.out = out
	*out = Outcome{PerRequest: out.PerRequest[:0]}
	// Common random numbers: every strategy of a session draws from the same
	// stream (seeded by the run seed and the session id, not the strategy),
	// so paired comparisons are not blurred by independent draws and
	// renaming a strategy does not change its results.
	r.rng = rand.New(rand.NewPCG(uint64(e.seed), hashString(n.SessionID)))
	if r.cache == nil {
		r.cache = e.newCache()
	}
	r.cache.Reset()
	r.warm.reset(r.s.Warm)
	r.transient = r.transient[:0]
	r.msgs = r.msgs[:0]
	r.msgSeq = mix(hashString(n.SessionID), 1)
	r.clock, r.t0 = 0, 0
	r.userSeen, r.replied = false, false
	r.lastUser = ""
	r.fid = r.fid[:0]
	clear(r.connected)
	clear(r.listed)
	clear(r.active)
	r.started = false
	r.layerMs = [numLayers]float64{}
	r.tver++
	r.setRegistry(n.Servers)

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
			r.lastUser = st.Text
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

// setRegistry builds the session's tool registry from its server list (all
// catalog servers at their latest version when the trace names none).
func (r *replayer) setRegistry(servers []traces.ServerRef) {
	r.tables = r.tables[:0]
	tt := r.e.tables
	if len(servers) == 0 {
		for _, name := range tt.names {
			r.tables = append(r.tables, tt.latest[name])
		}
	} else {
		for _, s := range servers {
			if st := tt.lookup(s.Name, s.Version); st != nil {
				r.tables = append(r.tables, st)
			}
		}
		sortTables(r.tables)
	}
	r.registryChanged()
}

func (r *replayer) changeVersion(server, version string) {
	st := r.e.tables.lookup(server, version)
	if st == nil {
		return
	}
	found := false
	for i, t := range r.tables {
		if t.name == server {
			r.tables[i] = st
			found = true
		}
	}
	if !found {
		r.tables = append(r.tables, st)
		sortTables(r.tables)
	}
	r.registryChanged()
	if r.s.Warm.Key == "fingerprint" {
		r.warm.dropChanged(r.served)
		r.tver++
	}
}

func (r *replayer) registryChanged() {
	clear(r.byName)
	clear(r.bySrv)
	sig := uint64(0)
	for _, t := range r.tables {
		sig = mix(sig, hashString(t.name+"@"+t.version))
		for _, ti := range t.tools {
			if _, ok := r.byName[ti.name]; !ok {
				r.byName[ti.name] = ti
			}
			r.bySrv[ti.server+"\x00"+ti.name] = ti
		}
	}
	r.regSig = sig
	r.dirOK = false
	r.countUnlisted()
	r.tver++
	r.staticOn = r.e.staticTrigger(r.s, r.tables, r)
}

func (r *replayer) served(server, name string) *toolInfo { return r.bySrv[server+"\x00"+name] }

func (r *replayer) resolve(c *Call) *toolInfo {
	if c.Server != "" {
		if ti := r.served(c.Server, c.Tool); ti != nil {
			return ti
		}
	}
	return r.byName[c.Tool]
}

// deferrable reports whether the strategy may defer ti at all.
func (r *replayer) deferrable(ti *toolInfo) bool {
	return r.e.flags[r.si][ti.id]&flagDeferrable != 0
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

func (r *replayer) isWarm(ti *toolInfo) *toolInfo {
	if w := r.warm.get(ti); w != nil {
		return w
	}
	for _, t := range r.transient {
		if t.ident == ti.ident {
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
			if r.e.flags[r.si][ti.id]&flagCategorical != 0 && r.isWarm(ti) == nil {
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

// buildPrompt assembles tools → system → directory → messages and the
// cache breakpoints, and returns the prompt plus its schema tokens.
func (r *replayer) buildPrompt() (*Prompt, int64) {
	e := r.e
	mode := r.deferredMode()
	search := mode || r.unlisted > 0
	if r.toolBuilt != r.tver || r.toolMode != mode || r.toolBlks == nil {
		tb := r.toolBlks[:0]
		if search {
			tb = append(tb, block{h: hashString("\x00tool_search"), tokens: e.params.SearchToolTokens, schema: true})
		}
		for _, t := range r.tables {
			for _, ti := range t.tools {
				exp, seen := r.state(ti, mode)
				if exp == expCold || (exp == expWarm && r.s.Injection == "inline") {
					continue
				}
				tb = append(tb, block{h: seen.h, tokens: seen.tokens, schema: true})
			}
		}
		if tb == nil {
			tb = []block{}
		}
		r.toolBlks, r.toolBuilt, r.toolMode = tb, r.tver, mode
	}
	b := append(r.blocks[:0], r.toolBlks...)
	var schemaTok int64
	toolsEnd := len(b) - 1
	b = append(b, block{h: e.systemHash(r.n), tokens: e.systemTokens(r.n) + e.params.RequestOverheadTokens})
	if search && r.s.Directory.Format != "none" {
		if !r.dirOK {
			r.dir = e.directory(r.s, r.tables, func(ti *toolInfo) bool { return mode && r.deferrable(ti) }, r.listed)
			r.dirOK = true
		}
		if r.dir.tokens > 0 {
			b = append(b, r.dir)
		}
	}
	sysEnd := len(b) - 1
	b = append(b, r.msgs...)
	r.blocks = b

	p := &r.prompt
	p.PrefixHash = p.PrefixHash[:0]
	p.CumTokens = p.CumTokens[:0]
	var h uint64
	var cum int64
	for _, bl := range b {
		h = mix(h, bl.h)
		cum += bl.tokens
		if bl.schema {
			schemaTok += bl.tokens
		}
		p.PrefixHash = append(p.PrefixHash, h)
		p.CumTokens = append(p.CumTokens, cum)
	}
	// Breakpoints, by priority: the last message, the end of tools[], the
	// end of the system prompt, the second-to-last message.
	p.Breakpoints = p.Breakpoints[:0]
	last := len(b) - 1
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
	return p, schemaTok
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
			if e.flags[r.si][ti.id]&flagDenied != 0 {
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
	var selects []*toolInfo
	for _, ti := range cold {
		if !ranked || (r.s.Directory.Format != "none" && r.rng.Float64() < e.params.SelectProb) {
			selects = append(selects, ti)
			continue
		}
		r.keywordLoad(ti, f)
	}
	if len(selects) > 0 {
		names := make([]string, len(selects))
		for i, ti := range selects {
			names[i] = ti.name
		}
		r.searchRoundTrip("select:"+strings.Join(names, ","), selects)
	}
}

// keywordLoad searches for ti with keyword queries, falling back to select.
func (r *replayer) keywordLoad(ti *toolInfo, f RankerFactory) {
	e := r.e
	ent, err := e.rankers.get(r.s.Search.Mode, f, r.corpusKey(), r.corpus)
	v := &r.out.Values
	queries := []string{r.queryFor(ti)}
	for i := 0; i < r.s.Search.KeywordRetries; i++ {
		queries = append(queries, strings.Join(nameWords(ti.name), " "))
	}
	for qi, q := range queries {
		if qi > 0 {
			v[MSearchRetries]++
		}
		var got []*toolInfo
		if err == nil {
			k := r.s.Search.K
			for _, idx := range ent.r.Rank(q, k+len(r.warm.entries)+8) {
				t := r.servedOf(ent.tools[idx])
				if t == nil || r.isWarm(t) != nil {
					continue
				}
				got = append(got, t)
				if len(got) >= k {
					break
				}
			}
		}
		r.searchRoundTrip(q, got)
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
	r.searchRoundTrip("select:"+ti.name, []*toolInfo{ti})
}

func (r *replayer) servedOf(t *toolInfo) *toolInfo { return r.served(t.server, t.name) }

// corpus is every deferrable tool of the current registry.
func (r *replayer) corpus() []*toolInfo {
	var out []*toolInfo
	for _, t := range r.tables {
		for _, ti := range t.tools {
			if r.deferrable(ti) {
				out = append(out, ti)
			}
		}
	}
	return out
}

// corpusKey identifies the corpus by the ids of its tools, so strategies
// that defer the same tools share one ranker.
func (r *replayer) corpusKey() string {
	if r.ckeyOK && r.ckeySig == r.regSig && r.ckeySI == r.si {
		return r.ckey
	}
	h := uint64(len(r.tables))
	for _, t := range r.tables {
		for _, ti := range t.tools {
			if r.deferrable(ti) {
				h = mix(h, uint64(ti.id)+1)
			}
		}
	}
	r.ckey, r.ckeySig, r.ckeySI, r.ckeyOK = strconv.FormatUint(h, 16), r.regSig, r.si, true
	return r.ckey
}

// queryFor picks the keyword query for a needed tool: the recorded query
// that returned it, else what the query model says the model would write.
func (r *replayer) queryFor(ti *toolInfo) string {
	if q := r.n.QueryFor[ti.name]; q != "" {
		return q
	}
	return keywordQuery(r.e.params.QueryModel, r.s.Search.Mode, r.s.Directory.Format != "none", r.lastUser, ti.name)
}

// searchRoundTrip is one tool_search call: an extra model request whose
// output is the search call, the search itself, and its result loading got.
func (r *replayer) searchRoundTrip(query string, got []*toolInfo) {
	e := r.e
	out, ok := r.n.queryTokens[query]
	if !ok {
		out = e.raw.Count([]byte(`{"query":`+jsonQuote(query)+`}`)) + e.params.MessageOverheadTokens
		if r.n.queryTokens == nil {
			r.n.queryTokens = map[string]int64{}
		}
		r.n.queryTokens[query] = out
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
			res += e.countText(ti.name) + 2
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
		ti := r.byName[name]
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

func jsonQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

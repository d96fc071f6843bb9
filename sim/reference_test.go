package sim

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// The reference replayer states the replay's rules as plainly as they can
// be written: every prompt assembled from scratch, the registry, the warm
// set and the loading layers as plain lists and maps searched on every
// use, no memo and no scratch space shared between runs. It uses the
// engine's definitions (components, tool tables, token counts, accounting)
// and nothing of the fast replayer (replayer: incremental prompts, shared
// server sets, memoised rankings, directories and words), which the tests
// compare with it (check_test.go).

// refReplay is one run of the reference replayer: need n under strategy si.
type refReplay struct {
	e       *Engine
	p       *plan
	s       *Strategy
	si      int
	n       *Need
	out     *Outcome
	wantFid bool
	fid     []FidelityPair
	rng     *rand.Rand
	rankers map[string]Ranker // by search mode and corpus: rankers are pure functions of their corpus

	cache     PromptCache
	placer    BreakpointPlacer
	tables    []*serverTable // the registry
	runFP     uint64         // the registry's fingerprint at the last run start
	warm      []WarmEntry
	seq       int
	transient []*Tool
	msgs      []block
	msgSeq    uint64
	clock, t0 float64
	userSeen  bool
	replied   bool
	// requests counts the model requests sent since the latest user
	// message (or the session start); step is the model step replayed.
	requests  int
	step      int
	lastUser  string
	userMsg   int // index in msgs of the latest user message (-1: none)
	started   bool
	connected map[string]bool
	listed    map[string]bool
	active    map[string]bool
	layerMs   [numLayers]float64
	lastMode  bool // deferred mode of the last prompt
}

// listedTables says, for each table of the registry, whether its server
// is listed (Engine.directory's argument).
func (r *refReplay) listedTables() []bool {
	l := make([]bool, len(r.tables))
	for i, t := range r.tables {
		l[i] = r.listed[t.name]
	}
	return l
}

// replayReference replays n under strategy si with the reference
// replayer; cache wraps the run's prompt cache (to record its prompts).
func (e *Engine) replayReference(n *Need, si int, wrap func(PromptCache) PromptCache, rankers map[string]Ranker) (Outcome, []FidelityPair) {
	inner := e.newCache()
	r := &refReplay{e: e, p: e.plans[si], s: &e.strategies[si], si: si, n: n, wantFid: si == e.fidelity,
		out: &Outcome{}, rng: rand.New(rand.NewPCG(uint64(e.seed), hashString(n.SessionID))), rankers: rankers,
		cache: wrap(inner), connected: map[string]bool{}, listed: map[string]bool{}, active: map[string]bool{},
		msgSeq: mix(hashString(n.SessionID), 1), userMsg: -1}
	r.placer, _ = inner.(BreakpointPlacer)
	if len(n.Servers) == 0 {
		for _, name := range e.tables.names {
			r.tables = append(r.tables, e.tables.latest[name])
		}
	} else {
		for _, s := range n.Servers {
			if t := e.tables.lookup(s.Name, s.Version); t != nil {
				r.tables = append(r.tables, t)
			}
		}
		sortTables(r.tables)
	}
	r.runFP = registryFingerprint(r.tables)
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
			r.start()
			if fp := registryFingerprint(r.tables); r.p.clearOnChange && fp != r.runFP {
				r.runFP, r.warm = fp, nil // a run starts on a changed registry: the warm set is emptied
			}
			r.lastUser, r.userMsg = st.Text, len(r.msgs)
			r.requests = 0
			r.appendMsg(st.TextTokens, false)
		case StepCanned:
			r.appendMsg(st.TextTokens, false)
		case StepCatalogChange:
			r.changeVersion(st.Server, st.Version)
		case StepModel:
			r.start()
			r.step = i
			r.modelStep(st)
		}
	}
	if !r.replied {
		firstReply(&r.out.Values, r.clock, r.t0, &r.layerMs)
	}
	e.finish(&r.out.Values, r.clock, &r.layerMs)
	return *r.out, r.fid
}

func sameTool(a, b *Tool) bool { return a.server == b.server && a.name == b.name }

// served is the tool the registry serves as server's name: the last table
// of that server has it.
func (r *refReplay) served(server, name string) *Tool {
	for i := len(r.tables) - 1; i >= 0; i-- {
		for _, ti := range r.tables[i].tools {
			if ti.server == server && ti.name == name {
				return ti
			}
		}
	}
	return nil
}

// resolve finds the tool a call names: by server and name when it names
// a server, else the first tool of that name.
func (r *refReplay) resolve(c *Call) *Tool {
	if c.Server != "" {
		return r.served(c.Server, c.Tool)
	}
	for _, t := range r.tables {
		for _, ti := range t.tools {
			if ti.name == c.Tool {
				return ti
			}
		}
	}
	return nil
}

// deferrable reads the engine's table of the strategy's deferral rule
// (computeDeferrable, once per tool).
func (r *refReplay) deferrable(ti *Tool) bool { return r.e.flags[r.si][ti.id]&flagDeferrable != 0 }

// loaded returns the schema loaded for ti's tool (nil when cold).
func (r *refReplay) loaded(ti *Tool) *Tool {
	for _, w := range r.warm {
		if sameTool(w.Tool, ti) {
			return w.Tool
		}
	}
	for _, t := range r.transient {
		if sameTool(t, ti) {
			return t
		}
	}
	return nil
}

func (r *refReplay) exposure(ti *Tool, mode bool) (exposure, *Tool) {
	if !r.listed[ti.server] {
		return expCold, nil
	}
	if !mode || !r.deferrable(ti) {
		return expDirect, ti
	}
	if w := r.loaded(ti); w != nil {
		return expWarm, w
	}
	return expCold, nil
}

func (r *refReplay) deferredMode() bool {
	st := RegistryStats{ContextWindow: r.e.model.ContextWindow}
	for _, t := range r.tables {
		for _, ti := range t.tools {
			st.Tools++
			if r.p.estimate != "" {
				st.EstimatedTokens += r.e.tables.estBy[r.p.estimate][ti.fp]
			}
			if r.deferrable(ti) {
				st.DeferrableTools++
				st.DeferrableTokens += ti.tokens
				if r.p.estimate != "" {
					st.EstimatedDeferrableTokens += r.e.tables.estBy[r.p.estimate][ti.fp]
				}
			}
		}
	}
	if st.DeferrableTools > 0 && r.p.trigger.On(st) {
		return true
	}
	return r.p.session != nil && r.p.session.OnNow(r)
}

// ColdAlwaysDefer implements TriggerState.
func (r *refReplay) ColdAlwaysDefer() bool {
	for _, t := range r.tables {
		for _, ti := range t.tools {
			if matchList(r.s.AlwaysDefer, ti.server, ti.name) && !matchList(r.s.NeverDefer, ti.server, ti.name) && r.loaded(ti) == nil {
				return true
			}
		}
	}
	return false
}

// ColdDeferrable implements TriggerState.
func (r *refReplay) ColdDeferrable() bool {
	for _, t := range r.tables {
		for _, ti := range t.tools {
			if r.deferrable(ti) && r.loaded(ti) == nil {
				return true
			}
		}
	}
	return false
}

func (r *refReplay) appendMsg(tokens int64, schema bool) {
	r.msgSeq = mix(r.msgSeq, uint64(len(r.msgs)+1))
	r.msgs = append(r.msgs, block{h: r.msgSeq, tokens: tokens + r.e.params.MessageOverheadTokens, schema: schema})
}

// prompt assembles the next request from scratch: tools[] (tool_search
// first when deferred tools exist or servers are unlisted; then every
// direct tool and, when the injection says so, every loaded one, in
// registry order), the system prompt, the directory, the messages.
func (r *refReplay) prompt() (*Prompt, int64) {
	e := r.e
	mode := r.deferredMode()
	r.lastMode = mode
	search := mode
	for _, t := range r.tables {
		search = search || !r.listed[t.name]
	}
	var blocks []block
	if search {
		blocks = append(blocks, block{h: hashString("\x00tool_search"), tokens: e.params.SearchToolCount(), schema: true})
	}
	for _, t := range r.tables {
		for _, ti := range t.tools {
			exp, seen := r.exposure(ti, mode)
			if exp == expDirect || (exp == expWarm && r.p.inTools) {
				blocks = append(blocks, block{h: seen.h, tokens: seen.tokens, schema: true})
			}
		}
	}
	toolsEnd := len(blocks) - 1
	blocks = append(blocks, block{h: e.systemHash(r.n.SystemText, r.n.SystemTokens), tokens: r.n.SystemTokens + e.params.RequestOverheadTokens})
	if search && r.p.showsNames {
		d := e.directory(r.si, r.tables, func(ti *Tool) bool { return mode && r.deferrable(ti) }, r.listedTables(), nil)
		if d.tokens > 0 {
			blocks = append(blocks, d)
		}
	}
	sysEnd := len(blocks) - 1
	p := segmentPrompt(blocks, r.msgs)
	var schema int64
	blocks = append(blocks, r.msgs...)
	for _, b := range blocks {
		if b.schema {
			schema += b.tokens
		}
	}
	if r.placer != nil {
		user := -1
		if r.userMsg >= 0 {
			user = sysEnd + 1 + r.userMsg
		}
		p.Breakpoints = r.placer.Breakpoints(nil, PromptLayout{ToolsEnd: toolsEnd, SystemEnd: sysEnd, Last: len(blocks) - 1,
			Messages: len(r.msgs), User: user, Layout: r.p.cacheLayout})
	}
	return p, schema
}

func (r *refReplay) send(extra bool, output int64, calls bool, rec *Step) {
	p, schema := r.prompt()
	read, write := r.cache.Request(r.clock, p)
	rt := request(&r.out.Values, p.Total(), read, write, output, schema, extra, r.lastMode)
	switch {
	case r.requests == 0 && calls:
		rt.Kind = KindTurnCall
	case r.requests == 0:
		rt.Kind = KindTurnText
	case rec != nil && r.repeatsPrevious():
		rt.Kind = KindRepeat
	case calls:
		rt.Kind = KindToolCall
	default:
		rt.Kind = KindToolText
	}
	r.requests++
	dur := r.e.requestMs(rt, r.rng)
	r.clock += dur
	if extra {
		r.layerMs[layerSearch] += dur
	}
	r.out.PerRequest = append(r.out.PerRequest, rt)
	if r.wantFid && rec != nil && !extra && (rec.Usage != nil || rec.DurationMs > 0) {
		r.fid = append(r.fid, fidelityPair(r.n.SessionID, len(r.out.PerRequest)-1, rec.Usage, rec.DurationMs, rt, dur))
	}
}

// repeatsPrevious reports whether the model step being replayed calls
// exactly what the model step before it called: the same tools with the
// same argument bytes, in the same order, at least one.
func (r *refReplay) repeatsPrevious() bool {
	cur := &r.n.Steps[r.step]
	for i := r.step - 1; i >= 0; i-- {
		prev := &r.n.Steps[i]
		if prev.Kind != StepModel {
			continue
		}
		if len(cur.Calls) == 0 || len(prev.Calls) != len(cur.Calls) {
			return false
		}
		for j := range cur.Calls {
			a, b := prev.Calls[j], cur.Calls[j]
			if a.Tool != b.Tool || a.Server != b.Server || string(a.Args) != string(b.Args) {
				return false
			}
		}
		return true
	}
	return false
}

func (r *refReplay) modelStep(st *Step) {
	e := r.e
	mode := r.deferredMode()
	var cold []*Tool
	for i := range st.Calls {
		ti := r.resolve(&st.Calls[i])
		if ti == nil {
			continue
		}
		if exp, _ := r.exposure(ti, mode); exp == expCold && !slices.ContainsFunc(cold, func(t *Tool) bool { return sameTool(t, ti) }) {
			cold = append(cold, ti)
		}
	}
	if e.params.ColdCallProb > 0 && len(cold) > 0 {
		var keep []*Tool
		rejected := 0
		for _, ti := range cold {
			if r.rng.Float64() >= e.params.ColdCallProb {
				keep = append(keep, ti)
				continue
			}
			if r.p.rejectExecute && r.rng.Float64() < e.params.ColdCallWellFormedProb {
				continue
			}
			rejected++
			r.out.Values[MMalformedNoSchema]++
			keep = append(keep, ti)
		}
		if rejected > 0 {
			r.send(true, outputTokens(st.Usage, e.assistantTokens(st)), true, nil)
			r.appendMsg(e.assistantTokens(st), false)
			r.appendMsg(e.countText(rejectionText)*int64(rejected), false)
		}
		cold = keep
	}
	if len(cold) > 0 {
		r.load(cold)
	}
	r.send(false, outputTokens(st.Usage, e.assistantTokens(st)), len(st.Calls) > 0, st)
	if !r.replied && r.userSeen && (st.Text != "" || st.TextTokens > 0) {
		r.replied = true
		firstReply(&r.out.Values, r.clock, r.t0, &r.layerMs)
	}
	r.appendMsg(e.assistantTokens(st), false)
	mode = r.deferredMode()
	for i := range st.Calls {
		c := &st.Calls[i]
		if ti := r.resolve(c); ti != nil {
			switch exp, seen := r.exposure(ti, mode); exp {
			case expWarm:
				r.touch(ti)
				if seen.fp != ti.fp {
					r.out.Values[MStaleWarmCalls]++
					if c.ArgsUnrecorded {
						r.out.Values[MCallsUnchecked]++
					} else {
						classify(&r.out.Values, e.validate(seen, ti, c.Args))
					}
				}
			case expCold:
				r.out.Values[MCallsWithoutSchema]++
			}
			r.connect(ti.server)
		}
		server := c.Server
		if ti := r.resolve(c); ti != nil {
			server = ti.server
		}
		if matchList(e.deny, server, c.Tool) || (len(e.allow) > 0 && !matchList(e.allow, server, c.Tool)) {
			r.out.Values[MDeniedCalls]++
			r.appendMsg(e.countText(deniedText), false)
			continue
		}
		if c.DurationMs >= 0 {
			r.clock += c.DurationMs
		} else {
			r.clock += e.params.DefaultToolMs
		}
		if c.ResultUnrecorded {
			r.out.Values[MCallsResultUnrecorded]++
		}
		r.appendMsg(c.ResultTokens, false)
	}
	if r.p.disabled {
		r.transient = nil
	}
}

func (r *refReplay) load(cold []*Tool) {
	var selects []*Tool
	for _, ti := range cold {
		if r.p.ranker == nil || (r.n.QueryFor[ti.name] == "" && r.p.showsNames && r.rng.Float64() < r.e.params.SelectProb) {
			selects = append(selects, ti)
			continue
		}
		r.rankedLoad(ti)
	}
	if len(selects) > 0 {
		names := make([]string, len(selects))
		for i, ti := range selects {
			names[i] = ti.name
		}
		r.search("select:"+strings.Join(names, ","), selects)
	}
}

// rankedLoad searches for ti: the query model's query (or the recorded
// one), then retries with the tool's name words, then an exact select when
// the directory shows names. Each search asks the ranker for k + (loaded
// schemas) + 8 tools over the registry's deferrable tools and loads the
// first k that are not loaded.
func (r *refReplay) rankedLoad(ti *Tool) {
	var corpus []*Tool
	var key strings.Builder
	key.WriteString(r.s.Search.Mode)
	for _, t := range r.tables {
		for _, c := range t.tools {
			if r.deferrable(c) {
				corpus = append(corpus, c)
				fmt.Fprintf(&key, ",%d", c.id)
			}
		}
	}
	rk, ok := r.rankers[key.String()]
	if !ok {
		docs := make([]ToolDoc, len(corpus))
		for i, c := range corpus {
			docs[i] = ToolDoc{Name: c.name, Server: c.server, Description: c.desc, Schema: c.schema}
		}
		rk, _ = r.p.ranker(docs)
		r.rankers[key.String()] = rk
	}
	k := r.s.Search.K
	nameQuery := strings.Join(nameWords(ti.name), " ")
	v := &r.out.Values
	for qi := 0; qi <= r.s.Search.KeywordRetries; qi++ {
		q := nameQuery
		if qi == 0 {
			var recorded bool
			if q, recorded = r.query(ti); recorded {
				v[MRecordedQuerySearches]++
			}
		} else {
			v[MSearchRetries]++
		}
		var got []*Tool
		if rk != nil {
			for _, idx := range rk.Rank(q, k+len(r.warm)+8) {
				t := r.served(corpus[idx].server, corpus[idx].name)
				if t == nil || r.loaded(t) != nil {
					continue
				}
				if got = append(got, t); len(got) >= k {
					break
				}
			}
		}
		r.search(q, got)
		if slices.ContainsFunc(got, func(t *Tool) bool { return sameTool(t, ti) }) {
			return
		}
		v[MSearchMisses]++
	}
	if !r.p.showsNames {
		v[MUnrecoveredMisses]++
		return
	}
	v[MSearchRetries]++
	r.search("select:"+ti.name, []*Tool{ti})
}

func (r *refReplay) query(ti *Tool) (string, bool) {
	if q := r.n.QueryFor[ti.name]; q != "" {
		return q, true
	}
	words := nameWords(ti.name)
	user := r.lastUser
	return r.p.query.Query(QueryInput{User: user, UserWords: func() []string { return contentWords(user) },
		ToolWords: words, ToolQuery: strings.Join(words, " "), DirectoryShowsNames: r.p.showsNames}), false
}

// search is one tool_search round trip loading got.
func (r *refReplay) search(query string, got []*Tool) {
	e := r.e
	call, _ := json.Marshal(struct {
		Query string `json:"query"`
	}{query})
	out := e.raw.Count(call) + e.params.MessageOverheadTokens
	r.send(true, out, true, nil)
	r.out.Values[MSearches]++
	r.appendMsg(out, false)
	r.addLayer(layerSearch, e.params.SearchExecMs)
	if fam := r.s.Search; len(fam.Family) > 0 && len(fam.FamilyCore) > 0 &&
		slices.ContainsFunc(got, func(t *Tool) bool { return matchList(fam.Family, t.server, t.name) }) {
		got = slices.Clone(got)
		for _, name := range fam.FamilyCore {
			core := r.resolve(&Call{Tool: name})
			if core != nil && !slices.ContainsFunc(got, func(t *Tool) bool { return sameTool(t, core) }) && r.loaded(core) == nil {
				got = append(got, core)
			}
		}
	}
	for _, ti := range got {
		r.list(ti.server)
	}
	var res int64
	for _, ti := range got {
		if r.p.disabled {
			r.transient = append(r.transient, ti)
		} else {
			r.warmAdd(ti)
		}
		if r.p.result.Schema {
			res += ti.tokens
		}
		if r.p.result.Name {
			res += e.countText(ti.name) + 2
		}
		if r.p.result.Pretty {
			res += ti.pretty
		}
	}
	r.appendMsg(res, r.p.result.Schema)
	if r.s.Directory.Notice && e.domains != nil {
		for _, ti := range got {
			if d := e.domains.DomainOf(ti.server, ti.name); d != "" && !r.active[d] {
				r.active[d] = true
				r.appendMsg(e.countText(e.domains.ActivationNotice(d)), false)
			}
		}
	}
	if e.params.NudgeProb > 0 && r.rng.Float64() < e.params.NudgeProb {
		r.send(true, e.params.NudgeTokens, false, nil)
		r.appendMsg(e.params.NudgeTokens, false)
	}
}

// warmAdd loads ti into the warm set, then evicts (the eviction's choice)
// while the set is over a cap.
func (r *refReplay) warmAdd(ti *Tool) {
	r.seq++
	newest := slices.IndexFunc(r.warm, func(w WarmEntry) bool { return sameTool(w.Tool, ti) })
	if newest >= 0 {
		r.warm[newest] = WarmEntry{Tool: ti, LoadedAt: r.seq, UsedAt: r.seq}
	} else {
		newest = len(r.warm)
		r.warm = append(r.warm, WarmEntry{Tool: ti, LoadedAt: r.seq, UsedAt: r.seq})
	}
	over := func() bool {
		var tokens int64
		for _, w := range r.warm {
			tokens += warmSize(r.p.warmCost, w.Tool)
		}
		return (r.s.Warm.MaxTools > 0 && len(r.warm) > r.s.Warm.MaxTools) || (r.s.Warm.MaxTokens > 0 && tokens > r.s.Warm.MaxTokens)
	}
	for over() && len(r.warm) > 1 {
		v := r.p.eviction.Victim(r.warm, newest)
		if v < 0 || v == newest {
			return
		}
		r.warm = slices.Delete(r.warm, v, v+1)
		if v < newest {
			newest--
		}
	}
}

func (r *refReplay) touch(ti *Tool) {
	if i := slices.IndexFunc(r.warm, func(w WarmEntry) bool { return sameTool(w.Tool, ti) }); i >= 0 {
		r.seq++
		r.warm[i].UsedAt = r.seq
	}
}

// changeVersion moves a server to a version (adding it when the registry
// lacks it, brought up as the start brings up a server), then keeps the
// warm entries the keying keeps.
func (r *refReplay) changeVersion(server, version string) {
	st := r.e.tables.lookup(server, version)
	if st == nil {
		return
	}
	tables := slices.Clone(r.tables)
	found := false
	for i, t := range tables {
		if t.name == server {
			if t != st && r.started && r.listed[server] && r.p.discovery != discoverCached {
				// A listed server's version changed: the client lists it
				// again (tools/list_changed) with probability relist_prob.
				if pr := r.e.params.RelistProb; pr > 0 && r.rng.Float64() < pr {
					r.addLayer(layerList, r.e.listMs(st))
				}
			}
			tables[i], found = st, true
		}
	}
	if !found {
		tables = append(tables, st)
		sortTables(tables)
		if r.started {
			r.addLayer(layerConnect, r.upAdded(st))
		}
	}
	r.tables = tables
	r.warm = slices.DeleteFunc(r.warm, func(w WarmEntry) bool {
		return !r.p.keying.Keep(w.Tool, r.served(w.Tool.server, w.Tool.name))
	})
}

// start pays the eager loading layers once, at the session's first user
// message or model step.
func (r *refReplay) start() {
	if r.started {
		return
	}
	r.started = true
	lazy, disc := r.p.lazyConnect, r.p.discovery
	var worst float64
	for _, t := range r.tables {
		var d float64
		if !lazy {
			r.connected[t.name] = true
			d += r.e.connectMs(t)
			if disc == discoverEager {
				d += r.e.listMs(t)
			}
		}
		if disc != discoverLazy && (!lazy || disc == discoverCached) {
			r.listed[t.name] = true
		}
		worst = max(worst, d)
	}
	if lazy && disc == discoverEager {
		for _, t := range r.tables {
			r.connected[t.name], r.listed[t.name] = true, true
			worst = max(worst, r.e.connectMs(t)+r.e.listMs(t))
		}
	}
	r.addLayer(layerConnect, worst)
	if pr := r.e.params.CacheWarmStart; pr > 0 && r.rng.Float64() < pr {
		p, _ := r.prompt()
		r.cache.Seed(r.clock, p)
	}
}

// upAdded brings up a server added after the start, as start does for
// each server, and returns its time: an eager transport, or eager
// discovery, connects it; eager discovery lists it on connect; cached
// knows its tools; lazy discovery leaves it unlisted.
func (r *refReplay) upAdded(t *serverTable) float64 {
	lazy, disc := r.p.lazyConnect, r.p.discovery
	switch {
	case disc == discoverEager:
		r.connected[t.name], r.listed[t.name] = true, true
		return r.e.connectMs(t) + r.e.listMs(t)
	case disc == discoverCached:
		r.listed[t.name] = true
	}
	if !lazy {
		r.connected[t.name] = true
		return r.e.connectMs(t)
	}
	return 0
}

func (r *refReplay) table(server string) *serverTable {
	for _, t := range r.tables {
		if t.name == server {
			return t
		}
	}
	return nil
}

func (r *refReplay) connect(server string) {
	if r.connected[server] {
		return
	}
	r.connected[server] = true
	if t := r.table(server); t != nil {
		r.addLayer(layerConnect, r.e.connectMs(t))
	}
}

func (r *refReplay) list(server string) {
	if r.listed[server] {
		return
	}
	r.connect(server)
	r.listed[server] = true
	if t := r.table(server); t != nil {
		r.addLayer(layerList, r.e.listMs(t))
	}
}

func (r *refReplay) addLayer(layer int, ms float64) {
	if ms > 0 {
		r.clock += ms
		r.layerMs[layer] += ms
	}
}

// segmentPrompt builds from scratch the prompt of a static part and a
// conversation, in its two segments (Prompt): the static part's chain, and
// the messages' own chain from 0.
func segmentPrompt(static, msgs []block) *Prompt {
	p := &Prompt{}
	var h uint64
	var cum int64
	for _, b := range static {
		h = mix(h, b.h)
		cum += b.tokens
		p.sHash = append(p.sHash, h)
		p.sCum = append(p.sCum, cum)
	}
	h, cum = 0, 0
	for _, b := range msgs {
		h = mix(h, b.h)
		cum += b.tokens
		p.mHash = append(p.mHash, h)
		p.mCum = append(p.mCum, cum)
	}
	return p
}

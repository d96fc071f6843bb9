package sim

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/component"
	"github.com/defersim/defersim/tokens"
)

// Config is everything an Engine needs.
type Config struct {
	Strategies []Strategy
	Model      Model
	Params     Params
	Catalog    *catalog.Catalog
	Seed       int64
	// Registry of the named components strategies and the model use
	// (NewRegistry() if nil).
	Registry *Registry
	// LocalServers names servers whose tools are the runtime's own (local)
	// tools rather than MCP tools.
	LocalServers []string
	// Allow, when not empty, lists the tools the permission check lets
	// run (patterns); a call outside it is refused. Deny lists tools it
	// refuses; it wins over Allow.
	Allow, Deny []string
	// Domains groups tools into routing domains for the by-domain directory
	// and activation notices (nil: every server is its own domain).
	Domains Domains
	// Upgrades move servers to other catalog versions during the run.
	Upgrades []Upgrade
	// Validator checks stale-schema calls (nil: stale calls are counted but
	// not validated).
	Validator ArgValidator
	// FidelityStrategy names the strategy whose requests are compared with
	// recorded usage ("" = the first strategy whose trigger is never).
	FidelityStrategy string
	// MoreFidelity names more strategies whose requests are compared, each
	// into pairs of its own: a run's views (RunOptions.Views) each take
	// their fidelity strategy's.
	MoreFidelity []string
	// Content counts prompt tokens (nil: the registry's counter named
	// Params.Tokenizer); either is scaled by Params.TokenScale.
	Content tokens.Counter
	// RunModel says whether a model name a session_start records is the
	// run's model (nil: none is): Resolution.Models counts by it the
	// sessions of names beyond MaxRecordedModels.
	RunModel func(recorded string) bool
}

// Engine replays needs under every strategy of a scenario. It is safe for
// concurrent use: each worker gets its own replayer.
type Engine struct {
	strategies []Strategy
	plans      []*plan // by strategy: its components, resolved
	cache      CacheModel
	model      Model
	params     Params
	seed       int64
	runModel   func(string) bool
	content    tokens.Counter // memoised: schemas, directories, names, system prompts
	raw        tokens.Counter // per-session text, counted once per session
	tables     *toolTables
	rankers    *rankerCache
	sets       serverSets
	allow      []string
	deny       []string
	validator  ArgValidator
	renameMemo renameMemo // properties renamed between two definitions (validate.go)
	fidelity   int        // strategy index, -1 none
	fidel      []bool     // by strategy: its fidelity pairs are kept (fidelity and MoreFidelity)
	upgrades   []Upgrade
	unchanged  []UnchangedUpgrade // upgrades that change nothing in the replay (unchangedUpgrades)
	domains    Domains
	reg        *Registry // the components strategies resolve against (DirectoryTokens)
	// flags[s][tool id] caches per-strategy facts about each tool.
	flags [][]uint8

	deniedOnce sync.Once
	// needFree recycles NeedBuilders with their memory (needmem.go).
	needFree  chan *NeedBuilder
	deniedTok int64 // deniedTokens
}

// Per-strategy tool flags.
const (
	flagDeferrable  uint8 = 1 << iota // the strategy may defer the tool
	flagCategorical                   // always-defer and not never-defer
	flagDenied                        // the permission list refuses it
)

// NewEngine prepares an engine: it counts every distinct schema once.
func NewEngine(cfg Config) (*Engine, error) {
	if len(cfg.Strategies) == 0 {
		return nil, fmt.Errorf("no strategies")
	}
	reg := cfg.Registry
	if reg == nil {
		reg = NewRegistry()
	}
	cacheModel, err := resolveAs[CacheModel](reg, component.Cache, "cache.kind", cfg.Model.Cache.Kind)
	if err != nil {
		return nil, fmt.Errorf("model %s: %w", cfg.Model.Name, err)
	}
	lat := cfg.Model.Latency
	if lat.PrefillTPS <= 0 || lat.DecodeTPS <= 0 {
		return nil, fmt.Errorf("model %s: latency rates must be positive (prefill_tps, cached_prefill_tps, decode_tps)", cfg.Model.Name)
	}
	if lat.CachedPrefillTPS <= 0 && LatencyKeyUnread(cfg.Model, "latency.cached_prefill_tps") == "" {
		// Under a model without a prompt cache the rate is never applied
		// (no token is read from a cache) and may be left out.
		return nil, fmt.Errorf("model %s: latency rates must be positive (prefill_tps, cached_prefill_tps, decode_tps)", cfg.Model.Name)
	}
	content := cfg.Content
	if content == nil {
		c, err := reg.newCounter(cfg.Params.Tokenizer)
		if err != nil {
			return nil, fmt.Errorf("tokenizer: %w", err)
		}
		content = c
	}
	if s := cfg.Params.TokenScale; !(s > 0) || math.IsInf(s, 0) {
		return nil, fmt.Errorf("params.token_scale %v: want a positive factor", s)
	}
	content = tokens.NewScaled(content, cfg.Params.TokenScale)
	raw := content
	if m, ok := content.(*tokens.Memo); ok {
		raw = m
	} else if _, est := content.(*tokens.Estimator); !est {
		content = tokens.NewMemo(content)
	}
	counters := map[string]tokens.Counter{}
	seen := map[string]bool{}
	plans := make([]*plan, len(cfg.Strategies))
	for i := range cfg.Strategies {
		s := &cfg.Strategies[i]
		if seen[s.Name] {
			return nil, fmt.Errorf("strategy %q defined twice", s.Name)
		}
		seen[s.Name] = true
		p, err := reg.resolve(s, cfg.Params.QueryModel, cfg.Domains)
		if err != nil {
			return nil, fmt.Errorf("strategy %s: %w", s.Name, err)
		}
		plans[i] = p
		for _, c := range []struct{ what, name string }{{"trigger counter", p.estimate}, {"warm counter", s.Warm.Counter}} {
			if _, ok := counters[c.name]; !ok && c.name != "" {
				counter, err := reg.newCounter(c.name)
				if err != nil {
					return nil, fmt.Errorf("strategy %s: %s: %w", s.Name, c.what, err)
				}
				counters[c.name] = counter
			}
		}
	}
	local := map[string]bool{}
	for _, s := range cfg.LocalServers {
		local[s] = true
	}
	e := &Engine{strategies: cfg.Strategies, plans: plans, cache: cacheModel, model: cfg.Model, params: cfg.Params, seed: cfg.Seed, runModel: cfg.RunModel,
		content: content, raw: raw, rankers: &rankerCache{}, allow: cfg.Allow, deny: cfg.Deny, validator: cfg.Validator, fidelity: -1,
		needFree: make(chan *NeedBuilder, needFreeSize)}
	e.tables = buildToolTables(cfg.Catalog, content, counters, cfg.Params.ToolOverheadTokens, local)
	for i, p := range plans {
		if name := cfg.Strategies[i].Warm.Counter; name != "" {
			p.warmCost = e.tables.estimatesByID(name)
		}
	}
	for _, u := range cfg.Upgrades {
		if e.tables.byKey[u.Server+"@"+u.To] == nil {
			if len(e.tables.versions[u.Server]) == 0 {
				return nil, fmt.Errorf("%s: the catalogs have no server %q", u.where(), u.Server)
			}
			return nil, fmt.Errorf("%s: to %q: the catalogs have no such version of server %q (have %s)", u.where(), u.To, u.Server, strings.Join(e.tables.versions[u.Server], ", "))
		}
		if (u.AfterSession < 0) == u.At.IsZero() {
			return nil, fmt.Errorf("%s: give exactly one of after_session and at", u.where())
		}
	}
	e.upgrades = cfg.Upgrades
	e.unchanged = e.unchangedUpgrades()
	e.domains = cfg.Domains
	e.reg = reg
	e.computeFlags()
	for i := range cfg.Strategies {
		s := &cfg.Strategies[i]
		if (cfg.FidelityStrategy == "" && s.Trigger.Mode == TriggerNever) || s.Name == cfg.FidelityStrategy {
			e.fidelity = i
			break
		}
	}
	e.fidel = make([]bool, len(cfg.Strategies))
	if e.fidelity >= 0 {
		e.fidel[e.fidelity] = true
	}
	for _, name := range cfg.MoreFidelity {
		i := slices.IndexFunc(cfg.Strategies, func(s Strategy) bool { return s.Name == name })
		if i < 0 {
			return nil, fmt.Errorf("fidelity strategy %q is not among the strategies", name)
		}
		e.fidel[i] = true
	}
	return e, nil
}

// Strategies returns the engine's strategies in order.
func (e *Engine) Strategies() []Strategy { return e.strategies }

// ContentCounter returns the prompt token counter in use.
func (e *Engine) ContentCounter() tokens.Counter { return e.content }

func (e *Engine) newCache() PromptCache { return e.cache.New(e.model.Cache) }

// staticTrigger evaluates the part of strategy si's trigger that depends
// only on the registry (tables), not on what is warm: off while no tool is
// deferrable, else the trigger's rule over the registry's statistics.
func (e *Engine) staticTrigger(si int, tables []*serverTable, flags []uint8) bool {
	p := e.plans[si]
	st := RegistryStats{ContextWindow: e.model.ContextWindow}
	estMap := e.tables.estBy[p.estimate]
	for _, t := range tables {
		for _, ti := range t.tools {
			st.Tools++
			if estMap != nil {
				st.EstimatedTokens += estMap[ti.fp]
			}
			if flags[ti.id]&flagDeferrable != 0 {
				st.DeferrableTools++
				st.DeferrableTokens += ti.tokens
				if estMap != nil {
					st.EstimatedDeferrableTokens += estMap[ti.fp]
				}
			}
		}
	}
	return st.DeferrableTools > 0 && p.trigger.On(st)
}

// directory renders strategy si's directory block: the deferrable tools of
// the registry (tables), in the strategy's format, counted with the content
// tokenizer; listed[i] says whether tables[i]'s tools are listed.
// The servers and tools it hands the format are built in buf (reused
// when not nil; the format must not keep them).
func (e *Engine) directory(si int, tables []*serverTable, deferrable func(*Tool) bool, listed []bool, buf *dirScratch) block {
	if buf == nil {
		buf = &dirScratch{}
	}
	servers, tools := buf.servers[:0], buf.tools[:0]
	for i, t := range tables {
		s := DirectoryServer{Name: t.name, Listed: listed[i]}
		if s.Listed {
			start := len(tools)
			for _, ti := range t.tools {
				if deferrable(ti) {
					tools = append(tools, ti)
				}
			}
			s.Tools = tools[start:len(tools):len(tools)]
		}
		servers = append(servers, s)
	}
	buf.servers, buf.tools = servers, tools
	return e.directoryBlock(e.plans[si].dir, servers)
}

// directoryBlock is the directory block format f renders of servers,
// counted with the content tokenizer plus message_overhead_tokens; no
// block when it renders nothing.
func (e *Engine) directoryBlock(f DirectoryFormat, servers []DirectoryServer) block {
	var sb strings.Builder
	f.Render(&sb, servers)
	text := sb.String()
	if text == "" {
		return block{}
	}
	return block{h: hashString("\x00dir" + text), tokens: e.countText(text) + e.params.MessageOverheadTokens, schema: true}
}

// dirScratch is the memory a directory rendering reuses.
type dirScratch struct {
	servers []DirectoryServer
	tools   []*Tool
}

func sortTables(t []*serverTable) {
	sort.SliceStable(t, func(i, j int) bool {
		if t[i].local != t[j].local {
			return t[i].local
		}
		return t[i].name < t[j].name
	})
}

// FidelityStrategy names the strategy compared with recorded usage ("" = none).
func (e *Engine) FidelityStrategy() string {
	if e.fidelity < 0 {
		return ""
	}
	return e.strategies[e.fidelity].Name
}

// keepsFidelity says whether strategy si's fidelity pairs are kept.
func (e *Engine) keepsFidelity(si int) bool {
	return si == e.fidelity || (si < len(e.fidel) && e.fidel[si])
}

// Tools returns how many distinct tool schemas the engine counted.
func (e *Engine) Tools() int {
	seen := map[string]bool{}
	for _, st := range e.tables.byKey {
		for _, ti := range st.tools {
			seen[ti.server+"\x00"+ti.fp] = true
		}
	}
	return len(seen)
}

// computeFlags caches, per strategy and tool, whether the tool is
// deferrable, always-deferred and denied.
func (e *Engine) computeFlags() {
	e.flags = make([][]uint8, len(e.strategies))
	for si := range e.strategies {
		s := &e.strategies[si]
		f := make([]uint8, len(e.tables.all))
		for _, ti := range e.tables.all {
			var b uint8
			if computeDeferrable(s, ti) {
				b |= flagDeferrable
			}
			if matchList(s.AlwaysDefer, ti.server, ti.name) && !matchList(s.NeverDefer, ti.server, ti.name) {
				b |= flagCategorical
			}
			if e.denied(ti.server, ti.name) {
				b |= flagDenied
			}
			f[ti.id] = b
		}
		e.flags[si] = f
	}
}

// Deferrable returns how many of the catalog's tools (every server
// version) strategy si may defer, and a digest of which: two strategies
// with equal digests defer the same tools.
func (e *Engine) Deferrable(si int) (tools int, digest uint64) {
	for _, ti := range e.tables.all {
		if e.flags[si][ti.id]&flagDeferrable != 0 {
			tools++
			digest = mix(digest, mix(hashString(ti.server), mix(hashString(ti.name), hashString(ti.fp))))
		}
	}
	return tools, digest
}

// denied reports whether the permission check refuses a call of tool name
// of server: deny wins; with an allow list, a tool outside it is refused.
// Permission is checked at execution for every call, deferred or not.
func (e *Engine) denied(server, name string) bool {
	if matchList(e.deny, server, name) {
		return true
	}
	return len(e.allow) > 0 && !matchList(e.allow, server, name)
}

// computeDeferrable is the rule of flagDeferrable: never-defer wins, then
// always-defer, then the scope (local tools only when always-deferred).
func computeDeferrable(s *Strategy, ti *Tool) bool {
	if matchList(s.NeverDefer, ti.server, ti.name) {
		return false
	}
	if matchList(s.AlwaysDefer, ti.server, ti.name) {
		return true
	}
	return s.Scope != ScopeAlwaysDeferOnly && !ti.local
}

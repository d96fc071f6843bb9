package sim

import (
	"fmt"
	"sort"
	"strings"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/tokens"
)

// Config is everything an Engine needs.
type Config struct {
	Strategies []Strategy
	Model      Model
	Params     Params
	Catalog    *catalog.Catalog
	Seed       int64
	// Registry of search modes and other named components (NewRegistry() if nil).
	Registry *Registry
	// LocalServers names servers whose tools are the runtime's own (local)
	// tools rather than MCP tools.
	LocalServers []string
	// Deny lists tool names or prefixes the permission check refuses.
	Deny []string
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
	// Content counts prompt tokens (nil: tokens.ByName(Params.Tokenizer)).
	Content tokens.Counter
}

// Engine replays needs under every strategy of a scenario. It is safe for
// concurrent use: each worker gets its own replayer.
type Engine struct {
	strategies []Strategy
	model      Model
	params     Params
	seed       int64
	content    tokens.Counter // memoised: schemas, directories, names, system prompts
	raw        tokens.Counter // per-session text, counted once per session
	tables     *toolTables
	registry   *Registry
	rankers    *rankerCache
	sets       serverSets
	deny       []string
	validator  ArgValidator
	fidelity   int // strategy index, -1 none
	upgrades   []Upgrade
	domains    Domains
	// flags[s][tool id] caches per-strategy facts about each tool.
	flags [][]uint8
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
	if _, err := NewCache(cfg.Model.Cache); err != nil {
		return nil, fmt.Errorf("model %s: %w", cfg.Model.Name, err)
	}
	lat := cfg.Model.Latency
	if lat.PrefillTPS <= 0 || lat.CachedPrefillTPS <= 0 || lat.DecodeTPS <= 0 {
		return nil, fmt.Errorf("model %s: latency rates must be positive (prefill_tps, cached_prefill_tps, decode_tps)", cfg.Model.Name)
	}
	content := cfg.Content
	if content == nil {
		c, err := tokens.ByName(cfg.Params.Tokenizer)
		if err != nil {
			return nil, fmt.Errorf("tokenizer: %w", err)
		}
		content = c
	}
	raw := content
	if m, ok := content.(*tokens.Memo); ok {
		raw = m
	} else if _, est := content.(*tokens.Estimator); !est {
		content = tokens.NewMemo(content)
	}
	reg := cfg.Registry
	if reg == nil {
		reg = NewRegistry()
	}
	counters := map[string]tokens.Counter{}
	seen := map[string]bool{}
	for i := range cfg.Strategies {
		s := &cfg.Strategies[i]
		if seen[s.Name] {
			return nil, fmt.Errorf("strategy %q defined twice", s.Name)
		}
		seen[s.Name] = true
		if s.Trigger.Mode == "tokens" {
			name := s.Trigger.Counter
			if name == "" {
				name = "bytes/3.5"
			}
			if _, ok := counters[name]; !ok {
				c, err := tokens.ByName(name)
				if err != nil {
					return nil, fmt.Errorf("strategy %s: trigger counter: %w", s.Name, err)
				}
				counters[name] = c
			}
		}
		if m := s.Search.Mode; m != "" && m != "select" {
			if _, ok := reg.Ranker(m); !ok {
				return nil, fmt.Errorf("strategy %s: search mode %q is not registered (have %s)", s.Name, m, strings.Join(reg.SearchModes(), ", "))
			}
		}
	}
	local := map[string]bool{}
	for _, s := range cfg.LocalServers {
		local[s] = true
	}
	e := &Engine{strategies: cfg.Strategies, model: cfg.Model, params: cfg.Params, seed: cfg.Seed,
		content: content, raw: raw, registry: reg, rankers: &rankerCache{}, deny: cfg.Deny, validator: cfg.Validator, fidelity: -1}
	e.tables = buildToolTables(cfg.Catalog, content, counters, cfg.Params.ToolOverheadTokens, local)
	for _, u := range cfg.Upgrades {
		if e.tables.byKey[u.Server+"@"+u.To] == nil {
			return nil, fmt.Errorf("upgrade of %s to %s: no such server version in the catalogs (have %s)", u.Server, u.To, strings.Join(e.tables.versions[u.Server], ", "))
		}
		if (u.AfterSession < 0) == u.At.IsZero() {
			return nil, fmt.Errorf("upgrade of %s to %s: give exactly one of after_session and at", u.Server, u.To)
		}
	}
	e.upgrades = cfg.Upgrades
	e.domains = cfg.Domains
	e.computeFlags(cfg.Deny)
	for i := range cfg.Strategies {
		s := &cfg.Strategies[i]
		if (cfg.FidelityStrategy == "" && s.Trigger.Mode == "never") || s.Name == cfg.FidelityStrategy {
			e.fidelity = i
			break
		}
	}
	return e, nil
}

// Strategies returns the engine's strategies in order.
func (e *Engine) Strategies() []Strategy { return e.strategies }

// ContentCounter returns the prompt token counter in use.
func (e *Engine) ContentCounter() tokens.Counter { return e.content }

func (e *Engine) newCache() PromptCache {
	c, _ := NewCache(e.model.Cache)
	return c
}

func (e *Engine) countText(s string) int64 {
	if s == "" {
		return 0
	}
	return e.content.Count([]byte(s))
}

// maxScratchText is the longest text counted through a scratch buffer;
// a longer one is converted (a buffer that size would stay with its
// replayer for the rest of the run).
const maxScratchText = 64 << 10

// countString is c.Count([]byte(s)) through the scratch buffer *buf, so
// that counting a string does not allocate its copy (counters read b only
// during the call); an empty s has no tokens.
func countString(c tokens.Counter, s string, buf *[]byte) int64 {
	if s == "" {
		return 0
	}
	if len(s) > maxScratchText {
		return c.Count([]byte(s))
	}
	*buf = append((*buf)[:0], s...)
	return c.Count(*buf)
}

// prepare counts the tokens of a need's text once, before it is replayed
// under every strategy: message text and tool arguments with the raw
// counter (their content is unique to the session, so memoising it would
// only grow memory), system prompts and tool names with the memo. buf is
// scratch space.
func (e *Engine) prepare(n *Need, buf *[]byte) {
	if n.SystemText != "" { // else the trace may have recorded its tokens alone
		n.SystemTokens = countString(e.content, n.SystemText, buf)
	}
	for i := range n.Steps {
		st := &n.Steps[i]
		if st.Text != "" {
			st.TextTokens = countString(e.raw, st.Text, buf)
		}
		for j := range st.Calls {
			c := &st.Calls[j]
			c.NameTokens = countString(e.content, c.Tool, buf)
			c.ArgTokens = e.raw.Count(c.Args)
			switch {
			case c.ResultTokens > 0:
			case c.Result != "":
				c.ResultTokens = countString(e.raw, c.Result, buf)
			case c.ResultBytes > 0 && e.params.BytesPerToken > 0:
				c.ResultTokens = int64(float64(c.ResultBytes)/e.params.BytesPerToken + 0.999999)
			}
		}
	}
	n.prepared = true
}

func (e *Engine) systemHash(n *Need) uint64 {
	return mix(hashString(n.SystemText), uint64(n.SystemTokens))
}

func (e *Engine) systemTokens(n *Need) int64 { return n.SystemTokens }

// outputTokens is the recorded output of a model step, or its estimate from
// the text and calls it produced.
func (e *Engine) outputTokens(st *Step) int64 {
	if st.Usage != nil && st.Usage.Output > 0 {
		return st.Usage.Output
	}
	return e.assistantTokens(st)
}

// assistantTokens is the size of the assistant message a step adds to the
// conversation: its text and its tool calls (name and raw arguments).
func (e *Engine) assistantTokens(st *Step) int64 {
	t := st.TextTokens
	for i := range st.Calls {
		c := &st.Calls[i]
		t += c.NameTokens + c.ArgTokens + e.params.MessageOverheadTokens
	}
	return t
}

func (e *Engine) resultTokens(c *Call) int64 { return c.ResultTokens }

func (e *Engine) validate(seen, served *toolInfo, args []byte) string {
	if e.validator == nil {
		return ""
	}
	return e.validator.Check(seen.schema, served.schema, args)
}

// staticTrigger evaluates the parts of the trigger that depend only on the
// registry (not on what is warm).
func (e *Engine) staticTrigger(s *Strategy, tables []*serverTable, flags []uint8) bool {
	tr := &s.Trigger
	anyDeferrable := false
	var count int
	var est, deferTok int64
	estMap := e.tables.estBy[counterName(tr)]
	for _, t := range tables {
		for _, ti := range t.tools {
			count++
			if estMap != nil {
				est += estMap[ti.fp]
			}
			if flags[ti.id]&flagDeferrable != 0 {
				anyDeferrable = true
				deferTok += ti.tokens
			}
		}
	}
	if !anyDeferrable {
		return false
	}
	switch tr.Mode {
	case "always":
		return true
	case "count":
		return count > tr.Count
	case "tokens":
		return est > tr.Budget
	case "percent":
		return e.model.ContextWindow > 0 && float64(deferTok) >= tr.Percent/100*float64(e.model.ContextWindow)
	}
	return false
}

func counterName(tr *Trigger) string {
	if tr.Counter == "" {
		return "bytes/3.5"
	}
	return tr.Counter
}

// directory renders the directory block: the deferrable tools of the
// registry, in the strategy's format, counted with the content tokenizer.
func (e *Engine) directory(s *Strategy, tables []*serverTable, deferrable func(*toolInfo) bool, listed map[string]bool) block {
	var sb strings.Builder
	var refs [][2]string
	width := s.Directory.DescChars
	for _, t := range tables {
		if !listed[t.name] {
			sb.WriteString(t.name + ": tools not listed yet\n")
			continue
		}
		header := false
		for _, ti := range t.tools {
			if !deferrable(ti) {
				continue
			}
			if s.Directory.Format == "by-domain" && e.domains != nil {
				refs = append(refs, [2]string{ti.server, ti.name})
				continue
			}
			switch s.Directory.Format {
			case "by-server":
				if !header {
					sb.WriteString(t.name + ":\n")
					header = true
				}
				sb.WriteString("  " + ti.name + "\n")
			case "names-desc":
				d := firstLine(ti.desc)
				if width > 0 && len(d) > width {
					d = d[:width]
				}
				sb.WriteString(ti.name + ": " + d + "\n")
			default:
				sb.WriteString(ti.name + "\n")
			}
		}
	}
	if len(refs) > 0 {
		sb.WriteString(e.domains.DirectoryText(refs))
	}
	text := sb.String()
	if text == "" {
		return block{}
	}
	return block{h: hashString("\x00dir" + text), tokens: e.countText(text) + e.params.MessageOverheadTokens, schema: true}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
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
func (e *Engine) computeFlags(deny []string) {
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
			if matchList(deny, ti.server, ti.name) {
				b |= flagDenied
			}
			f[ti.id] = b
		}
		e.flags[si] = f
	}
}

// Domains groups tools into routing domains (implemented over server
// routing descriptions by srd.Set; see runner).
type Domains interface {
	// DomainOf names the domain of a tool ("" when it has none).
	DomainOf(server, tool string) string
	// DirectoryText renders the directory of the given (server, tool)
	// pairs grouped by domain with each domain's summary.
	DirectoryText(tools [][2]string) string
	// ActivationNotice is the text added when a domain's first tool loads.
	ActivationNotice(domain string) string
}

package sim

import (
	"fmt"

	"github.com/defersim/defersim/component"
)

// plan is one strategy with every component it names resolved, once, when
// the engine is built: the replay reads components and flags from here and
// never looks a name up.
type plan struct {
	s *Strategy

	trigger TriggerRule
	session SessionTrigger // nil when the trigger does not read the session
	// estimate names the counter of RegistryStats.EstimatedTokens ("" none).
	estimate string

	keying   Keying
	eviction Eviction
	// disabled: no warm set; a load serves until the end of its step.
	disabled bool
	// clearOnChange: the warm set is emptied at a run start when the
	// registry's fingerprint changed since the previous one (warm.clear).
	clearOnChange bool
	// warmCost is every tool's size under warm.counter, by tool id (nil:
	// no counter; filled by NewEngine once the tools are counted).
	warmCost []int64

	inTools bool       // loaded schemas join tools[] (the injection's rule)
	result  LoadResult // what a tool_search result holds per loaded tool

	dir        DirectoryFormat
	showsNames bool // dir.ShowsNames()

	// ranker is the search mode's ranker factory; nil for exact select.
	ranker    RankerFactory
	query     QueryModel // the query model of ranked searches
	queryName string     // its registered name

	cacheLayout   string    // breakpoint layout ("" = the cache's)
	lazyConnect   bool      // transport: lazy
	discovery     discovery // when a server's tools are listed
	rejectExecute bool      // rejected: execute
}

// discovery is Strategy.Discovery, resolved.
type discovery uint8

const (
	discoverEager discovery = iota
	discoverCached
	discoverLazy
)

// resolve builds the plan of s, whose zero-valued fields take Normalize's
// defaults. Errors are *FieldErrors naming the field.
func (r *Registry) resolve(s *Strategy, queryModel string, domains Domains) (*plan, error) {
	n := *s
	n.Normalize()
	p := &plan{s: s, disabled: n.Warm.Disabled, clearOnChange: n.Warm.Clear == WarmClearRegistryChange}
	var err error
	if p.trigger, err = r.trigger(n.Trigger); err != nil {
		return nil, err
	}
	p.session, _ = p.trigger.(SessionTrigger)
	if et, ok := p.trigger.(EstimatingTrigger); ok {
		p.estimate = et.EstimateCounter()
	}
	if p.keying, err = resolveAs[Keying](r, component.Keying, "warm.key", n.Warm.Key); err != nil {
		return nil, err
	}
	if p.eviction, err = resolveAs[Eviction](r, component.Eviction, "warm.eviction", n.Warm.Eviction); err != nil {
		return nil, err
	}
	in, err := resolveAs[Injection](r, component.Injection, "injection", n.Injection)
	if err != nil {
		return nil, err
	}
	p.inTools, p.result = in.InToolsArray(), in.Result(n.EchoSchema)
	if p.dir, err = r.directory(n.Directory, domains); err != nil {
		return nil, err
	}
	p.showsNames = p.dir.ShowsNames()
	if p.ranker, p.query, p.queryName, err = r.search(n.Search.Mode, queryModel); err != nil {
		return nil, err
	}
	if err := checkLayout("cache_layout", n.CacheLayout); err != nil {
		return nil, err
	}
	p.cacheLayout = n.CacheLayout
	p.lazyConnect = n.Transport == "lazy"
	switch n.Discovery {
	case "cached":
		p.discovery = discoverCached
	case "lazy":
		p.discovery = discoverLazy
	}
	p.rejectExecute = n.Rejected == RejectExecute
	return p, nil
}

// resolveAs returns the component of kind registered as name.
func resolveAs[T any](r *Registry, kind component.Kind, field, name string) (T, error) {
	var zero T
	e, ok := r.lookup(kind, name)
	if !ok {
		return zero, r.unknown(field, kind, name)
	}
	v, ok := e.v.(T)
	if !ok {
		return zero, fmt.Errorf("%s %q: registered as %T", kind, name, e.v)
	}
	return v, nil
}

// trigger builds the trigger of a trigger block: its mode's rule, OR-ed
// with the categorical rule when the block says so.
func (r *Registry) trigger(cfg Trigger) (TriggerRule, error) {
	f, err := resolveAs[TriggerFactory](r, component.Trigger, "trigger.mode", cfg.Mode)
	if err != nil {
		return nil, err
	}
	t, err := f(cfg)
	if err != nil || !cfg.Categorical || cfg.Mode == triggerCategorical {
		return t, err
	}
	cf, err := resolveAs[TriggerFactory](r, component.Trigger, "trigger.categorical", triggerCategorical)
	if err != nil {
		return nil, err
	}
	c, err := cf(cfg)
	if err != nil {
		return nil, err
	}
	return anyTrigger{t, c}, nil
}

// directory builds the directory format of a directory block.
func (r *Registry) directory(cfg Directory, domains Domains) (DirectoryFormat, error) {
	f, err := resolveAs[DirectoryFactory](r, component.Directory, "directory.format", cfg.Format)
	if err != nil {
		return nil, err
	}
	return f(cfg, domains)
}

// search resolves a search mode and the query model its searches use:
// queryModel names one, or is queryAuto (or "") for the mode's own.
func (r *Registry) search(mode, queryModel string) (RankerFactory, QueryModel, string, error) {
	e, ok := r.lookup(component.Ranker, mode)
	if !ok {
		return nil, nil, "", fieldErr("search.mode", "%q is not registered (have %s)", mode, joinNames(r.SearchModes()))
	}
	f, _ := e.v.(RankerFactory)
	qm := queryModel
	if qm == "" || qm == queryAuto {
		qm = e.info.QueryModel
		if qm == "" {
			qm = DefaultQueryModel
		}
	}
	q, err := resolveAs[QueryModel](r, component.QueryModel, "query_model", qm)
	return f, q, qm, err
}

// QueryModelOf names the query model strategy si's ranked searches use
// when the trace recorded no query ("" when its search mode is exact
// select, which writes names).
func (e *Engine) QueryModelOf(si int) string {
	if e.plans[si].ranker == nil {
		return ""
	}
	return e.plans[si].queryName
}

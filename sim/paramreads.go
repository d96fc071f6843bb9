package sim

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/defersim/defersim/component"
)

// Which strategies read a params key, and model.context_window. Most
// params are read under every strategy (token overheads, tool and user
// times, the tokenizer). The params of the search and the loading are read
// only by a strategy that loads a tool (neverLoads), and some only by a
// strategy whose components make the draw: select_prob by a ranked search
// mode with a directory that shows names, query_model by a ranked search
// mode, cold_call_well_formed_prob under rejected: execute; relist_prob and
// list_ms only by a strategy that makes tools/list calls (discovery not
// cached). model.context_window is read by every strategy: each one's
// requests over it are counted (ContextOverflow); a trigger that compares
// tokens with it (percent) also acts on it (TriggerIgnoresWindow). A run
// whose every strategy leaves a params key the scenario writes unread is
// refused (ParamUnreadBy; scenarios.Scenario.CheckParamReads), and so is a
// sweep over any key of the table (UnreadBy, in internal/plan), whose
// unchanged strategies take their reason from it (StrategyUnread).

// paramRule is a sweep path ("params.select_prob") and which strategies
// read it.
type paramRule struct {
	key string
	// fix says what would make a run read it ("" when every strategy does).
	fix string
	// unread says why normalized strategy n, its components resolved in
	// r, does not read the key; "" when it does (or may: a component r
	// does not know). nil: every strategy reads it.
	unread func(r *Registry, n Strategy) string
	// outcomes: the key acts only through how tools are deferred (the
	// trigger, the search, the loading) or, relist_prob, through version
	// changes, so that what a run's outcomes show of those
	// (report.ExplainUnchanged) may say why a strategy that reads it was
	// left unchanged (OutcomesExplain).
	outcomes bool
}

// fixLoading is what makes a loading param read.
const fixLoading = "run a strategy that loads tools: a trigger that turns deferred mode on, or discovery: lazy"

// paramReaders has a row for every params key, in the order of Params
// (TestParamReadersCoverEveryParam), then model.context_window: every
// strategy reads it (the requests over it are counted, ContextOverflow),
// so it has no reason to be unread, and its outcomes flag is false: a
// window acts on the overflow count as well as through a percent trigger,
// and what the outcomes show of deferral cannot say why a sweep over it
// left a strategy unchanged (internal/plan says so from the counts).
var paramReaders = []paramRule{
	{"params.tokenizer", "", nil, false},
	{"params.token_scale", "", nil, false},
	{"params.message_overhead_tokens", "", nil, false},
	{"params.tool_overhead_tokens", "", nil, false},
	{"params.request_overhead_tokens", "", nil, false},
	{"params.search_tool_tokens", fixLoading, loadUnread("the tool_search definition is never sent"), true},
	{"params.default_tool_ms", "", nil, false},
	{"params.search_exec_ms", fixLoading, loadUnread("it makes no search"), true},
	{"params.user_think_ms", "", nil, false},
	{"params.nudge_prob", fixLoading, loadUnread("it makes no search for a nudge to follow"), true},
	{"params.cold_call_prob", fixLoading, loadUnread("no tool is ever cold"), true},
	{"params.cold_call_well_formed_prob", "run a strategy with rejected: execute", wellFormedUnread, true},
	{"params.nudge_tokens", fixLoading, loadUnread("it makes no search for a nudge to follow"), true},
	{"params.bytes_per_token", "", nil, false},
	{"params.query_model", "run a strategy with a ranked search mode", queryModelUnread, false},
	{"params.cache_warm_start", "", nil, false},
	{"params.connect_ms", "", nil, false},
	{"params.list_ms", "run a strategy with discovery eager or lazy", listingUnread, false},
	{"params.relist_prob", "run a strategy with discovery eager or lazy", listingUnread, true},
	{"params.select_prob", "run a strategy with a ranked search mode and a directory that shows names", selectUnread, true},
	{"model.context_window", "", nil, false},
}

// TriggerIgnoresWindow says why strategy s's trigger (its components
// resolved in r) does not compare tokens with the model's context window
// (the engine passes the window to the trigger in
// RegistryStats.ContextWindow), so that the window acts on s only through
// the count of requests over it (ContextOverflow); "" when it may. The
// built-in rules that do not are known by their type; any other rule
// (percent, a registered one, a mode r does not know) is taken to compare.
func (r *Registry) TriggerIgnoresWindow(s Strategy) string {
	n := s
	n.Normalize()
	t, err := r.trigger(n.Trigger)
	if err != nil || readsWindow(t) {
		return ""
	}
	mode := fmt.Sprintf("its trigger %q", n.Trigger.Mode)
	if n.Trigger.Categorical {
		mode = fmt.Sprintf("its trigger %q or categorical", n.Trigger.Mode)
	}
	return mode + " does not compare tokens with the context window"
}

// readsWindow reports whether trigger t may read
// RegistryStats.ContextWindow.
func readsWindow(t TriggerRule) bool {
	switch t := t.(type) {
	case neverTrigger, alwaysTrigger, countTrigger, tokensTrigger, anyColdTrigger, categoricalTrigger:
		return false
	case anyTrigger:
		return slices.ContainsFunc(t, readsWindow)
	}
	return true
}

// OutcomesExplain reports whether what a run's outcomes show of deferral
// (report.ExplainUnchanged) may say why a sweep over path left a strategy
// that reads it unchanged: a strategy key, or a key of the table marked
// so. A key read outside deferral (a cache, latency or price key, a token
// overhead, list_ms, the context window's overflow count) would get a
// reason that is not its.
func OutcomesExplain(path string) bool {
	if strings.HasPrefix(path, "strategy.") {
		return true
	}
	i := slices.IndexFunc(paramReaders, func(p paramRule) bool { return p.key == path })
	return i >= 0 && paramReaders[i].outcomes
}

// loadUnread: the key is read only when the strategy loads a tool.
func loadUnread(what string) func(*Registry, Strategy) string {
	return func(_ *Registry, n Strategy) string {
		if neverLoads(n) {
			return neverLoadsParamWhy(what)
		}
		return ""
	}
}

// neverLoadsParamWhy is why a strategy that never loads a tool
// (neverLoads) leaves a key unread: what it never does.
func neverLoadsParamWhy(what string) string {
	return fmt.Sprintf("its trigger %q never turns deferred mode on and its discovery is not lazy: it loads no tool, so %s", TriggerNever, what)
}

func wellFormedUnread(_ *Registry, n Strategy) string {
	if neverLoads(n) {
		return neverLoadsParamWhy("no tool is ever cold")
	}
	if n.Rejected != RejectExecute {
		return fmt.Sprintf("its rejected is %q: every cold call is rejected, so whether one is well formed is never drawn", n.Rejected)
	}
	return ""
}

// selectsOnly reports whether n's search mode is exact select (no ranker
// in r). A mode r does not know is taken to rank.
func (r *Registry) selectsOnly(n Strategy) bool {
	e, ok := r.lookup(component.Ranker, n.Search.Mode)
	if !ok {
		return false
	}
	f, _ := e.v.(RankerFactory)
	return f == nil
}

func queryModelUnread(r *Registry, n Strategy) string {
	if neverLoads(n) {
		return neverLoadsParamWhy("it writes no query")
	}
	if r.selectsOnly(n) {
		return fmt.Sprintf("its search mode %q asks for every tool by name: it writes no query", n.Search.Mode)
	}
	return ""
}

func selectUnread(r *Registry, n Strategy) string {
	if neverLoads(n) {
		return neverLoadsParamWhy("it never chooses between select and a query")
	}
	if r.selectsOnly(n) {
		return fmt.Sprintf("its search mode %q asks for every tool by name: it never chooses between select and a query", n.Search.Mode)
	}
	f, err := resolveAs[DirectoryFactory](r, component.Directory, "directory.format", n.Directory.Format)
	if err != nil {
		return ""
	}
	d, err := f(n.Directory, nil)
	if err != nil || d.ShowsNames() {
		return ""
	}
	return fmt.Sprintf("its directory %q shows no names: the model cannot ask for a tool by name", n.Directory.Format)
}

func listingUnread(_ *Registry, n Strategy) string {
	if n.Discovery == "cached" {
		return `its discovery is "cached": it makes no tools/list call`
	}
	return ""
}

// ParamUnreadBy says why no strategy of strategies (their components
// resolved in r) reads the params key ("select_prob"), reason by reason,
// the strategies that share one named together — `strategies "eager",
// "eager2": its trigger "never" …; strategy "x": its search mode "select"
// …` — and what would make a run read it. why is ""
// when one of them reads it, for a key every strategy reads, and for no
// strategies.
func (r *Registry) ParamUnreadBy(strategies []Strategy, key string) (why, fix string) {
	return r.UnreadBy(strategies, "params."+key)
}

// UnreadBy is ParamUnreadBy for a sweep path: "params.select_prob",
// "params.list_ms". A path without a row in the table is read by
// every strategy.
func (r *Registry) UnreadBy(strategies []Strategy, path string) (why, fix string) {
	i := slices.IndexFunc(paramReaders, func(p paramRule) bool { return p.key == path })
	if i < 0 || paramReaders[i].unread == nil || len(strategies) == 0 {
		return "", ""
	}
	pr := paramReaders[i]
	// Strategies that leave it unread for the same reason share one
	// clause, in the order of their first strategy: a run of a dozen
	// strategies states a handful of reasons, not a dozen copies.
	var reasons []string
	names := map[string][]string{}
	for _, s := range strategies {
		w := r.StrategyUnread(s, path)
		if w == "" {
			return "", ""
		}
		if names[w] == nil {
			reasons = append(reasons, w)
		}
		names[w] = append(names[w], strconv.Quote(s.Name))
	}
	parts := make([]string, len(reasons))
	for i, w := range reasons {
		label := "strategy "
		if len(names[w]) > 1 {
			label = "strategies "
		}
		parts[i] = label + strings.Join(names[w], ", ") + ": " + w
	}
	return "no strategy of the run reads it: " + strings.Join(parts, "; "), pr.fix
}

// StrategyUnread says why strategy s does not read the sweep path
// ("params.list_ms": `its discovery is "cached": …`); "" when it does,
// and for a path without a row in the table.
func (r *Registry) StrategyUnread(s Strategy, path string) string {
	i := slices.IndexFunc(paramReaders, func(p paramRule) bool { return p.key == path })
	if i < 0 || paramReaders[i].unread == nil {
		return ""
	}
	n := s
	n.Normalize()
	return paramReaders[i].unread(r, n)
}

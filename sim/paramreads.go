package sim

import (
	"fmt"
	"slices"
	"strings"

	"github.com/defersim/defersim/component"
)

// Which strategies read a params key. Most params are read under every
// strategy (token overheads, tool and user times, the tokenizer). The
// params of the search and the loading are read only by a strategy that
// loads a tool (neverLoads), and some only by a strategy whose components
// make the draw: select_prob by a ranked search mode with a directory that
// shows names, query_model by a ranked search mode,
// cold_call_well_formed_prob under rejected: execute; relist_prob and
// list_ms only by a strategy that makes tools/list calls (discovery not
// cached). A run whose every strategy leaves a key the scenario writes
// unread is refused (ParamUnreadBy; scenarios.Scenario.CheckParamReads),
// and so is a sweep over one (internal/plan).

// paramRule is a params key and which strategies read it.
type paramRule struct {
	key string
	// fix says what would make a run read it ("" when every strategy does).
	fix string
	// unread says why normalized strategy n, its components resolved in
	// r, does not read the key; "" when it does (or may: a component r
	// does not know). nil: every strategy reads it.
	unread func(r *Registry, n Strategy) string
}

// fixLoading is what makes a loading param read.
const fixLoading = "run a strategy that loads tools: a trigger that turns deferred mode on, or discovery: lazy"

// paramReaders has a row for every params key, in the order of Params
// (TestParamReadersCoverEveryParam).
var paramReaders = []paramRule{
	{"tokenizer", "", nil},
	{"message_overhead_tokens", "", nil},
	{"tool_overhead_tokens", "", nil},
	{"request_overhead_tokens", "", nil},
	{"search_tool_tokens", fixLoading, loadUnread("the tool_search definition is never sent")},
	{"default_tool_ms", "", nil},
	{"search_exec_ms", fixLoading, loadUnread("it makes no search")},
	{"user_think_ms", "", nil},
	{"nudge_prob", fixLoading, loadUnread("it makes no search for a nudge to follow")},
	{"cold_call_prob", fixLoading, loadUnread("no tool is ever cold")},
	{"cold_call_well_formed_prob", "run a strategy with rejected: execute", wellFormedUnread},
	{"nudge_tokens", fixLoading, loadUnread("it makes no search for a nudge to follow")},
	{"bytes_per_token", "", nil},
	{"query_model", "run a strategy with a ranked search mode", queryModelUnread},
	{"cache_warm_start", "", nil},
	{"connect_ms", "", nil},
	{"list_ms", "run a strategy with discovery eager or lazy", listingUnread},
	{"relist_prob", "run a strategy with discovery eager or lazy", listingUnread},
	{"select_prob", "run a strategy with a ranked search mode and a directory that shows names", selectUnread},
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
// resolved in r) reads the params key ("select_prob"), strategy by
// strategy — `strategy "eager": its trigger "never" …; strategy "x": its
// search mode "select" …` — and what would make a run read it. why is ""
// when one of them reads it, for a key every strategy reads, and for no
// strategies.
func (r *Registry) ParamUnreadBy(strategies []Strategy, key string) (why, fix string) {
	i := slices.IndexFunc(paramReaders, func(p paramRule) bool { return p.key == key })
	if i < 0 || paramReaders[i].unread == nil || len(strategies) == 0 {
		return "", ""
	}
	pr := paramReaders[i]
	var parts []string
	for _, s := range strategies {
		n := s
		n.Normalize()
		w := pr.unread(r, n)
		if w == "" {
			return "", ""
		}
		parts = append(parts, fmt.Sprintf("strategy %q: %s", s.Name, w))
	}
	return "no strategy of the run reads it: " + strings.Join(parts, "; "), pr.fix
}

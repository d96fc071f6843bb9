package sim

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestParamReadersCoverEveryParam pins that every params key has a row in
// paramReaders, in the order of Params: a key added to Params without a
// decision on which strategies read it fails here. The model keys of the
// table follow them.
func TestParamReadersCoverEveryParam(t *testing.T) {
	typ := reflect.TypeOf(Params{})
	var keys []string
	for i := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("yaml"), ",")
		keys = append(keys, name)
	}
	var rows []string
	for _, p := range paramReaders {
		if key, ok := strings.CutPrefix(p.key, "params."); ok {
			rows = append(rows, key)
		}
		if (p.unread == nil) != (p.fix == "") {
			t.Errorf("%s: a key some strategy leaves unread says what makes it read, and only such a key", p.key)
		}
	}
	if !reflect.DeepEqual(rows, keys) {
		t.Errorf("paramReaders rows %v,\nwant the params keys %v", rows, keys)
	}
}

// TestParamUnreadBy pins which strategy sets leave a params key unread,
// from their configuration alone: the loading params under strategies
// that never load a tool, select_prob under exact select or a directory
// without names, query_model under exact select, the well-formed share
// under rejected: retry, relist_prob and list_ms under discovery: cached;
// one strategy that reads the key, a key every strategy reads and a search
// mode the registry does not know make no refusal.
func TestParamUnreadBy(t *testing.T) {
	reg := NewRegistry()
	if err := reg.RegisterRanker("rank", func([]ToolDoc) (Ranker, error) { return nil, nil }); err != nil {
		t.Fatal(err)
	}
	const neverWhy = `strategy "eager": its trigger "never" never turns deferred mode on and its discovery is not lazy: it loads no tool, so `
	eager := Strategy{Name: "eager", Trigger: Trigger{Mode: TriggerNever}}
	eager2 := eager
	eager2.Name = "eager2"
	sel := Strategy{Name: "sel", Trigger: Trigger{Mode: TriggerAlways}}
	ranked := Strategy{Name: "ranked", Trigger: Trigger{Mode: TriggerAlways}, Search: Search{Mode: "rank"}}
	noDir := ranked
	noDir.Name, noDir.Directory.Format = "nodir", dirNone
	execute := ranked
	execute.Name, execute.Rejected = "execute", RejectExecute
	lazy := eager
	lazy.Name, lazy.Discovery = "lazy", "lazy"
	cached := ranked
	cached.Name, cached.Discovery = "cached", "cached"
	unknown := ranked
	unknown.Name, unknown.Search.Mode = "unknown", "nosuchmode"
	tests := []struct {
		name       string
		key        string
		strategies []Strategy
		why, fix   string // "": read
	}{
		{"search tokens, eager only", "search_tool_tokens", []Strategy{eager},
			neverWhy + "the tool_search definition is never sent", fixLoading},
		{"search time, eager only", "search_exec_ms", []Strategy{eager}, neverWhy + "it makes no search", fixLoading},
		{"nudges, eager only", "nudge_prob", []Strategy{eager}, neverWhy + "it makes no search for a nudge to follow", fixLoading},
		{"nudge tokens, eager only", "nudge_tokens", []Strategy{eager}, neverWhy + "it makes no search for a nudge to follow", fixLoading},
		{"cold calls, eager only", "cold_call_prob", []Strategy{eager}, neverWhy + "no tool is ever cold", fixLoading},
		{"cold calls, eager and a loader", "cold_call_prob", []Strategy{eager, sel}, "", ""},
		{"search time, never trigger under lazy discovery", "search_exec_ms", []Strategy{lazy}, "", ""},
		{"select share, eager and exact select", "select_prob", []Strategy{eager, sel},
			neverWhy + `it never chooses between select and a query; strategy "sel": its search mode "select" asks for every tool by name: it never chooses between select and a query`,
			"run a strategy with a ranked search mode and a directory that shows names"},
		{"select share, no directory", "select_prob", []Strategy{noDir},
			`strategy "nodir": its directory "none" shows no names: the model cannot ask for a tool by name`,
			"run a strategy with a ranked search mode and a directory that shows names"},
		{"select share, ranked with names", "select_prob", []Strategy{sel, ranked}, "", ""},
		{"select share, a mode the registry does not know", "select_prob", []Strategy{unknown}, "", ""},
		{"query model, exact select", "query_model", []Strategy{sel},
			`strategy "sel": its search mode "select" asks for every tool by name: it writes no query`, "run a strategy with a ranked search mode"},
		{"query model, ranked", "query_model", []Strategy{sel, ranked}, "", ""},
		{"well-formed share, retry", "cold_call_well_formed_prob", []Strategy{eager, ranked},
			neverWhy + `no tool is ever cold; strategy "ranked": its rejected is "retry": every cold call is rejected, so whether one is well formed is never drawn`,
			"run a strategy with rejected: execute"},
		{"well-formed share, execute", "cold_call_well_formed_prob", []Strategy{ranked, execute}, "", ""},
		{"relist, cached", "relist_prob", []Strategy{cached},
			`strategy "cached": its discovery is "cached": it makes no tools/list call`, "run a strategy with discovery eager or lazy"},
		// Strategies that leave a key unread for the same reason share one
		// clause (a dozen strategies used to give a dozen copies of it).
		{"one reason, two strategies, then another", "cold_call_well_formed_prob", []Strategy{eager, ranked, eager2},
			`strategies "eager", "eager2": its trigger "never" never turns deferred mode on and its discovery is not lazy: it loads no tool, so no tool is ever cold; ` +
				`strategy "ranked": its rejected is "retry": every cold call is rejected, so whether one is well formed is never drawn`,
			"run a strategy with rejected: execute"},
		{"list time, cached", "list_ms", []Strategy{cached},
			`strategy "cached": its discovery is "cached": it makes no tools/list call`, "run a strategy with discovery eager or lazy"},
		{"list time, eager discovery", "list_ms", []Strategy{cached, eager}, "", ""},
		{"read by every strategy", "request_overhead_tokens", []Strategy{eager}, "", ""},
		{"no strategies", "select_prob", nil, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			why, fix := reg.ParamUnreadBy(tt.strategies, tt.key)
			want := tt.why
			if want != "" {
				want = "no strategy of the run reads it: " + want
			}
			if why != want || fix != tt.fix {
				t.Errorf("got  %q (%q)\nwant %q (%q)", why, fix, want, tt.fix)
			}
		})
	}
}

// userTrigger is a rule of a type the table does not know.
type userTrigger struct{}

func (userTrigger) On(r RegistryStats) bool { return r.ContextWindow > 1000 }

// TestContextWindowReadByEveryStrategy pins that every strategy reads
// model.context_window (its requests over the window are counted,
// ContextOverflow), so that no run or sweep calls the window unread: the
// table said only a percent trigger read it, and the run's assumptions
// stated it "not read … nothing else reads it" beside an overflow count
// that depends on it. It also pins which triggers do not compare tokens
// with the window (TriggerIgnoresWindow): every built-in rule but
// percent, alone or OR-ed with categorical (whatever the rule's type);
// percent (also under categorical) and a registered rule of a type the
// table does not know are taken to compare.
func TestContextWindowReadByEveryStrategy(t *testing.T) {
	reg := NewRegistry()
	if err := reg.RegisterTrigger(Info{Name: "mine", Description: "a user's rule"},
		func(Trigger) (TriggerRule, error) { return userTrigger{}, nil }); err != nil {
		t.Fatal(err)
	}
	var all []Strategy
	for _, tc := range []struct {
		trigger Trigger
		ignores string // "": the trigger compares tokens with the window
	}{
		{Trigger{Mode: TriggerNever}, `its trigger "never" does not compare tokens with the context window`},
		{Trigger{Mode: TriggerAlways, Categorical: true}, `its trigger "always" or categorical does not compare tokens with the context window`},
		{Trigger{Mode: TriggerPercent, Percent: 10}, ""},
		{Trigger{Mode: TriggerPercent, Percent: 10, Categorical: true}, ""},
		{Trigger{Mode: "mine"}, ""},
	} {
		s := Strategy{Name: "s" + strconv.Itoa(len(all)), Trigger: tc.trigger}
		all = append(all, s)
		if got := reg.StrategyUnread(s, "model.context_window"); got != "" {
			t.Errorf("%+v: StrategyUnread = %q, want \"\" (its requests over the window are counted)", tc.trigger, got)
		}
		if got := reg.TriggerIgnoresWindow(s); got != tc.ignores {
			t.Errorf("%+v: TriggerIgnoresWindow = %q, want %q", tc.trigger, got, tc.ignores)
		}
	}
	if why, fix := reg.UnreadBy(all[:2], "model.context_window"); why != "" || fix != "" {
		t.Errorf("UnreadBy(never, always) = %q, %q; want none: every strategy reads the window", why, fix)
	}
}

// TestOutcomesExplain pins which sweep paths take an unchanged strategy's
// reason from what the outcomes show of deferral: the keys the table marks
// (they were a separate list in internal/plan, easily left behind when a
// param was added), and no key read outside deferral (the context window
// also acts on the count of requests over it).
func TestOutcomesExplain(t *testing.T) {
	for path, want := range map[string]bool{
		"strategy.search.k": true, "model.context_window": false, "params.search_tool_tokens": true,
		"params.search_exec_ms": true, "params.select_prob": true, "params.nudge_prob": true, "params.nudge_tokens": true,
		"params.cold_call_prob": true, "params.cold_call_well_formed_prob": true, "params.relist_prob": true,
		"params.list_ms": false, "params.request_overhead_tokens": false, "model.cache.lookback": false,
		"model.latency.prefill_tps": false, "params.cache_warm_start": false,
	} {
		if got := OutcomesExplain(path); got != want {
			t.Errorf("%s: %v, want %v", path, got, want)
		}
	}
}

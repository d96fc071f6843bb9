package runner

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// paramChange sets one params key to a value other than the proof's.
type paramChange struct {
	key   string
	apply func(p *sim.Params)
}

// paramChanges change each params key some strategy leaves unread.
var paramChanges = []paramChange{
	{"search_tool_tokens", func(p *sim.Params) { p.SearchToolTokens = 900 }},
	{"search_exec_ms", func(p *sim.Params) { p.SearchExecMs = 250 }},
	{"nudge_prob", func(p *sim.Params) { p.NudgeProb = 0.7 }},
	{"nudge_tokens", func(p *sim.Params) { p.NudgeTokens = 300 }},
	{"cold_call_prob", func(p *sim.Params) { p.ColdCallProb = 0.8 }},
	{"cold_call_well_formed_prob", func(p *sim.Params) { p.ColdCallWellFormedProb = 0.95 }},
	{"query_model", func(p *sim.Params) { p.QueryModel = "name-words" }},
	{"select_prob", func(p *sim.Params) { p.SelectProb = 0.95 }},
	{"list_ms", func(p *sim.Params) { p.ListMs = 400 }},
	{"relist_prob", func(p *sim.Params) { p.RelistProb = 1 }},
}

// paramsActWithoutCatalogChanges are the keys of paramChanges that must
// change some outcome on the embedded data under a strategy that reads
// them; relist_prob acts only when a listed server changes version, and
// the embedded trace has no catalog change.
var paramsActWithoutCatalogChanges = []string{"search_tool_tokens", "search_exec_ms", "nudge_prob", "nudge_tokens",
	"cold_call_prob", "cold_call_well_formed_prob", "query_model", "select_prob", "list_ms"}

// TestParamReadsHoldOnTheEngine pins sim.Registry.ParamUnreadBy against
// the engine: for every preset and matrix-made variant (with rejected:
// execute, discovery: cached and a directory without names added), each
// params key changed where ParamUnreadBy says the strategy does not read
// it leaves every session's outcomes identical, and each key changes
// some outcome under some strategy that reads it. Every key some base
// leaves unread must be in paramChanges, so a new rule is proven here.
func TestParamReadsHoldOnTheEngine(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the embedded data once per params key")
	}
	servers, _ := embeddedServers(t)
	reg, err := DefaultRegistry()
	if err != nil {
		t.Fatal(err)
	}
	bases := readsBases(t, servers)
	variant := func(name, base string, f func(*sim.Strategy)) {
		s := strategyNamed(bases, base)
		s.Name = name
		f(&s)
		bases = append(bases, s)
	}
	variant("cc-execute", "claude-code-default", func(s *sim.Strategy) { s.Rejected = sim.RejectExecute })
	variant("codex-execute", "codex-cli", func(s *sim.Strategy) { s.Rejected = sim.RejectExecute })
	variant("codex-cached", "codex-cli", func(s *sim.Strategy) { s.Discovery = "cached" })
	variant("codex-no-directory", "codex-cli", func(s *sim.Strategy) { s.Directory.Format = "none" })
	variant("eager-cached", "eager", func(s *sim.Strategy) { s.Discovery = "cached" })

	typ := reflect.TypeOf(sim.Params{})
	for i := range typ.NumField() {
		key, _, _ := strings.Cut(typ.Field(i).Tag.Get("yaml"), ",")
		if slices.ContainsFunc(paramChanges, func(c paramChange) bool { return c.key == key }) {
			continue
		}
		for _, b := range bases {
			if why, _ := reg.ParamUnreadBy([]sim.Strategy{b}, key); why != "" {
				t.Errorf("%s: %s leaves it unread (%s), but paramChanges does not change it", key, b.Name, why)
			}
		}
	}

	cfg := testConfig(t, "traces: [embedded:trace.jsonl.gz]\ncatalogs: [embedded:catalog]\nmodel: claude-sonnet-4.5\n"+
		"params: {cold_call_prob: 0.3, cold_call_well_formed_prob: 0.5, select_prob: 0.5, nudge_prob: 0.2, relist_prob: 0.5}\n"+
		"servers:\n  desktop: {local: true}\nstrategies: [eager]\n", Overrides{})
	cfg.Strategies, cfg.Baseline, cfg.CheckReads, cfg.Bootstrap = bases, "eager", nil, -1
	cfg.Shard = Shard{Index: 0, Count: 4}
	base := outcomeDigests(t, cfg)
	unread := 0
	for _, c := range paramChanges {
		changed := cfg
		c.apply(&changed.Params)
		if reflect.DeepEqual(changed.Params, cfg.Params) {
			t.Fatalf("%s: the change leaves the params as they were", c.key)
		}
		got := outcomeDigests(t, changed)
		acted := false
		for _, b := range bases {
			same := got[b.Name] == base[b.Name]
			why, _ := reg.ParamUnreadBy([]sim.Strategy{b}, c.key)
			switch {
			case why != "" && !same:
				t.Errorf("%s under %s: declared unread (%s), but changing it changed the outcomes", c.key, b.Name, why)
			case why != "":
				unread++
			case !same:
				acted = true
			}
		}
		if !acted && slices.Contains(paramsActWithoutCatalogChanges, c.key) {
			t.Errorf("%s: read, but changing it changed no outcome of any strategy that reads it", c.key)
		}
	}
	t.Logf("%d unread params changes replayed", unread)
	if unread < 30 {
		t.Errorf("only %d unread params changes replayed: the proof covers too little", unread)
	}
}

// outcomeDigests runs c and returns each strategy's outcome digest: two
// runs whose digests are equal for a strategy had identical outcomes
// under it.
func outcomeDigests(t *testing.T, c Config) map[string]string {
	t.Helper()
	out, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	d := map[string]string{}
	for _, s := range out.Results.Strategies {
		if s.OutcomeDigest == "" {
			t.Fatalf("%s: no outcome digest", s.Name)
		}
		d[s.Name] = s.OutcomeDigest
	}
	return d
}

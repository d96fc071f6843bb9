package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	defaultdata "github.com/defersim/defersim/scenarios/default"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
)

// keyChange writes a non-default value of one strategy key (and of the
// keys it needs to be valid, listed in keys) on a strategy; false when
// the change does not apply to it.
type keyChange struct {
	name  string
	keys  []string
	apply func(s *sim.Strategy) bool
}

// embeddedServers lists the servers of the embedded catalog, and the tool
// names of one of them (browser).
func embeddedServers(t *testing.T) (servers, browser []string) {
	t.Helper()
	fsys := defaultdata.FS()
	entries, err := fs.ReadDir(fsys, defaultdata.CatalogDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		srv, _, _ := strings.Cut(e.Name(), "@")
		if !slices.Contains(servers, srv) {
			servers = append(servers, srv)
		}
		if srv == "browser" && browser == nil {
			b, err := fs.ReadFile(fsys, defaultdata.CatalogDir+"/"+e.Name())
			if err != nil {
				t.Fatal(err)
			}
			var c struct{ Tools []struct{ Name string } }
			if err := json.Unmarshal(b, &c); err != nil {
				t.Fatal(err)
			}
			for _, tool := range c.Tools {
				browser = append(browser, tool.Name)
			}
		}
	}
	if len(servers) < 4 || len(browser) < 2 {
		t.Fatalf("embedded catalog: servers %v, browser tools %v", servers, browser)
	}
	return servers, browser
}

// keyChanges sets every strategy key the scenario format accepts (but the
// prose keys and trigger.mode, which the bases vary) to a value other
// than the strategy's.
func keyChanges(servers, browser []string) []keyChange {
	var even, odd []string
	for i, s := range servers {
		if i%2 == 0 {
			even = append(even, s+":*")
		} else {
			odd = append(odd, s+":*")
		}
	}
	flip := func(v *string, a, b string) bool {
		if *v == a || *v == "" && a != "" {
			*v = b
		} else {
			*v = a
		}
		return true
	}
	nocaps := func(s *sim.Strategy) bool { return !s.Warm.Disabled }
	return []keyChange{
		{"trigger.count", []string{"trigger.count"}, func(s *sim.Strategy) bool { s.Trigger.Count = 7; return true }},
		{"trigger.budget", []string{"trigger.budget"}, func(s *sim.Strategy) bool { s.Trigger.Budget = 3000; return true }},
		{"trigger.counter", []string{"trigger.counter"}, func(s *sim.Strategy) bool { s.Trigger.Counter = "o200k_base"; return true }},
		{"trigger.percent", []string{"trigger.percent"}, func(s *sim.Strategy) bool { s.Trigger.Percent = 2; return true }},
		{"trigger.categorical", []string{"trigger.categorical", "always_defer"}, func(s *sim.Strategy) bool {
			s.Trigger.Categorical = !s.Trigger.Categorical
			if len(s.AlwaysDefer) == 0 {
				s.AlwaysDefer = odd
			}
			return true
		}},
		{"scope", []string{"scope", "always_defer"}, func(s *sim.Strategy) bool {
			if s.Scope == sim.ScopeAlwaysDeferOnly {
				s.Scope = sim.ScopeMCP
				return true
			}
			s.Scope = sim.ScopeAlwaysDeferOnly
			if len(s.AlwaysDefer) == 0 {
				s.AlwaysDefer = odd
			}
			return true
		}},
		{"always_defer", []string{"always_defer"}, func(s *sim.Strategy) bool { s.AlwaysDefer = odd; return true }},
		{"never_defer", []string{"never_defer"}, func(s *sim.Strategy) bool { s.NeverDefer = even; return true }},
		{"warm.key", []string{"warm.key"}, func(s *sim.Strategy) bool { return flip(&s.Warm.Key, "name", "fingerprint") }},
		{"warm.eviction", []string{"warm.eviction"}, func(s *sim.Strategy) bool { return flip(&s.Warm.Eviction, "lrl", "lru") }},
		{"warm.disabled", []string{"warm.disabled"}, func(s *sim.Strategy) bool {
			if s.Warm.MaxTools != 0 || s.Warm.MaxTokens != 0 || (s.Warm.Clear != "" && s.Warm.Clear != "never") {
				return false
			}
			s.Warm.Disabled = !s.Warm.Disabled
			return true
		}},
		{"warm.max_tools", []string{"warm.max_tools"}, func(s *sim.Strategy) bool { s.Warm.MaxTools = 2; return nocaps(s) }},
		{"warm.max_tokens", []string{"warm.max_tokens"}, func(s *sim.Strategy) bool { s.Warm.MaxTokens = 1500; return nocaps(s) }},
		{"warm.counter", []string{"warm.counter", "warm.max_tokens"}, func(s *sim.Strategy) bool {
			if s.Warm.MaxTokens == 0 {
				s.Warm.MaxTokens = 1500
			}
			s.Warm.Counter = "o200k_base"
			return nocaps(s)
		}},
		{"warm.clear", []string{"warm.clear"}, func(s *sim.Strategy) bool {
			return nocaps(s) && flip(&s.Warm.Clear, "never", "registry-change")
		}},
		{"injection", []string{"injection"}, func(s *sim.Strategy) bool { return flip(&s.Injection, "tools-array", "inline") }},
		{"echo_schema", []string{"echo_schema"}, func(s *sim.Strategy) bool { s.EchoSchema = !s.EchoSchema; return true }},
		{"search.mode", []string{"search.mode"}, func(s *sim.Strategy) bool { return flip(&s.Search.Mode, "select", "bm25") }},
		{"search.mode keyword", []string{"search.mode"}, func(s *sim.Strategy) bool { s.Search.Mode = "keyword"; return true }},
		{"search.k", []string{"search.k"}, func(s *sim.Strategy) bool { s.Search.K = 2; return true }},
		{"search.keyword_retries", []string{"search.keyword_retries"}, func(s *sim.Strategy) bool { s.Search.KeywordRetries = 2; return true }},
		{"search.family", []string{"search.family", "search.family_core"}, func(s *sim.Strategy) bool {
			s.Search.Family, s.Search.FamilyCore = []string{"browser:*"}, browser[:2]
			return true
		}},
		{"directory.format", []string{"directory.format"}, func(s *sim.Strategy) bool { return flip(&s.Directory.Format, "names", "names-desc") }},
		{"directory.format none", []string{"directory.format"}, func(s *sim.Strategy) bool { s.Directory.Format = "none"; return true }},
		{"directory.desc_chars", []string{"directory.desc_chars"}, func(s *sim.Strategy) bool { s.Directory.DescChars = 20; return true }},
		{"directory.notice", []string{"directory.notice"}, func(s *sim.Strategy) bool { s.Directory.Notice = !s.Directory.Notice; return true }},
		{"rejected", []string{"rejected"}, func(s *sim.Strategy) bool { return flip(&s.Rejected, "retry", "execute") }},
		{"transport", []string{"transport"}, func(s *sim.Strategy) bool { return flip(&s.Transport, "eager", "lazy") }},
		{"discovery", []string{"discovery"}, func(s *sim.Strategy) bool { return flip(&s.Discovery, "eager", "cached") }},
		{"discovery lazy", []string{"discovery"}, func(s *sim.Strategy) bool { s.Discovery = "lazy"; return true }},
		{"cache_layout", []string{"cache_layout"}, func(s *sim.Strategy) bool { return flip(&s.CacheLayout, "last-message", "current-user") }},
	}
}

// readsBases are the strategies the proof varies keys on: every preset,
// and variants a matrix could make (the never trigger under lazy
// discovery, with a ranked search; the categorical rule; a disabled or
// capped warm set; other triggers).
func readsBases(t *testing.T, servers []string) []sim.Strategy {
	t.Helper()
	var out []sim.Strategy
	get := func(name string) sim.Strategy {
		s, err := presets.Strategy(name)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	for _, name := range presets.StrategyNames() {
		out = append(out, get(name))
	}
	variant := func(name, base string, f func(*sim.Strategy)) {
		s := get(base)
		s.Name = name
		f(&s)
		out = append(out, s)
	}
	variant("eager-lazy-discovery", "eager", func(s *sim.Strategy) { s.Transport, s.Discovery = "lazy", "lazy" })
	variant("eager-lazy-bm25", "eager", func(s *sim.Strategy) {
		s.Discovery, s.Search.Mode, s.Warm.MaxTools, s.Directory.Format = "lazy", "bm25", 3, "names-desc"
	})
	variant("eager-categorical", "eager", func(s *sim.Strategy) {
		s.Trigger.Categorical, s.AlwaysDefer = true, []string{servers[1] + ":*", servers[3] + ":*"}
	})
	variant("cc-disabled", "claude-code-default", func(s *sim.Strategy) { s.Warm = sim.WarmSet{Disabled: true} })
	variant("cc-capped-bm25", "claude-code-default", func(s *sim.Strategy) {
		s.Warm.MaxTools, s.Search.Mode, s.Directory.Format = 3, "bm25", "names-desc"
	})
	variant("always-inline-ranked", "codex-cli", func(s *sim.Strategy) {
		s.Trigger, s.Injection, s.Search.Mode = sim.Trigger{Mode: "always"}, "inline", "keyword"
	})
	variant("count-10", "codex-cli", func(s *sim.Strategy) { s.Trigger = sim.Trigger{Mode: "count", Count: 10} })
	variant("percent-1", "codex-cli", func(s *sim.Strategy) { s.Trigger = sim.Trigger{Mode: "percent", Percent: 1} })
	return out
}

// keysReadOnTheData are keys that some base reads and whose change must
// change some outcome on the embedded data (with cold calls on): the proof
// sees a read key act. Keys left out may legitimately change nothing on
// it: warm.key and warm.clear act only when a server changes version
// within a session (the embedded trace has no catalog change), and the
// trigger thresholds only when a session's registry crosses them.
var keysReadOnTheData = []string{"scope", "always_defer", "never_defer", "warm.disabled", "warm.max_tools",
	"warm.eviction", "injection", "echo_schema", "search.mode", "search.k", "search.family",
	"directory.format", "directory.desc_chars", "directory.notice", "rejected", "transport", "discovery", "cache_layout"}

// readSampleBases are the bases the read keys are changed on.
var readSampleBases = []string{"eager", "eager-lazy-bm25", "claude-code-default", "codex-cli", "anchor-e9-warm-capped", "cc-capped-bm25"}

// TestReadsDeclarationsHoldOnTheEngine pins the reads declarations (the
// components' parameters and sim.EngineKeys, as Registry.NotReading
// applies them) against the engine: for every preset and matrix-made
// variant, every strategy key set to another value where NotReading says
// the strategy does not read it leaves every session's outcomes identical
// (the outcome digest), and every key of keysReadOnTheData changes some
// outcome under some base that reads it. A key declared unread where the
// engine reads it fails here (search.k under the never trigger with lazy
// discovery, which loads the unlisted servers' tools by a search).
func TestReadsDeclarationsHoldOnTheEngine(t *testing.T) {
	servers, browser := embeddedServers(t)
	cfg := testConfig(t, "traces: [embedded:trace.jsonl.gz]\ncatalogs: [embedded:catalog]\nmodel: claude-sonnet-4.5\n"+
		"params: {cold_call_prob: 0.3, cold_call_well_formed_prob: 0.5, select_prob: 0.5}\nservers:\n  desktop: {local: true}\nstrategies: [eager]\n", Overrides{})
	reg, err := DefaultRegistry()
	if err != nil {
		t.Fatal(err)
	}
	type probe struct {
		base, key string
		read      bool
	}
	var strategies []sim.Strategy
	probes := map[string]probe{}
	bases := readsBases(t, servers)
	for _, b := range bases {
		strategies = append(strategies, b)
		for _, c := range keyChanges(servers, browser) {
			m := b
			m.AlwaysDefer, m.NeverDefer = slices.Clone(b.AlwaysDefer), slices.Clone(b.NeverDefer)
			if !c.apply(&m) || reflect.DeepEqual(m, b) {
				continue
			}
			m.Name = b.Name + "/" + strings.ReplaceAll(c.name, " ", "-")
			if err := reg.ValidateStrategy(withDefaults(m)); err != nil {
				continue // not a strategy the scenario format accepts
			}
			// Unread: neither the strategy nor its changed copy reads any
			// key the change writes (a change to the default value of a
			// key whose non-default value selects a reader, as
			// trigger.categorical: true does, is not unread).
			read := false
			for _, k := range c.keys {
				whyM, _ := reg.NotReading(m, k)
				whyB, _ := reg.NotReading(b, k)
				read = read || whyM == "" || whyB == ""
			}
			if read && (!slices.Contains(keysReadOnTheData, c.keys[0]) || !slices.Contains(readSampleBases, b.Name)) {
				continue
			}
			strategies = append(strategies, m)
			probes[m.Name] = probe{b.Name, c.keys[0], read}
		}
	}
	// Half the sessions (a shard) keep the test short; every key of
	// keysReadOnTheData still acts on them.
	cfg.Strategies, cfg.Baseline, cfg.CheckReads, cfg.Bootstrap = strategies, "eager", nil, -1
	cfg.Shard = Shard{Index: 0, Count: 2}
	out, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	digest := map[string]string{}
	for _, s := range out.Results.Strategies {
		digest[s.Name] = s.OutcomeDigest
	}
	changed := map[string]bool{}
	unread := 0
	for name, p := range probes {
		same := digest[name] == digest[p.base]
		if digest[name] == "" || digest[p.base] == "" {
			t.Fatalf("no outcome digest for %s or %s", name, p.base)
		}
		switch {
		case !p.read && !same:
			why, _ := reg.NotReading(strategyNamed(strategies, name), p.key)
			t.Errorf("%s: declared unread (%s), but changing it changed the outcomes", name, why)
		case !p.read:
			unread++
		case !same:
			changed[p.key] = true
		}
	}
	t.Logf("%d unread and %d read key changes replayed", unread, len(probes)-unread)
	if unread < 100 {
		t.Errorf("only %d unread key changes replayed: the proof covers too little", unread)
	}
	for _, k := range keysReadOnTheData {
		if !changed[k] {
			t.Errorf("%s: read, but no change of it changed any outcome on the embedded data", k)
		}
	}
}

// withDefaults is s normalized, as the engine validates it.
func withDefaults(s sim.Strategy) sim.Strategy {
	s.Normalize()
	return s
}

func strategyNamed(strategies []sim.Strategy, name string) sim.Strategy {
	for _, s := range strategies {
		if s.Name == name {
			return s
		}
	}
	panic(fmt.Sprintf("no strategy %q", name))
}

// TestEveryStrategyKeyHasReaders pins that every strategy key the scenario
// format accepts (but the prose name, description, source) is declared by
// a component of the default registry or is a key the engine reads itself
// (sim.EngineKeys): none is taken as read by every strategy unexamined.
func TestEveryStrategyKeyHasReaders(t *testing.T) {
	reg, err := DefaultRegistry()
	if err != nil {
		t.Fatal(err)
	}
	var walk func(t reflect.Type, prefix string) []string
	walk = func(typ reflect.Type, prefix string) []string {
		var out []string
		for i := range typ.NumField() {
			name, _, _ := strings.Cut(typ.Field(i).Tag.Get("yaml"), ",")
			if prefix == "" && (name == "name" || name == "description" || name == "source") {
				continue
			}
			if typ.Field(i).Type.Kind() == reflect.Struct {
				out = append(out, walk(typ.Field(i).Type, prefix+name+".")...)
				continue
			}
			out = append(out, prefix+name)
		}
		return out
	}
	keys := walk(reflect.TypeOf(sim.Strategy{}), "")
	if len(keys) < 25 {
		t.Fatalf("only %d strategy keys found: %v", len(keys), keys)
	}
	for _, k := range keys {
		if len(reg.KeyReaders(k)) == 0 {
			t.Errorf("strategy key %s: no component declares it and it is not an engine key", k)
		}
	}
	for _, ek := range sim.EngineKeys() {
		if !slices.Contains(keys, ek.Name) {
			t.Errorf("engine key %s is not a strategy key", ek.Name)
		}
	}
}

// TestNeverTriggerLoadsNoToolOfAnAddedServer pins that the never trigger
// under discovery eager or cached loads no tool even when a catalog_change
// adds a server mid-session, so the keys neverLoads declares unread
// (search.mode, search.k, injection, directory.format …) change nothing
// there either. (Before, the added server stayed unlisted, eager loaded
// its tool by a search, and search.mode and injection changed its cost.)
func TestNeverTriggerLoadsNoToolOfAnAddedServer(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "added.jsonl")
	lines := []string{
		`{"v":1,"type":"session_start","session":"s1","t":"2026-03-02T09:00:00Z","model":"m","system_prompt_tokens":2400,"servers":[{"name":"kb","version":"2.12.1"}]}`,
		`{"type":"user","session":"s1","t":"2026-03-02T09:00:03Z","text":"count the routes please","text_tokens":8}`,
		`{"type":"catalog_change","session":"s1","t":"2026-03-02T09:00:03.050Z","server":"maps","version":"2.2.3"}`,
		`{"type":"model_request","session":"s1","t":"2026-03-02T09:00:03.100Z","id":"r1","duration_ms":1400,"usage":{"input":2460,"output":22}}`,
		`{"type":"tool_call","session":"s1","t":"2026-03-02T09:00:05.620Z","request":"r1","call_id":"c1","tool":"count_routes","server":"maps","args":{},"status":"ok","result_tokens":460,"duration_ms":210}`,
		`{"type":"model_request","session":"s1","t":"2026-03-02T09:00:05.840Z","id":"r2","duration_ms":2600,"usage":{"input":520,"output":140}}`,
		`{"type":"assistant","session":"s1","t":"2026-03-02T09:00:08.440Z","request":"r2","text":"done","text_tokens":140}`,
		`{"type":"session_end","session":"s1","t":"2026-03-02T09:00:10Z"}`,
	}
	if err := os.WriteFile(trace, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(t, "traces: ["+trace+"]\ncatalogs: [embedded:catalog]\nmodel: claude-sonnet-4.5\nstrategies: [eager]\n", Overrides{})
	eager, err := presets.Strategy("eager")
	if err != nil {
		t.Fatal(err)
	}
	variant := func(name string, f func(*sim.Strategy)) sim.Strategy {
		s := eager
		s.Name = name
		f(&s)
		return s
	}
	strategies := []sim.Strategy{eager,
		variant("bm25", func(s *sim.Strategy) { s.Search.Mode = "bm25" }),
		variant("inline", func(s *sim.Strategy) { s.Injection = "inline" }),
		variant("k1-names-desc", func(s *sim.Strategy) { s.Search.K, s.Directory.Format = 1, "names-desc" }),
		variant("cached", func(s *sim.Strategy) { s.Discovery = "cached" }),
		variant("cached-bm25", func(s *sim.Strategy) { s.Discovery, s.Search.Mode = "cached", "bm25" }),
	}
	cfg.Strategies, cfg.Baseline, cfg.CheckReads, cfg.Bootstrap = strategies, "eager", nil, -1
	out, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	searches := sim.Metrics[sim.MSearches].Name
	digest := map[string]string{}
	for _, s := range out.Results.Strategies {
		if n := s.Metrics[searches].Sum; n != 0 {
			t.Errorf("%s: %v searches, want 0 (the never trigger with discovery %s loads nothing)", s.Name, n, s.Parameters.Discovery)
		}
		digest[s.Name] = s.OutcomeDigest
	}
	for _, pair := range [][2]string{{"bm25", "eager"}, {"inline", "eager"}, {"k1-names-desc", "eager"}, {"cached-bm25", "cached"}} {
		if digest[pair[0]] == "" || digest[pair[0]] != digest[pair[1]] {
			t.Errorf("%s: outcome digest %q, want %s's %q (the keys it changes are declared unread)", pair[0], digest[pair[0]], pair[1], digest[pair[1]])
		}
	}
}

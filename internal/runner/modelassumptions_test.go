package runner

import (
	"fmt"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/scenarios"
	defaultdata "github.com/defersim/defersim/scenarios/default"
	"github.com/defersim/defersim/sim"
)

// prepareYAML parses a scenario's YAML and prepares its run (engine and
// run description, no replay), failing the test on error.
func prepareYAML(t *testing.T, yaml string) (Config, *prepared) {
	t.Helper()
	sc, err := scenarios.Parse([]byte(yaml), "test.yaml", "")
	if err != nil {
		t.Fatal(err)
	}
	return prepareScenario(t, sc)
}

func prepareScenario(t *testing.T, sc *scenarios.Scenario) (Config, *prepared) {
	t.Helper()
	cfg, err := FromScenario(sc, Overrides{}, defaultdata.FS())
	if err != nil {
		t.Fatal(err)
	}
	p, err := prepare(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return cfg, p
}

// notStated lists the yaml keys of the model and params that no entry of
// their own states, with the reason.
var notStated = map[string]string{
	"params.query_model": "resolved per search mode: one query_model.NAME entry per query model the run's ranked searches use (searchAssumptions); unread when no strategy ranks",
}

// yamlKeys lists the dotted yaml keys of t's fields under prefix, down to
// the leaves, with the value of each in v.
func yamlKeys(prefix string, v reflect.Value, out map[string]reflect.Value) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
		if name == "" || name == "-" {
			continue
		}
		if f := v.Field(i); f.Kind() == reflect.Struct {
			yamlKeys(prefix+name+".", f, out)
		} else {
			out[prefix+name] = f
		}
	}
}

// TestAssumptionsStateEveryKey pins that results.json's assumptions state
// every key of sim.Model and sim.Params — connect_ms, list_ms,
// cache_warm_start, cache.step, cache.layout and latency.kind_ms.* were not
// stated at all — with the value in force, or "not read" where the run
// does not read it, under an anthropic, an openai and a cache-less model.
// A key added to either struct fails it until it is stated or named in
// notStated with the reason.
func TestAssumptionsStateEveryKey(t *testing.T) {
	const head = "name: a\ntraces: [embedded:trace.jsonl.gz]\ncatalogs: [embedded:catalog]\nstrategies: [eager, anchor-e1-budget8k]\n"
	none := "model: {name: plain, context_window: 100000, cache: {kind: none}, pricing: {input_per_mtok: 1, output_per_mtok: 2}, " +
		"latency: {overhead_ms: 10, prefill_tps: 1000, decode_tps: 50, kind_ms: {repeat: 7}}}\n"
	for _, tc := range []struct{ name, yaml string }{
		{"anthropic", head + "params: {nudge_prob: 0.2, cold_call_prob: 0.1, cache_warm_start: 0.5, connect_ms: 123}\n"},
		{"openai", head + "model: gpt-4o\n"},
		{"none", head + none},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, p := prepareYAML(t, tc.yaml)
			stated := map[string]string{}
			for _, a := range p.file.Info.Assumptions {
				stated[a.Name] = a.Value
			}
			keys := map[string]reflect.Value{}
			yamlKeys("model.", reflect.ValueOf(cfg.Model), keys)
			yamlKeys("params.", reflect.ValueOf(cfg.Params), keys)
			for _, key := range slices.Sorted(maps.Keys(keys)) {
				v := keys[key]
				if _, ok := notStated[key]; ok {
					continue
				}
				name := assumptionOf(key)
				got, ok := stated[name]
				switch want := fmt.Sprint(v.Interface()); {
				case !ok:
					t.Errorf("%s: no assumption %s states it", key, name)
				case got == notRead && !unread(cfg, key):
					t.Errorf("%s: assumption %s = %q, but the run reads it (want %q)", key, name, got, want)
				case got == notRead, got == want:
				case key == "model.cache.layout" && want == "" && got == sim.LayoutLastMessage:
				default:
					t.Errorf("%s: assumption %s = %q, want %q (the value in force)", key, name, got, want)
				}
			}
			for key := range statedAs {
				if _, ok := keys[key]; !ok {
					t.Errorf("statedAs names %s, no key of the model or params", key)
				}
			}
			for key := range notStated {
				if _, ok := keys[key]; !ok {
					t.Errorf("notStated names %s, no key of the model or params", key)
				}
			}
		})
	}
}

// unread says whether a run of cfg leaves the model or params key unread
// (sim.CacheKeyUnread, sim.LatencyKeyUnread, sim.ParamUnread, and
// Registry.ParamUnreadBy over the run's strategies). model.context_window
// is read by every strategy (the overflow count).
func unread(cfg Config, key string) bool {
	if k, ok := strings.CutPrefix(key, "model."); ok {
		if strings.HasPrefix(k, "cache.") {
			return cfg.Model.CacheKeyUnread(k) != ""
		}
		return sim.LatencyKeyUnread(cfg.Model, k) != ""
	}
	k := strings.TrimPrefix(key, "params.")
	why, _ := sim.ParamUnread(cfg.Model, cfg.Params, k)
	byStrategies, _ := sim.NewRegistry().ParamUnreadBy(cfg.Strategies, k)
	return why != "" || byStrategies != ""
}

// TestAssumptionsOfUnreadKeys pins that a key the run does not read is
// stated "not read" with the reason, not as a value in force: an openai
// model stated cache.breakpoints: 0 and cache.lookback_blocks: 0, a model
// without a cache stated its zero TTL and multipliers (and its cached
// prefill rate, which times no token), and nudge_tokens
// was stated while nudge_prob 0 draws no nudge. Keys read are stated with
// their value.
func TestAssumptionsOfUnreadKeys(t *testing.T) {
	const head = "name: a\ntraces: [embedded:trace.jsonl.gz]\ncatalogs: [embedded:catalog]\nstrategies: [eager]\n"
	// The preset brings a cached prefill rate (71000) and a TTL that
	// cache.kind none never reads.
	none := "model: {preset: claude-sonnet-4.5, cache: {kind: none}, latency: {prefill_tps: 1000}}\n"
	allCache := []string{"cache.ttl_s", "cache.min_tokens", "cache.breakpoints", "cache.lookback_blocks", "cache.layout", "cache.step",
		"cache.write_multiplier", "cache.read_multiplier"}
	for _, tc := range []struct {
		name, yaml string
		unread     []string          // stated "not read", the source naming why
		read       map[string]string // stated with this value
	}{
		{"anthropic", head, []string{"cache.step", "nudge_tokens", "cold_call_well_formed_prob"},
			map[string]string{"cache.breakpoints": "4", "cache.lookback_blocks": "20", "cache.layout": "last-message", "cache_warm_start": "0"}},
		{"openai", head + "model: gpt-4o\n", []string{"cache.breakpoints", "cache.lookback_blocks", "cache.layout"},
			map[string]string{"cache.step": "128", "cache.ttl_s": "300"}},
		{"none", head + none, append(allCache, "cache_warm_start", "latency.cached_prefill_tps"),
			map[string]string{"cache.kind": "none", "latency.prefill_tps": "1000"}},
		{"nudges", strings.Replace(head, "[eager]", "[eager, codex-cli]", 1) + "params: {nudge_prob: 0.2, nudge_tokens: 55}\n", []string{"cold_call_well_formed_prob"},
			map[string]string{"nudge_tokens": "55", "nudge_prob": "0.2", "select_prob": "0.5"}},
		// No strategy of the run loads a tool: the loading params are not
		// read, whatever their value (a value the file writes is refused,
		// unless --strategies replaced the file's own strategies that read
		// it: TestScenarioParamsNoStrategyReads).
		{"eager only", head, []string{"select_prob", "search_tool_tokens", "search_exec_ms", "nudge_prob", "cold_call_prob"},
			map[string]string{"list_ms": "10", "request_overhead_tokens": "346"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, p := prepareYAML(t, tc.yaml)
			got := map[string]sim.Assumption{}
			for _, a := range p.file.Info.Assumptions {
				got[a.Name] = a
			}
			for _, name := range tc.unread {
				a, ok := got[name]
				if !ok || a.Value != notRead || !strings.Contains(a.Source, "read") {
					t.Errorf("%s = %+v, want %q with the reason", name, a, notRead)
				}
			}
			for name, want := range tc.read {
				if a := got[name]; a.Value != want {
					t.Errorf("%s = %+v, want the value %q", name, a, want)
				}
			}
		})
	}
}

// TestConnectListDefaultsCounted pins that connect_ms and list_ms say they
// stand in only for servers whose catalog records no time, and for how
// many server versions: the embedded catalog records neither time, the
// shared catalogs record each version's initialize_ms and no tools/list
// time (connect_ms stands in for none, list_ms for every one).
func TestConnectListDefaultsCounted(t *testing.T) {
	_, p := prepareYAML(t, "name: a\ntraces: [embedded:trace.jsonl.gz]\ncatalogs: [embedded:catalog]\nstrategies: [eager]\n")
	n := inputVersions(p)
	checkTimingSources(t, p, fmt.Sprintf(": %d of the catalogs' %d", n, n), fmt.Sprintf(": %d of the catalogs' %d", n, n))

	shareddata.Dir(t) // skips (fails in CI) without the shared data
	sc, err := scenarios.Load(filepath.Join("..", "..", "scenarios", "real-drift.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	_, p = prepareScenario(t, sc)
	n = inputVersions(p)
	checkTimingSources(t, p, fmt.Sprintf(": 0 of the catalogs' %d", n), fmt.Sprintf(": %d of the catalogs' %d", n, n))
}

// inputVersions counts the server versions among the run's inputs.
func inputVersions(p *prepared) int {
	n := 0
	for _, in := range p.file.Info.Inputs {
		if in.Kind == "catalog" {
			n++
		}
	}
	return n
}

func checkTimingSources(t *testing.T, p *prepared, connect, list string) {
	t.Helper()
	if inputVersions(p) == 0 {
		t.Fatal("no catalog input")
	}
	for _, a := range p.file.Info.Assumptions {
		want := map[string]string{"connect_ms": connect, "list_ms": list}[a.Name]
		if want != "" && (!strings.Contains(a.Source, want) || !strings.Contains(a.Source, "records none")) {
			t.Errorf("%s source %q, want it to say %q", a.Name, a.Source, want)
		}
	}
}

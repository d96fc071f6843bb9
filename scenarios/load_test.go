package scenarios

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/component"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

func parse(t *testing.T, text string) (*Scenario, error) {
	t.Helper()
	return Parse([]byte(text), "scen.yaml", "")
}

func mustParse(t *testing.T, text string) *Scenario {
	t.Helper()
	s, err := parse(t, text)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestParseErrors(t *testing.T) {
	// Lists of names come from the registry the errors are made from.
	names := func(k component.Kind) string { return strings.Join(sim.NewRegistry().Names(k), "|") }
	metricNames := func() string {
		var out []string
		for _, m := range sim.Metrics {
			out = append(out, m.Name)
		}
		return strings.Join(out, "|")
	}
	tests := []struct {
		name, yaml, want string
	}{
		{"unknown top key", "name: x\nstrategy: [eager]\n",
			"scen.yaml:2: strategy: unknown key (want name|description|seed|traces|catalogs|catalog_fingerprint|srd|max_unresolved|model|params|strategies|matrix|baseline|permissions|servers|sweep|check|assumptions); did you mean \"strategies\" (the plural)?"},
		{"unknown nested key", "strategies:\n  - name: a\n    trigger: {mode: never, modee: x}\n",
			"scen.yaml:3: strategies[0].trigger.modee: unknown key (want mode|count|budget|counter|percent|categorical); did you mean \"mode\"?"},
		{"unknown strategy key", "strategies:\n  - preset: eager\n    inject: inline\n",
			"scen.yaml:3: strategies[0].inject: unknown key (want name|description|source|trigger|scope|always_defer|never_defer|warm|injection|search|directory|rejected|transport|discovery|echo_schema|cache_layout)"},
		{"wrong type int", "seed: abc\nstrategies: [eager]\n",
			`scen.yaml:1: seed: want an integer, got string "abc"`},
		{"wrong type string", "name: 12\nstrategies: [eager]\n",
			"scen.yaml:1: name: want a string, got integer 12 (quote it)"},
		{"null entry", "strategies:\n  - eager\n  -\n",
			"scen.yaml:3: strategies[1]: want a string, got nothing (null)"},
		{"wrong type list", "traces: a.jsonl\nstrategies: [eager]\n",
			`scen.yaml:1: traces: want a list, got string "a.jsonl"`},
		{"wrong type bool", "strategies:\n  - name: a\n    trigger: {mode: never}\n    echo_schema: yes\n",
			`scen.yaml:4: strategies[0].echo_schema: want true or false, got string "yes"`},
		{"wrong type mapping", "strategies:\n  - name: a\n    trigger: never\n",
			`scen.yaml:3: strategies[0].trigger: want a mapping, got string "never"`},
		{"max_unresolved above 1", "max_unresolved: 5\nstrategies: [eager]\n",
			"scen.yaml:1: max_unresolved: 5 is not a share in [0, 1] (0.01 = 1% of tool calls)"},
		{"srd path twice", "srd: [a, ./a]\nstrategies: [eager]\n",
			`scen.yaml:1: srd[1]: "./a" repeats srd[0]`},
		{"non-finite", "params: {nudge_prob: .nan}\nstrategies: [eager]\n",
			"scen.yaml:1: params.nudge_prob: want a finite number, got .nan"},
		{"unknown trigger mode", "seed: 1\nstrategies:\n  - eager\n  - eager-ish\n", ""},
		{"impossible trigger mode", "strategies:\n  - eager\n  - anchor-e1-budget8k\n  - name: odd\n    trigger:\n      mode: sometimes\n",
			`scen.yaml:6: strategies[2].trigger.mode: unknown trigger "sometimes" (want ` + names(component.Trigger) + ")"},
		{"negative count", "strategies:\n  - name: a\n    trigger: {mode: count, count: -3}\n",
			"scen.yaml:3: strategies[0].trigger.count: -3 is negative"},
		{"percent range", "strategies:\n  - name: a\n    trigger:\n      mode: percent\n      percent: 150\n",
			"scen.yaml:5: strategies[0].trigger.percent: 150 is outside (0,100]"},
		{"missing mode", "strategies:\n  - name: a\n    injection: inline\n",
			"scen.yaml:2: strategies[0].trigger.mode: missing (want " + names(component.Trigger) + "); a strategy without preset: or base: defines every part itself — to change some parts of a preset, add base: PRESET (docs/presets.md lists them)"},
		{"bad injection", "strategies:\n  - name: a\n    base: eager\n    injection: sideways\n",
			`scen.yaml:4: strategies[0].injection: unknown injection "sideways" (want ` + names(component.Injection) + ")"},
		{"bad warm key", "strategies:\n  - name: a\n    base: eager\n    warm: {key: hash}\n",
			`scen.yaml:4: strategies[0].warm.key: unknown warm-key "hash" (want ` + names(component.Keying) + ")"},
		{"negative warm limit", "strategies:\n  - name: a\n    base: anchor-e9-warm-capped\n    warm:\n      max_tokens: -1\n",
			"scen.yaml:5: strategies[0].warm.max_tokens: -1 is negative"},
		{"unknown preset", "strategies:\n  - eager\n  - preset: eagr\n",
			`scen.yaml:3: strategies[1].preset: unknown strategy preset "eagr" (known: ` + strings.Join(presets.StrategyNames(), ", ") + `); did you mean "eager"?`},
		{"unknown bare preset", "strategies: [nope]\n",
			`scen.yaml:1: strategies[0]: unknown strategy preset "nope" (known: ` + strings.Join(presets.StrategyNames(), ", ") + ")"},
		{"unknown base", "strategies:\n  - name: a\n    base: nope\n",
			`scen.yaml:3: strategies[0].base: no earlier strategy and no preset is called "nope"`},
		{"preset and base", "strategies:\n  - name: a\n    preset: eager\n    base: eager\n",
			"scen.yaml:2: strategies[0]: give preset or base, not both"},
		{"override without name", "strategies:\n  - preset: eager\n    injection: inline\n",
			`scen.yaml:2: strategies[0].name: required: a strategy that changes preset "eager" needs a name of its own`},
		{"base without name", "strategies:\n  - base: eager\n",
			`scen.yaml:2: strategies[0].name: missing: a strategy based on "eager" needs a name of its own`},
		{"duplicate names", "strategies:\n  - eager\n  - name: eager\n    trigger: {mode: always}\n",
			`scen.yaml:3: strategies[1]: duplicate strategy name "eager" (first at line 2)`},
		{"duplicate via matrix", "strategies:\n  - name: x-name\n    trigger: {mode: always}\nmatrix:\n  base: eager\n  name: x-{warm.key}\n  vary: {warm.key: [name]}\n",
			`scen.yaml:5: matrix: duplicate strategy name "x-name" (first at line 2)`},
		{"repeated key", "seed: 1\nseed: 2\nstrategies: [eager]\n",
			"scen.yaml:2: seed: key repeated (first at line 1)"},
		{"no strategies", "name: x\n",
			"scen.yaml: strategies: none given: list at least one strategy (a preset name, or a strategy mapping)"},
		{"unknown baseline", "strategies: [eager]\nbaseline: lazy\n",
			`scen.yaml:2: baseline: no strategy is called "lazy"`},
		{"unknown model", "model: claude-9\nstrategies: [eager]\n",
			`scen.yaml:1: model: unknown model preset "claude-9" (known: ` + strings.Join(presets.ModelNames(), ", ") + ")"},
		{"model override", "model:\n  preset: claude-haiku-4.5\n  cache:\n    kind: memcached\nstrategies: [eager]\n",
			`scen.yaml:4: model.cache.kind: unknown cache "memcached" (want ` + names(component.Cache) + ")"},
		{"inline model incomplete", "model:\n  name: mine\n  context_window: 1000\nstrategies: [eager]\n",
			`scen.yaml:2: model.cache.kind: missing (want anthropic|openai|none)`},
		{"params range", "params:\n  select_prob: 2\nstrategies: [eager]\n",
			"scen.yaml:2: params.select_prob: 2 is outside [0,1]"},
		{"params unknown", "params:\n  think_ms: 2\nstrategies: [eager]\n",
			"scen.yaml:2: params.think_ms: unknown key (want tokenizer|token_scale|message_overhead_tokens|tool_overhead_tokens|request_overhead_tokens|search_tool_tokens|default_tool_ms|search_exec_ms|user_think_ms|nudge_prob|cold_call_prob|cold_call_well_formed_prob|nudge_tokens|bytes_per_token|query_model|cache_warm_start|connect_ms|list_ms|relist_prob|select_prob); did you mean \"user_think_ms\" (a name holding \"think_ms\" as a part)?"},
		{"matrix unknown path", "strategies: [eager]\nmatrix:\n  base: eager\n  vary:\n    warm.kee: [name]\n",
			`scen.yaml:5: matrix.vary.warm.kee: unknown key "kee" (want key|max_tools|max_tokens|counter|eviction|disabled|clear); did you mean "key"?`},
		{"matrix template", "strategies: [eager]\nmatrix:\n  base: claude-code-default\n  name: cc\n  vary:\n    warm.key: [name, fingerprint]\n",
			`scen.yaml:3: matrix.name: template "cc" lacks {warm.key}: every vary key must appear in the name`},
		{"matrix bad value", "strategies: [eager]\nmatrix:\n  - base: claude-code-default\n    vary:\n      injection: [inline, sideways]\n",
			`scen.yaml:3: matrix[0]: combination "claude-code-default-sideways": injection: unknown injection "sideways" (want ` + names(component.Injection) + ")"},
		{"matrix value type", "strategies: [eager]\nmatrix:\n  base: eager\n  vary:\n    search.k: [3, many]\n",
			`scen.yaml:5: matrix.vary.search.k[1]: want an integer, got string "many"`},
		{"matrix too big", "strategies: [eager]\nmatrix:\n  base: eager\n  vary:\n    search.k: [1,2,3,4,5,6,7,8,9,10]\n    warm.max_tools: [1,2,3,4,5,6,7,8,9,10]\n    warm.max_tokens: [1,2,3,4,5,6,7,8,9,10]\n",
			"scen.yaml:3: matrix: expands to more than 999 strategies"},
		{"permission pattern", "strategies: [eager]\npermissions:\n  deny: [\"sh*ell\"]\n",
			`scen.yaml:3: permissions.deny[0]: pattern "sh*ell": "*" is allowed only at the end`},
		{"upgrade both", "strategies: [eager]\nservers:\n  github:\n    upgrades:\n      - {to: \"2.0\", after_session: 3, at: 2026-05-01T00:00:00Z}\n",
			"scen.yaml:5: servers.github.upgrades[0]: give exactly one of after_session and at"},
		{"upgrade time", "strategies: [eager]\nservers:\n  github:\n    upgrades:\n      - {to: \"2.0\", at: May 1}\n",
			`scen.yaml:5: servers.github.upgrades[0].at: "May 1" is not an RFC 3339 time (e.g. 2026-05-01T09:00:00Z)`},
		{"sweep param", "strategies: [eager]\nsweep: {param: params.nudge, from: 0, to: 1, step: 0.1}\n",
			`scen.yaml:2: sweep.param: "params.nudge": unknown key "nudge" (want tokenizer|token_scale|message_overhead_tokens|tool_overhead_tokens|request_overhead_tokens|search_tool_tokens|default_tool_ms|search_exec_ms|user_think_ms|nudge_prob|cold_call_prob|cold_call_well_formed_prob|nudge_tokens|bytes_per_token|query_model|cache_warm_start|connect_ms|list_ms|relist_prob|select_prob); did you mean "nudge_prob" or "nudge_tokens" (names holding "nudge" as a part)?`},
		{"sweep step", "strategies: [eager]\nsweep:\n  param: model.latency.overhead_ms\n  from: 0\n  to: 1000\n  step: 0\n",
			"scen.yaml:6: sweep.step: 0: want a positive step"},
		{"kind term negative", "model:\n  preset: gpt-4o\n  latency:\n    kind_ms: {repeat: -5}\nstrategies: [eager]\n",
			"scen.yaml:4: model.latency.kind_ms.repeat: -5: want a finite number >= 0"},
		{"kind unknown", "model:\n  preset: gpt-4o\n  latency:\n    kind_ms: {thinking: 5}\nstrategies: [eager]\n",
			`scen.yaml:4: model.latency.kind_ms.thinking: unknown key (want turn_text|turn_call|tool_text|tool_call|repeat)`},
		{"check negative", "strategies: [eager]\ncheck: {metrics: {cost_usd: -0.1}}\n",
			"scen.yaml:2: check.metrics.cost_usd: -0.1 is negative"},
		// A check key naming no metric (docs/scenarios.md's own example said
		// `dollars`) used to load, run and fail only in `defersim check`,
		// after both replays, without a file or line; it stops the load.
		{"check unknown metric", "strategies: [eager]\ncheck:\n  tolerance: 0.02\n  metrics: {dollars: 0.05}\n",
			`scen.yaml:4: check.metrics.dollars: unknown metric "dollars" (want ` + metricNames() + ")"},
		{"check unknown statistic", "strategies: [eager]\ncheck:\n  absolute:\n    first_reply_ms.p99: 100\n",
			`scen.yaml:4: check.absolute.first_reply_ms.p99: statistic "p99" is not mean, p50 or p95`},
		{"duplicate trace", "traces: [a.jsonl, ./a.jsonl]\nstrategies: [eager]\n",
			`scen.yaml:1: traces[1]: "./a.jsonl" repeats traces[0]`},
		{"syntax", "strategies: [eager\n",
			"scen.yaml:1: YAML syntax: did not find expected ',' or ']'"},
		{"two documents", "strategies: [eager]\n---\nname: x\n",
			"scen.yaml:2: more than one YAML document (a scenario is one document)"},
		{"not a mapping", "- eager\n", "scen.yaml:1: a scenario is a mapping of keys, got a list"},
		{"empty", "", "scen.yaml: empty scenario"},
		{"comment only", "# nothing\n", "scen.yaml: empty scenario"},
		{"unknown fingerprint scope", "catalog_fingerprint: full\nstrategies: [eager]\n",
			`scen.yaml:1: catalog_fingerprint: unknown fingerprint scope "full" (want model or served)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parse(t, tt.yaml)
			if tt.want == "" {
				tt.want = `scen.yaml:4: strategies[1]: unknown strategy preset "eager-ish" (known: ` + strings.Join(presets.StrategyNames(), ", ") + ")"
			}
			if err == nil {
				t.Fatalf("no error, want %q", tt.want)
			}
			if err.Error() != tt.want {
				t.Errorf("got  %s\nwant %s", err, tt.want)
			}
			var se *Error
			if !errors.As(err, &se) {
				t.Errorf("error %T is not a *scenarios.Error", err)
			}
		})
	}
}

// TestCatalogFingerprintKey reads catalog_fingerprint and checks that it
// enters the scenario fingerprint only when it is not the default.
func TestCatalogFingerprintKey(t *testing.T) {
	fp := map[string]string{}
	for _, v := range []string{"", "model", "served"} {
		y := "name: x\nstrategies: [eager]\n"
		if v != "" {
			y += "catalog_fingerprint: " + v + "\n"
		}
		s, err := parse(t, y)
		if err != nil {
			t.Fatalf("%q: %v", v, err)
		}
		if string(s.CatalogFingerprint) != v {
			t.Errorf("%q: CatalogFingerprint = %q", v, s.CatalogFingerprint)
		}
		fp[v] = s.Fingerprint()
	}
	if fp[""] != fp["model"] || fp["served"] == fp["model"] {
		t.Errorf("scenario fingerprints: default %s, model %s, served %s", fp[""], fp["model"], fp["served"])
	}
}

// TestAliasBomb: alias expansion is bounded, whether by fan-out of one
// anchor or by merge keys that double at every level.
func TestAliasBomb(t *testing.T) {
	var fan strings.Builder
	fan.WriteString("strategies: [eager]\nmatrix:\n  base: eager\n  vary:\n    always_defer:\n      - &l [")
	for i := 0; i < 2000; i++ {
		if i > 0 {
			fan.WriteString(", ")
		}
		fan.WriteString("t" + strconv.Itoa(i))
	}
	fan.WriteString("]\n")
	for i := 0; i < 200; i++ {
		fan.WriteString("      - *l\n")
	}

	// Each level merges the previous one twice: 2^40 expansions.
	var merge strings.Builder
	merge.WriteString("strategies: [eager]\ncheck:\n  metrics:\n    <<:\n      - &x0 {a: 1}\n")
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&merge, "      - &x%d {<<: [*x%d, *x%d]}\n", i, i-1, i-1)
	}

	for name, doc := range map[string]string{"fan-out": fan.String(), "merge": merge.String()} {
		t.Run(name, func(t *testing.T) {
			_, err := parse(t, doc)
			if err == nil || !strings.Contains(err.Error(), "alias expansion exceeds 100000 nodes (a YAML alias bomb?)") {
				t.Fatalf("err = %v", err)
			}
		})
	}
	// A modest use of anchors and merge keys is fine.
	s := mustParse(t, "strategies:\n  - &e {name: a, trigger: {mode: never}}\n  - {<<: *e, name: b}\n")
	if len(s.Strategies) != 2 || s.Strategies[1].Name != "b" || s.Strategies[1].Trigger.Mode != "never" {
		t.Fatalf("got %+v", s.Strategies)
	}
}

func TestMatrixExpansion(t *testing.T) {
	s := mustParse(t, `
strategies: [eager]
matrix:
  - base: claude-code-default
    name: "cc-{warm.key}-{injection}"
    vary:
      warm.key: [name, fingerprint]
      injection: [tools-array, inline]
  - base: anchor-e1-budget8k
    vary:
      trigger.budget: [4000, 16000]
`)
	var names []string
	for _, st := range s.Strategies {
		names = append(names, st.Name)
	}
	want := []string{"eager", "cc-name-tools-array", "cc-name-inline", "cc-fingerprint-tools-array", "cc-fingerprint-inline",
		"anchor-e1-budget8k-4000", "anchor-e1-budget8k-16000"}
	if d := cmp.Diff(want, names); d != "" {
		t.Fatalf("names (-want +got):\n%s", d)
	}
	cc, _ := s.Strategy("cc-fingerprint-tools-array")
	if cc.Warm.Key != "fingerprint" || cc.Injection != "tools-array" || cc.Trigger.Mode != "always" || cc.Search.K != 5 {
		t.Errorf("combination not applied: %+v", cc)
	}
	if cc.Description != "claude-code-default with warm.key=fingerprint, injection=tools-array." {
		t.Errorf("description %q", cc.Description)
	}
	b, _ := s.Strategy("anchor-e1-budget8k-16000")
	if b.Trigger.Budget != 16000 || b.Trigger.Mode != "tokens" || !b.EchoSchema {
		t.Errorf("budget combination: %+v", b.Trigger)
	}
	if s.Baseline != "eager" {
		t.Errorf("baseline %q", s.Baseline)
	}
	// Generated strategies do not share slices.
	e9 := mustParse(t, "matrix: {base: anchor-e9-warm-capped, vary: {warm.key: [name, fingerprint]}}\n")
	e9.Strategies[0].AlwaysDefer[0] = "changed"
	if e9.Strategies[1].AlwaysDefer[0] == "changed" {
		t.Error("matrix strategies share slices")
	}
}

func TestStrategyForms(t *testing.T) {
	s := mustParse(t, `
strategies:
  - eager
  - preset: anchor-e6-never-defer-openers
  - name: mine
    base: anchor-e6-never-defer-openers
    trigger: {budget: 12000}
    never_defer: [web_search]
  - name: mine-inline
    base: mine
    injection: inline
  - name: scratch
    trigger: {mode: count, count: 10}
baseline: mine
`)
	mine, _ := s.Strategy("mine")
	if mine.Trigger.Budget != 12000 || mine.Trigger.Mode != "tokens" || !mine.Trigger.Categorical || len(mine.NeverDefer) != 1 || len(mine.AlwaysDefer) != 13 {
		t.Errorf("mine: %+v", mine)
	}
	if mine.Description != "anchor-e6-never-defer-openers with trigger, never_defer changed." || !strings.HasPrefix(mine.Source, "based on anchor-e6-never-defer-openers: anchor runtime, era E6") {
		t.Errorf("mine prose: %q / %q", mine.Description, mine.Source)
	}
	mi, _ := s.Strategy("mine-inline")
	if mi.Injection != "inline" || mi.Trigger.Budget != 12000 {
		t.Errorf("mine-inline did not start from mine: %+v", mi)
	}
	sc, _ := s.Strategy("scratch")
	if sc.Warm.Key != "name" || sc.Search.Mode != "select" || sc.Injection != "tools-array" || sc.Rejected != "retry" {
		t.Errorf("scratch not normalized: %+v", sc)
	}
	if s.Baseline != "mine" {
		t.Errorf("baseline %q", s.Baseline)
	}
	e6, _ := presets.Strategy("anchor-e6-never-defer-openers")
	got, _ := s.Strategy("anchor-e6-never-defer-openers")
	if d := cmp.Diff(e6, got); d != "" {
		t.Errorf("preset entry differs from preset:\n%s", d)
	}
}

func TestModelAndParams(t *testing.T) {
	s := mustParse(t, "strategies: [eager]\n")
	if s.Model.Name != defaultModel || s.Seed != defaultSeed || s.Name != "scen" {
		t.Errorf("defaults: model %q seed %d name %q", s.Model.Name, s.Seed, s.Name)
	}
	if d := cmp.Diff(presets.DefaultParams(), s.Params); d != "" {
		t.Errorf("params:\n%s", d)
	}
	s = mustParse(t, `
model:
  preset: claude-opus-4.5
  cache: {ttl_s: 3600}
  latency: {decode_tps: 40, kind_ms: {turn_call: 2500, repeat: 10}}
params: {nudge_prob: 0.1}
strategies: [eager]
sweep: {param: model.latency.kind_ms.turn_call, from: 0, to: 5000, step: 1000}
`)
	if k := s.Model.Latency.Kinds; k != (sim.KindMs{TurnCall: 2500, Repeat: 10}) {
		t.Errorf("kind terms: %+v", k)
	}
	if s.Model.Name != "claude-opus-4.5" || s.Model.Cache.TTLSeconds != 3600 || s.Model.Cache.WriteMultiplier != 1.25 ||
		s.Model.Cache.MinTokens != 4096 || s.Model.Latency.DecodeTPS != 40 || s.Model.Latency.PrefillTPS != 9500 {
		t.Errorf("model overrides: %+v", s.Model)
	}
	if s.Params.NudgeProb != 0.1 || s.Params.Tokenizer != "o200k_base" {
		t.Errorf("params overrides: %+v", s.Params)
	}
	s = mustParse(t, `
model:
  name: local-llm
  context_window: 32000
  pricing: {input_per_mtok: 0, output_per_mtok: 0}
  cache: {kind: none}
  latency: {overhead_ms: 50, prefill_tps: 2000, decode_tps: 30}
strategies: [eager]
`)
	if s.Model.Name != "local-llm" || s.Model.Cache.Kind != "none" {
		t.Errorf("inline model: %+v", s.Model)
	}
}

func TestPaths(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.jsonl"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "s.yaml")
	text := "traces: [t.jsonl, embedded:trace.jsonl.gz]\ncatalogs:\n  - cats\nstrategies: [eager]\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{filepath.Join(dir, "t.jsonl"), "embedded:trace.jsonl.gz"}, s.Traces); d != "" {
		t.Error(d)
	}
	err = s.CheckPaths()
	want := path + ":3: catalogs[0]: " + filepath.Join(dir, "cats") + ": no such file or directory"
	if err == nil || err.Error() != want {
		t.Errorf("CheckPaths = %v, want %s", err, want)
	}
	if err := os.Mkdir(filepath.Join(dir, "cats"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := s.CheckPaths(); err != nil {
		t.Error(err)
	}
	if _, err := Load(filepath.Join(dir, "missing.yaml")); err == nil {
		t.Error("no error for a missing file")
	}
	// URLs (read by the Beam pipeline) are kept as written.
	s, err = Parse([]byte("traces: [gs://b/t.jsonl.gz]\ncatalogs: [s3://b/cats]\nstrategies: [eager]\n"), "s.yaml", dir)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"gs://b/t.jsonl.gz", "s3://b/cats"}, append(s.Traces, s.Catalogs...)); d != "" {
		t.Error(d)
	}
}

func TestSelectStrategies(t *testing.T) {
	s := mustParse(t, "strategies:\n  - eager\n  - name: mine\n    trigger: {mode: always}\nbaseline: mine\n")
	if err := s.SelectStrategies([]string{"claude-code-default", "mine"}); err != nil {
		t.Fatal(err)
	}
	if len(s.Strategies) != 2 || s.Strategies[0].Name != "claude-code-default" || s.Baseline != "mine" {
		t.Errorf("got %v baseline %q", s.Strategies, s.Baseline)
	}
	if err := s.SelectStrategies([]string{"eager"}); err != nil || s.Baseline != "eager" {
		t.Errorf("err %v baseline %q", err, s.Baseline)
	}
	if err := s.SelectStrategies([]string{"nope"}); err == nil || !strings.Contains(err.Error(), `strategy "nope" is neither in scenario scen nor a preset`) {
		t.Errorf("err = %v", err)
	}
	if err := s.SelectStrategies([]string{"eager", "eager"}); err == nil {
		t.Error("duplicate selection accepted")
	}
}

func TestFingerprint(t *testing.T) {
	a := mustParse(t, `
seed: 3
model: {preset: claude-sonnet-4.5, cache: {ttl_s: 3600}}
strategies:
  - eager
  - name: x
    trigger: {mode: tokens, budget: 8000}
    warm: {key: fingerprint, max_tools: 4}
`)
	// Same content, keys reordered, comments, flow vs block style, and a
	// different description: same fingerprint.
	b := mustParse(t, `
# reordered
strategies:
  - preset: eager
  - warm:
      max_tools: 4
      key: fingerprint
    trigger: {budget: 8000, mode: tokens}
    name: x
    description: words do not change numbers
model:
  cache: {ttl_s: 3600}
  preset: claude-sonnet-4.5
seed: 3
name: another-name
`)
	if a.Fingerprint() != b.Fingerprint() {
		t.Error("fingerprint changed under reordering")
	}
	if len(a.Fingerprint()) != 64 {
		t.Errorf("fingerprint %q", a.Fingerprint())
	}
	for name, text := range map[string]string{
		"seed":     "seed: 4\nmodel: {preset: claude-sonnet-4.5, cache: {ttl_s: 3600}}\nstrategies: [eager, {name: x, trigger: {mode: tokens, budget: 8000}, warm: {key: fingerprint, max_tools: 4}}]\n",
		"budget":   "seed: 3\nmodel: {preset: claude-sonnet-4.5, cache: {ttl_s: 3600}}\nstrategies: [eager, {name: x, trigger: {mode: tokens, budget: 8001}, warm: {key: fingerprint, max_tools: 4}}]\n",
		"ttl":      "seed: 3\nmodel: {preset: claude-sonnet-4.5}\nstrategies: [eager, {name: x, trigger: {mode: tokens, budget: 8000}, warm: {key: fingerprint, max_tools: 4}}]\n",
		"baseline": "seed: 3\nmodel: {preset: claude-sonnet-4.5, cache: {ttl_s: 3600}}\nstrategies: [eager, {name: x, trigger: {mode: tokens, budget: 8000}, warm: {key: fingerprint, max_tools: 4}}]\nbaseline: x\n",
		"params":   "seed: 3\nparams: {nudge_prob: 0.2}\nmodel: {preset: claude-sonnet-4.5, cache: {ttl_s: 3600}}\nstrategies: [eager, {name: x, trigger: {mode: tokens, budget: 8000}, warm: {key: fingerprint, max_tools: 4}}]\n",
	} {
		if mustParse(t, text).Fingerprint() == a.Fingerprint() {
			t.Errorf("changing %s kept the fingerprint", name)
		}
	}
}

// TestDefaultScenario pins the resolved embedded default against a golden
// file (refresh with -update).
func TestDefaultScenario(t *testing.T) {
	s, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if s.Baseline != "eager" || len(s.Strategies) != 12 {
		t.Errorf("baseline %q, %d strategies", s.Baseline, len(s.Strategies))
	}
	if d := cmp.Diff([]string{"embedded:trace.jsonl.gz"}, s.Traces); d != "" {
		t.Error(d)
	}
	if d := cmp.Diff([]string{"embedded:catalog"}, s.Catalogs); d != "" {
		t.Error(d)
	}
	got, err := json.MarshalIndent(struct {
		Fingerprint string    `json:"fingerprint"`
		Scenario    *Scenario `json:"scenario"`
	}{s.Fingerprint(), s}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "default.golden.json", append(got, '\n'))
}

func TestExampleCustomScenario(t *testing.T) {
	s, err := Load("example-custom.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Strategies) != 8 || s.Baseline != "eager" || s.Model.Cache.TTLSeconds != 3600 || s.Params.ColdCallProb != 0.05 {
		t.Errorf("example: %d strategies, baseline %q, model %+v", len(s.Strategies), s.Baseline, s.Model.Cache)
	}
	if !s.Servers["desktop"].Local || *s.Servers["kb"].Upgrades[0].AfterSession != 200 {
		t.Errorf("servers: %+v", s.Servers)
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if d := cmp.Diff(string(want), string(got)); d != "" {
		t.Errorf("%s differs (-want +got):\n%s", path, d)
	}
}

package sim

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/defersim/defersim/component"

	"github.com/google/go-cmp/cmp"
)

func TestStrategyNormalizeDefaults(t *testing.T) {
	s := Strategy{Name: "x", Trigger: Trigger{Mode: TriggerAlways}}
	s.Normalize()
	want := Strategy{
		Name:      "x",
		Trigger:   Trigger{Mode: TriggerAlways, Counter: "bytes/3.5"},
		Scope:     "mcp",
		Warm:      WarmSet{Key: "name", Eviction: "lrl"},
		Injection: "tools-array",
		Search:    Search{Mode: "select", K: 5},
		Directory: Directory{Format: "names"},
		Rejected:  "retry", Transport: "eager", Discovery: "eager",
	}
	if d := cmp.Diff(want, s); d != "" {
		t.Fatalf("(-want +got):\n%s", d)
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	// Set fields are kept.
	k := Strategy{Name: "k", Trigger: Trigger{Mode: TriggerNever}, Search: Search{K: 8}, Directory: Directory{Format: dirNamesDesc}}
	k.Normalize()
	if k.Search.K != 8 || k.Directory.DescChars != defaultDescChars {
		t.Fatalf("got %+v", k)
	}
}

func TestStrategyValidate(t *testing.T) {
	names := func(k component.Kind) string { return strings.Join(NewRegistry().Names(k), "|") }
	base := func(f func(*Strategy)) Strategy {
		s := Strategy{Name: "s", Trigger: Trigger{Mode: TriggerTokens, Budget: 8000}, AlwaysDefer: []string{"browser_*"}}
		f(&s)
		s.Normalize()
		return s
	}
	tests := []struct {
		name string
		mod  func(*Strategy)
		want string // "" = valid
	}{
		{"valid", func(*Strategy) {}, ""},
		{"no name", func(s *Strategy) { s.Name = "" }, "name: missing"},
		{"bad name", func(s *Strategy) { s.Name = "a b" }, `name: "a b": use letters, digits and - _ . + = : / @ only`},
		{"unknown mode", func(s *Strategy) { s.Trigger.Mode = "sometimes" }, `trigger.mode: unknown trigger "sometimes" (want ` + names(component.Trigger) + ")"},
		{"no mode", func(s *Strategy) { s.Trigger.Mode = "" }, "trigger.mode: missing (want " + names(component.Trigger) + ")"},
		{"negative count", func(s *Strategy) { s.Trigger.Count = -1 }, "trigger.count: -1 is negative"},
		{"negative budget", func(s *Strategy) { s.Trigger.Budget = -5 }, "trigger.budget: -5 is negative"},
		{"bad counter", func(s *Strategy) { s.Trigger.Counter = "bytes/0" }, `trigger.counter: unknown counter "bytes/0" (want o200k_base|cl100k_base|bytes/N)`},
		// A typo of a counter's name is offered it; a family's pattern (bytes/N) is never offered.
		{"counter typo", func(s *Strategy) { s.Trigger.Counter = "o200k_bse" }, `trigger.counter: unknown counter "o200k_bse" (want o200k_base|cl100k_base|bytes/N); did you mean "o200k_base"?`},
		{"percent zero", func(s *Strategy) { s.Trigger = Trigger{Mode: TriggerPercent} }, "trigger.percent: 0 is outside (0,100]"},
		{"percent high", func(s *Strategy) { s.Trigger = Trigger{Mode: TriggerPercent, Percent: 120} }, "trigger.percent: 120 is outside (0,100]"},
		{"percent ok", func(s *Strategy) { s.Trigger = Trigger{Mode: TriggerPercent, Percent: 100} }, ""},
		{"categorical empty", func(s *Strategy) { s.Trigger.Categorical = true; s.AlwaysDefer = nil }, "trigger.categorical: true but always_defer is empty (nothing is categorical)"},
		{"unknown scope", func(s *Strategy) { s.Scope = "all" }, `scope: unknown value "all" (want mcp|always-defer-only)`},
		{"bad pattern", func(s *Strategy) { s.AlwaysDefer = []string{"br*wser"} }, `always_defer[0]: pattern "br*wser": "*" is allowed only at the end`},
		{"empty pattern", func(s *Strategy) { s.NeverDefer = []string{""} }, "never_defer[0]: empty pattern"},
		{"dup pattern", func(s *Strategy) { s.NeverDefer = []string{"a", "a"} }, `never_defer[1]: "a" listed twice`},
		{"both lists", func(s *Strategy) { s.NeverDefer = []string{"browser_*"} }, `never_defer[0]: "browser_*" is also in always_defer`},
		{"server pattern", func(s *Strategy) { s.NeverDefer = []string{"github:*"} }, ""},
		{"warm key", func(s *Strategy) { s.Warm.Key = "hash" }, `warm.key: unknown warm-key "hash" (want ` + names(component.Keying) + ")"},
		{"warm tools", func(s *Strategy) { s.Warm.MaxTools = -1 }, "warm.max_tools: -1 is negative"},
		{"warm tokens", func(s *Strategy) { s.Warm.MaxTokens = -1 }, "warm.max_tokens: -1 is negative"},
		{"eviction", func(s *Strategy) { s.Warm.Eviction = "fifo" }, `warm.eviction: unknown eviction "fifo" (want ` + names(component.Eviction) + ")"},
		{"disabled with cap", func(s *Strategy) { s.Warm.Disabled = true; s.Warm.MaxTools = 3 }, "warm.disabled: true but warm limits are set (a disabled warm set has no limits)"},
		{"warm counter", func(s *Strategy) { s.Warm.MaxTokens, s.Warm.Counter = 8000, "bytes/3.5" }, ""},
		{"bad warm counter", func(s *Strategy) { s.Warm.MaxTokens, s.Warm.Counter = 8000, "bytes/x" },
			`warm.counter: unknown counter "bytes/x" (want o200k_base|cl100k_base|bytes/N)`},
		{"warm counter without cap", func(s *Strategy) { s.Warm.Counter = "o200k_base" },
			"warm.counter: o200k_base but warm.max_tokens is not set (the counter counts nothing)"},
		{"cache layout", func(s *Strategy) { s.CacheLayout = "current-user" }, ""},
		{"unknown cache layout", func(s *Strategy) { s.CacheLayout = "first-message" },
			`cache_layout: unknown value "first-message" (want last-message|current-user)`},
		{"clear on change", func(s *Strategy) { s.Warm.Clear = "registry-change" }, ""},
		{"clear never", func(s *Strategy) { s.Warm.Clear = "never" }, ""},
		{"unknown clear", func(s *Strategy) { s.Warm.Clear = "sometimes" }, `warm.clear: unknown value "sometimes" (want never|registry-change)`},
		{"clear without warm set", func(s *Strategy) { s.Warm.Disabled = true; s.Warm.Clear = "registry-change" },
			"warm.clear: registry-change but warm.disabled is true (there is no warm set to clear)"},
		{"injection", func(s *Strategy) { s.Injection = "prepend" }, `injection: unknown injection "prepend" (want ` + names(component.Injection) + ")"},
		{"search mode", func(s *Strategy) { s.Search.Mode = "BM 25" }, `search.mode: "BM 25" is not a mode name (lower-case letters, digits, - and _)`},
		{"search k", func(s *Strategy) { s.Search.K = -2 }, "search.k: -2 is outside [1,10000]"},
		{"family no core", func(s *Strategy) { s.Search.Family = []string{"browser_*"} }, "search.family_core: empty but search.family is set"},
		{"family not prefix", func(s *Strategy) { s.Search.Family = []string{"browser"}; s.Search.FamilyCore = []string{"b"} }, `search.family[0]: "browser" is not a prefix family (end it with "*")`},
		{"core no family", func(s *Strategy) { s.Search.FamilyCore = []string{"b"} }, "search.family: empty but search.family_core is set"},
		{"retries", func(s *Strategy) { s.Search.KeywordRetries = -1 }, "search.keyword_retries: -1 is negative"},
		{"directory", func(s *Strategy) { s.Directory.Format = "tree" }, `directory.format: unknown directory "tree" (want ` + names(component.Directory) + ")"},
		{"desc chars", func(s *Strategy) { s.Directory.DescChars = -1 }, "directory.desc_chars: -1 is negative"},
		{"rejected", func(s *Strategy) { s.Rejected = "drop" }, `rejected: unknown value "drop" (want retry|execute)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := base(tt.mod).Validate()
			got := ""
			if err != nil {
				got = err.Error()
				var fe *FieldError
				if !errors.As(err, &fe) {
					t.Errorf("error %T is not a *FieldError", err)
				}
			}
			if got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestModelAndParamsValidate(t *testing.T) {
	model := func(f func(*Model)) Model {
		m := Model{
			Name: "m", ContextWindow: 200000,
			Pricing: Pricing{InputPerMTok: 3, OutputPerMTok: 15},
			Cache:   CacheConfig{Kind: "anthropic", TTLSeconds: 300, MinTokens: 1024, Breakpoints: 4, Lookback: 20, WriteMultiplier: 1.25, ReadMultiplier: 0.1},
			Latency: Latency{OverheadMs: 1000, PrefillTPS: 9500, CachedPrefillTPS: 71000, DecodeTPS: 60},
		}
		f(&m)
		return m
	}
	mt := []struct {
		name string
		mod  func(*Model)
		want string
	}{
		{"valid", func(*Model) {}, ""},
		{"no name", func(m *Model) { m.Name = "" }, "name: missing"},
		{"window", func(m *Model) { m.ContextWindow = 0 }, "context_window: 0: want a positive number of tokens"},
		{"price", func(m *Model) { m.Pricing.InputPerMTok = -1 }, "pricing.input_per_mtok: -1: want a finite number >= 0"},
		{"kind", func(m *Model) { m.Cache.Kind = "lru" }, `cache.kind: unknown cache "lru" (want ` + strings.Join(NewRegistry().Names(component.Cache), "|") + ")"},
		{"ttl", func(m *Model) { m.Cache.TTLSeconds = 0 }, "cache.ttl_s: 0: an anthropic cache needs a positive TTL"},
		{"breakpoints", func(m *Model) { m.Cache.Breakpoints = 0 }, "cache.breakpoints: 0: an anthropic cache needs at least one breakpoint"},
		{"layout", func(m *Model) { m.Cache.Layout = "current-user" }, ""},
		{"unknown layout", func(m *Model) { m.Cache.Layout = "middle" }, `cache.layout: unknown value "middle" (want last-message|current-user)`},
		{"openai step", func(m *Model) { m.Cache.Kind = "openai" }, "cache.step: 0: an openai cache needs a positive step"},
		{"none", func(m *Model) { m.Cache = CacheConfig{Kind: "none"} }, ""},
		{"prefill", func(m *Model) { m.Latency.PrefillTPS = 0 }, "latency.prefill_tps: 0: want a positive rate in tokens per second"},
		// The cached prefill rate is demanded only where a cache reads it.
		{"cached prefill", func(m *Model) { m.Latency.CachedPrefillTPS = 0 }, "latency.cached_prefill_tps: 0: want a positive rate in tokens per second"},
		{"none, no cached prefill", func(m *Model) { m.Cache = CacheConfig{Kind: "none"}; m.Latency.CachedPrefillTPS = 0 }, ""},
		{"none, negative cached prefill", func(m *Model) { m.Cache = CacheConfig{Kind: "none"}; m.Latency.CachedPrefillTPS = -1 },
			"latency.cached_prefill_tps: -1: want a positive rate in tokens per second"},
		{"jitter", func(m *Model) { m.Latency.JitterCV = -0.1 }, "latency.jitter_cv: -0.1: want a finite number >= 0"},
	}
	for _, tt := range mt {
		got := ""
		if err := model(tt.mod).Validate(); err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
	params := func(f func(*Params)) Params {
		p := Params{Tokenizer: "o200k_base", TokenScale: 1, MessageOverheadTokens: 4, SelectProb: 0.5}
		f(&p)
		return p
	}
	pt := []struct {
		name string
		mod  func(*Params)
		want string
	}{
		{"valid", func(*Params) {}, ""},
		{"tokenizer", func(p *Params) { p.Tokenizer = "gpt2" }, `tokenizer: unknown counter "gpt2" (want o200k_base|cl100k_base|bytes/N)`},
		{"overhead", func(p *Params) { p.ToolOverheadTokens = -1 }, "tool_overhead_tokens: -1 is negative"},
		{"ms", func(p *Params) { p.UserThinkMs = -1 }, "user_think_ms: -1: want a finite number >= 0"},
		{"prob", func(p *Params) { p.NudgeProb = 1.5 }, "nudge_prob: 1.5 is outside [0,1]"},
		// token_scale multiplies every count: 0 or less, or not finite, is refused.
		{"scale zero", func(p *Params) { p.TokenScale = 0 }, "token_scale: 0: want a positive factor (1: counts as the tokenizer gives them)"},
		{"scale negative", func(p *Params) { p.TokenScale = -1 }, "token_scale: -1: want a positive factor (1: counts as the tokenizer gives them)"},
		{"scale infinite", func(p *Params) { p.TokenScale = math.Inf(1) }, "token_scale: +Inf: want a positive factor (1: counts as the tokenizer gives them)"},
		{"scale above one", func(p *Params) { p.TokenScale = 1.3 }, ""},
	}
	for _, tt := range pt {
		got := ""
		if err := params(tt.mod).Validate(); err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

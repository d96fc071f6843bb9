package sim

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/defersim/defersim/component"
	"github.com/defersim/defersim/tokens"
	"github.com/defersim/defersim/traces"
)

// The hand-computed tests use a counter where one byte is one token, tools
// whose token counts are set directly, no framing overheads, and latency
// constants that make the arithmetic easy: 1000 ms overhead, 1 ms per
// uncached prompt token, 0.1 ms per cached token, 10 ms per output token.

func testModel() Model {
	return Model{Name: "test", ContextWindow: 10000,
		Pricing: Pricing{InputPerMTok: 3, OutputPerMTok: 15},
		Cache:   CacheConfig{Kind: "anthropic", TTLSeconds: 300, MinTokens: 0, Breakpoints: 4, Lookback: 20, WriteMultiplier: 1.25, ReadMultiplier: 0.1},
		Latency: Latency{OverheadMs: 1000, PrefillTPS: 1000, CachedPrefillTPS: 10000, DecodeTPS: 100}}
}

func testParams() Params {
	return Params{Tokenizer: "bytes/1", TokenScale: 1, SearchToolTokens: 50, BytesPerToken: 4}
}

type testTool struct {
	name   string
	tokens int64
	est    int64
}

// newTestEngine builds an engine over one server "s" holding tools, with
// the routing domains given (none when nil).
func newTestEngine(t *testing.T, strategies []Strategy, tools []testTool, domains ...Domains) *Engine {
	t.Helper()
	for i := range strategies {
		fillTestDefaults(&strategies[i])
	}
	e := &Engine{strategies: strategies, model: testModel(), params: testParams(), seed: 1,
		content: tokens.NewEstimator(1), raw: tokens.NewEstimator(1), rankers: &rankerCache{}, fidelity: -1}
	st := &serverTable{name: "s", version: "1"}
	est := map[string]int64{}
	e.tables = &toolTables{byKey: map[string]*serverTable{"s@1": st}, latest: map[string]*serverTable{"s": st},
		names: []string{"s"}, estBy: map[string]map[string]int64{"bytes/3.5": est}}
	for i, tt := range tools {
		fp := "fp-" + tt.name
		ti := &Tool{id: int32(i), ident: int32(i), name: tt.name, server: "s", fp: fp, h: hashString(fp), tokens: tt.tokens, schema: json.RawMessage(`{"type":"object"}`)}
		st.tools = append(st.tools, ti)
		e.tables.all = append(e.tables.all, ti)
		est[fp] = tt.est
	}
	e.computeFlags()
	reg := NewRegistry()
	if len(domains) > 0 {
		e.domains = domains[0]
	}
	for i := range strategies {
		p, err := reg.resolve(&strategies[i], "", e.domains)
		if err != nil {
			t.Fatal(err)
		}
		e.plans = append(e.plans, p)
	}
	cm, err := resolveAs[CacheModel](reg, component.Cache, "cache.kind", e.model.Cache.Kind)
	if err != nil {
		t.Fatal(err)
	}
	e.cache = cm
	return e
}

func fillTestDefaults(s *Strategy) {
	if s.Injection == "" {
		s.Injection = "tools-array"
	}
	if s.Search.Mode == "" {
		s.Search.Mode = "select"
	}
	if s.Directory.Format == "" {
		s.Directory.Format = "none"
	}
	if s.Warm.Key == "" {
		s.Warm.Key = "name"
	}
}

// need builders
func user(tok int64) Step { return Step{Kind: StepUser, PauseMs: -1, TextTokens: tok} }
func pause(ms float64, tok int64) Step {
	return Step{Kind: StepUser, PauseMs: ms, TextTokens: tok}
}
func call(tool string) Step {
	return Step{Kind: StepModel, Usage: &traces.Usage{Output: 5}, Calls: []Call{{Tool: tool, Args: json.RawMessage(`{}`), ResultTokens: 20, DurationMs: 0}}}
}
func reply() Step { return Step{Kind: StepModel, Usage: &traces.Usage{Output: 5}, TextTokens: 5} }

func approx(a, b float64) bool { return math.Abs(a-b) < 1e-9*math.Max(1, math.Abs(b)) }

type want map[int]float64

func check(t *testing.T, label string, got Outcome, w want) {
	t.Helper()
	for m, v := range w {
		if !approx(got.Values[m], v) {
			t.Errorf("%s: %s = %v, want %v", label, Metrics[m].Name, got.Values[m], v)
		}
	}
}

// TestLoadRebuildsToolsArrayButNotInline pins that a tools-array load makes
// the next request write the cache again, while an inline load keeps the
// cached prefix.
func TestLoadRebuildsToolsArrayButNotInline(t *testing.T) {
	always := Trigger{Mode: "always"}
	e := newTestEngine(t, []Strategy{
		{Name: "tools-array", Trigger: always, Injection: "tools-array"},
		{Name: "inline", Trigger: always, Injection: "inline"},
	}, []testTool{{"x", 100, 0}, {"y", 200, 0}, {"z", 300, 0}})
	n := &Need{SessionID: "s1", SystemTokens: 1000, Steps: []Step{user(10), call("y"), reply()}}
	out := e.ReplayNeed(n)
	// tools-array:
	//  r1 (search): [search 50][system 1000][user 10] = 1060, all written; output
	//     `{"query":"select:y"}` = 20; 1000 + 1060 + 200 = 2260 ms.
	//  r2: [search 50][y 200][system][user][call 20][result "y"+2 = 3] = 1283; only the
	//     50-token prefix before y survives: read 50, write 1233; 1000+1233+5+50 = 2288 ms.
	//  r3: + [assistant "y"+"{}" = 3][result 20] = 1306: read 1283, write 23;
	//     1000 + 23 + 128.3 + 50 = 1201.3 ms. First reply at 5749.3 ms.
	check(t, "tools-array", out[0], want{
		MUncachedTokens: 0, MCacheWriteTokens: 2316, MCacheReadTokens: 1333, MOutputTokens: 30,
		MInputTokens: 3649, MRequests: 3, MExtraRoundTrips: 1, MSearches: 1,
		MFirstReplyMs: 5749.3, MSessionMs: 5749.3,
		MCostUSD: ((2316*1.25+1333*0.1)*3 + 30*15) / 1e6,
	})
	// inline:
	//  r1 as above: write 1060, 2260 ms; the result carries y's schema (200 tokens).
	//  r2: [search][system][user][call 20][result 200] = 1280: read 1060, write 220;
	//     1000 + 220 + 106 + 50 = 1376 ms.
	//  r3: + [assistant 3][result 20] = 1303: read 1280, write 23; 1000+23+128+50 = 1201 ms.
	check(t, "inline", out[1], want{
		MCacheWriteTokens: 1303, MCacheReadTokens: 2340, MOutputTokens: 30, MRequests: 3,
		MExtraRoundTrips: 1, MFirstReplyMs: 4837, MSchemaTokens: 50*3 + 200 + 200,
	})
	if out[0].Values[MCacheWriteTokens] <= out[1].Values[MCacheWriteTokens] {
		t.Errorf("tools-array load should write more cache than inline: %v vs %v", out[0].Values[MCacheWriteTokens], out[1].Values[MCacheWriteTokens])
	}
}

// TestNeverDeferOpenerRemovesFirstReplyRoundTrip pins that keeping the
// session's opener tool direct removes the search before the first reply.
func TestNeverDeferOpenerRemovesFirstReplyRoundTrip(t *testing.T) {
	always := Trigger{Mode: "always"}
	e := newTestEngine(t, []Strategy{
		{Name: "defer-all", Trigger: always},
		{Name: "never-defer-opener", Trigger: always, NeverDefer: []string{"web_search"}},
	}, []testTool{{"web_search", 100, 0}, {"other", 200, 0}})
	n := &Need{SessionID: "s2", SystemTokens: 1000, Steps: []Step{user(10), call("web_search"), reply()}}
	out := e.ReplayNeed(n)
	// defer-all: r1 search (1060 written, output 29 = `{"query":"select:web_search"}`):
	// 1000+1060+290 = 2350; r2 read 50 write 1151: 1000+1151+5+50 = 2206;
	// r3 read 1201 write 32: 1000+32+120.1+50 = 1202.1. First reply 5758.1.
	check(t, "defer-all", out[0], want{MRequests: 3, MExtraRoundTrips: 1, MFirstReplyMs: 5758.1,
		MCacheWriteTokens: 1060 + 1151 + 32, MCacheReadTokens: 50 + 1201})
	// never-defer: r1 [search 50][web_search 100][system][user] = 1160 written:
	// 1000+1160+50 = 2210; r2 read 1160 write 32: 1000+32+116+50 = 1198. First reply 3408.
	check(t, "never-defer-opener", out[1], want{MRequests: 2, MExtraRoundTrips: 0, MSearches: 0, MFirstReplyMs: 3408,
		MCacheWriteTokens: 1160 + 32, MCacheReadTokens: 1160})
}

// TestCategoricalTrigger pins that a cold always-defer tool turns deferred
// mode on under budget-OR-categorical but not under the budget alone.
func TestCategoricalTrigger(t *testing.T) {
	budget := Trigger{Mode: "tokens", Budget: 8000}
	cat := Trigger{Mode: "tokens", Budget: 8000, Categorical: true}
	e := newTestEngine(t, []Strategy{
		{Name: "budget", Trigger: budget, AlwaysDefer: []string{"browser_*"}},
		{Name: "budget-or-categorical", Trigger: cat, AlwaysDefer: []string{"browser_*"}},
	}, []testTool{{"browser_click", 100, 30}, {"notes", 100, 30}})
	n := &Need{SessionID: "s3", SystemTokens: 1000, Steps: []Step{user(10), call("notes"), reply()}}
	out := e.ReplayNeed(n)
	check(t, "budget", out[0], want{MRequests: 2, MSearches: 0, MSchemaTokens: 2 * 200})
	check(t, "budget-or-categorical", out[1], want{MRequests: 3, MSearches: 1})
}

// TestCountAndBudgetDisagree pins that count > 30 and budget > 8000 make
// opposite calls on many small schemas and on few large ones.
func TestCountAndBudgetDisagree(t *testing.T) {
	mk := func() []Strategy {
		return []Strategy{{Name: "count30", Trigger: Trigger{Mode: "count", Count: 30}},
			{Name: "budget8k", Trigger: Trigger{Mode: "tokens", Budget: 8000}}}
	}
	var many []testTool
	for i := 0; i < 40; i++ {
		many = append(many, testTool{string(rune('a'+i/26)) + string(rune('a'+i%26)), 20, 10})
	}
	few := []testTool{{"aa", 5000, 5000}, {"ab", 5000, 5000}, {"ac", 5000, 5000}}
	for _, tc := range []struct {
		name           string
		tools          []testTool
		countSearches  float64
		budgetSearches float64
	}{
		{"many small schemas", many, 1, 0},
		{"few large schemas", few, 0, 1},
	} {
		e := newTestEngine(t, mk(), tc.tools)
		out := e.ReplayNeed(&Need{SessionID: "s4", SystemTokens: 100, Steps: []Step{user(10), call("ab"), reply()}})
		check(t, tc.name+"/count30", out[0], want{MSearches: tc.countSearches})
		check(t, tc.name+"/budget8k", out[1], want{MSearches: tc.budgetSearches})
	}
}

// TestWarmCapEvictsLeastRecentlyLoaded pins that a warm set capped at two
// schemas evicts the least recently loaded one, whose next call pays a search.
func TestWarmCapEvictsLeastRecentlyLoaded(t *testing.T) {
	always := Trigger{Mode: "always"}
	e := newTestEngine(t, []Strategy{
		{Name: "unbounded", Trigger: always},
		{Name: "cap2", Trigger: always, Warm: WarmSet{MaxTools: 2, Eviction: "lrl"}},
	}, []testTool{{"a", 100, 0}, {"b", 100, 0}, {"c", 100, 0}})
	steps := []Step{user(10), call("a"), call("b"), reply(), user(10), call("c"), reply(), user(10), call("b"), call("a"), reply()}
	out := e.ReplayNeed(&Need{SessionID: "s5", SystemTokens: 100, Steps: steps})
	// unbounded: a, b, c each loaded once. cap2: loading c evicts a (loaded
	// first); b is still warm; a must be searched again.
	check(t, "unbounded", out[0], want{MSearches: 3, MExtraRoundTrips: 3})
	check(t, "cap2", out[1], want{MSearches: 4, MExtraRoundTrips: 4})
}

// TestCacheTTLExpiresAcrossLongPause pins that a 5-minute TTL expires across
// a 400-second pause and survives a 100-second one.
func TestCacheTTLExpiresAcrossLongPause(t *testing.T) {
	e := newTestEngine(t, []Strategy{{Name: "eager", Trigger: Trigger{Mode: "never"}}}, []testTool{{"x", 100, 0}})
	for _, tc := range []struct {
		pauseMs     float64
		read, write float64
	}{
		// r1: [x 100][system 1000][user 10] written (1110). r2 adds [assistant 5][user 10].
		{100_000, 1110, 1110 + 15},
		{400_000, 0, 1110 + 1125},
	} {
		out := e.ReplayNeed(&Need{SessionID: "s6", SystemTokens: 1000, Steps: []Step{user(10), reply(), pause(tc.pauseMs, 10), reply()}})
		check(t, "pause", out[0], want{MCacheReadTokens: tc.read, MCacheWriteTokens: tc.write})
	}
}

// TestColdCallAssumption pins the cold-call assumption at its extremes: a
// model that always guesses is rejected (one wasted request, then the
// search) under rejected: retry, and runs without a schema under
// rejected: execute when every guess is well formed.
func TestColdCallAssumption(t *testing.T) {
	always := Trigger{Mode: "always"}
	e := newTestEngine(t, []Strategy{
		{Name: "retry", Trigger: always, Rejected: "retry"},
		{Name: "execute", Trigger: always, Rejected: "execute"},
	}, []testTool{{"a", 100, 0}, {"b", 100, 0}})
	e.params.ColdCallProb = 1
	e.params.ColdCallWellFormedProb = 1
	out := e.ReplayNeed(&Need{SessionID: "s7", SystemTokens: 100, Steps: []Step{user(10), call("a"), reply()}})
	check(t, "retry", out[0], want{MRequests: 4, MExtraRoundTrips: 2, MSearches: 1, MMalformedNoSchema: 1, MMalformedCalls: 1, MCallsWithoutSchema: 0})
	check(t, "execute", out[1], want{MRequests: 2, MExtraRoundTrips: 0, MSearches: 0, MMalformedCalls: 0, MCallsWithoutSchema: 1})
}

// TestCacheWarmStart pins the fleet warm-start assumption: with
// cache_warm_start 1 the first request reads the static prefix (tools and
// system prompt) instead of writing it.
func TestCacheWarmStart(t *testing.T) {
	e := newTestEngine(t, []Strategy{{Name: "eager", Trigger: Trigger{Mode: "never"}}}, []testTool{{"x", 100, 0}})
	n := func() *Need { return &Need{SessionID: "s9", SystemTokens: 1000, Steps: []Step{user(10), reply()}} }
	cold := e.ReplayNeed(n())
	check(t, "cold", cold[0], want{MCacheReadTokens: 0, MCacheWriteTokens: 1110})
	e.params.CacheWarmStart = 1
	warm := e.ReplayNeed(n())
	// [x 100][system 1000] is read; only the user message is written.
	check(t, "warm", warm[0], want{MCacheReadTokens: 1100, MCacheWriteTokens: 10, MFirstReplyMs: 1000 + 10 + 110 + 50})
}

// TestFamilyExpansion pins that loading one member of a family also loads
// the family core, so a later call to a core tool needs no search.
func TestFamilyExpansion(t *testing.T) {
	always := Trigger{Mode: "always"}
	e := newTestEngine(t, []Strategy{
		{Name: "plain", Trigger: always},
		{Name: "family", Trigger: always, Search: Search{Family: []string{"browser_*"}, FamilyCore: []string{"browser_click", "browser_type"}}},
	}, []testTool{{"browser_navigate", 100, 0}, {"browser_click", 100, 0}, {"browser_type", 100, 0}, {"notes", 100, 0}})
	steps := []Step{user(10), call("browser_navigate"), call("browser_click"), call("browser_type"), reply()}
	out := e.ReplayNeed(&Need{SessionID: "s10", SystemTokens: 100, Steps: steps})
	check(t, "plain", out[0], want{MSearches: 3})
	check(t, "family", out[1], want{MSearches: 1})
}

// TestLRUEviction pins that lru eviction keeps a recently used schema that
// lrl (least recently loaded) would evict.
func TestLRUEviction(t *testing.T) {
	always := Trigger{Mode: "always"}
	e := newTestEngine(t, []Strategy{
		{Name: "lrl", Trigger: always, Warm: WarmSet{MaxTools: 2, Eviction: "lrl"}},
		{Name: "lru", Trigger: always, Warm: WarmSet{MaxTools: 2, Eviction: "lru"}},
	}, []testTool{{"a", 100, 0}, {"b", 100, 0}, {"c", 100, 0}})
	// a, b loaded; a used again; c loaded: lrl evicts a (loaded first), lru
	// evicts b (used least recently); then a is called.
	steps := []Step{user(10), call("a"), call("b"), call("a"), call("c"), call("a"), reply()}
	out := e.ReplayNeed(&Need{SessionID: "s11", SystemTokens: 100, Steps: steps})
	check(t, "lrl", out[0], want{MSearches: 4})
	check(t, "lru", out[1], want{MSearches: 3})
}

// TestLoadingLayers pins the transport and discovery layers: eager
// connection delays the first request by the slowest server's connect and
// list; lazy transport with a cached catalog pays the connection at the
// first call; lazy discovery needs a tool_search, whose execution connects
// and lists the server.
func TestLoadingLayers(t *testing.T) {
	never := Trigger{Mode: "never"}
	e := newTestEngine(t, []Strategy{
		{Name: "eager", Trigger: never},
		{Name: "lazy-cached", Trigger: never, Transport: "lazy", Discovery: "cached"},
		{Name: "lazy-lazy", Trigger: never, Transport: "lazy", Discovery: "lazy"},
	}, []testTool{{"x", 100, 0}})
	e.tables.latest["s"].timings = serverTimings{connectMs: 300, listMs: 20}
	out := e.ReplayNeed(&Need{SessionID: "s12", SystemTokens: 1000, Steps: []Step{user(10), call("x"), reply()}})
	// eager: +320 ms before r1 ([x 100][system][user] = 1110 written: 1000+1110+50 = 2160);
	// r2 reads 1110, writes [assistant "x"+"{}" = 3][result 20]: 1000+23+111+50 = 1184.
	check(t, "eager", out[0], want{MFirstReplyConnectMs: 320, MFirstReplyListMs: 0, MSearches: 0, MConnectMs: 320,
		MFirstReplyMs: 320 + 2160 + 1184})
	// lazy-cached: same requests, the 300 ms connection is paid when x is first called.
	check(t, "lazy-cached", out[1], want{MFirstReplyConnectMs: 300, MFirstReplyListMs: 0, MSearches: 0,
		MFirstReplyMs: 2160 + 300 + 1184})
	// lazy-lazy: x is unknown until s is listed: a search round trip, whose
	// execution connects (300) and lists (20).
	check(t, "lazy-lazy", out[2], want{MFirstReplyConnectMs: 300, MFirstReplyListMs: 20, MSearches: 1, MExtraRoundTrips: 1})
	if out[2].Values[MFirstReplySearchMs] <= 0 {
		t.Errorf("lazy-lazy: first_reply_search_ms = %v, want > 0", out[2].Values[MFirstReplySearchMs])
	}
}

// fakeDomains puts tools starting with "fs_" in domain "files" and the
// rest in "web".
type fakeDomains struct{}

func (fakeDomains) DomainOf(server, tool string) string {
	if len(tool) > 3 && tool[:3] == "fs_" {
		return "files"
	}
	return "web"
}
func (fakeDomains) DirectoryText(tools [][2]string) string {
	return "# files: read and write files\n# web: browse and search\n" // 2 lines, 30 + 25 = 55 bytes
}
func (fakeDomains) ActivationNotice(domain string) string { return "domain " + domain + " active" }

// TestDomainDirectoryAndNotice pins that the by-domain directory and the
// domain activation notice reach the prompt and are counted.
func TestDomainDirectoryAndNotice(t *testing.T) {
	always := Trigger{Mode: "always"}
	e := newTestEngine(t, []Strategy{
		{Name: "plain", Trigger: always, Directory: Directory{Format: "none"}},
		{Name: "domains", Trigger: always, Directory: Directory{Format: "by-domain", Notice: true}},
	}, []testTool{{"fs_read", 100, 0}, {"fs_write", 100, 0}, {"web_get", 100, 0}}, fakeDomains{})
	out := e.ReplayNeed(&Need{SessionID: "s13", SystemTokens: 100, Steps: []Step{user(10), call("fs_read"), call("fs_write"), reply()}})
	// The directory (55 bytes = 55 tokens with the byte counter) is in every
	// request of "domains": 4 requests (2 searches + 2 calls ... + reply).
	plain, dom := out[0].Values, out[1].Values
	if got, want := dom[MSchemaTokens]-plain[MSchemaTokens], 55*dom[MRequests]; got != want {
		t.Errorf("directory schema tokens = %v, want %v (55 per request)", got, want)
	}
	// One notice ("domain files active" = 19 tokens), for the first files tool only.
	if dom[MInputTokens] <= plain[MInputTokens] {
		t.Errorf("domain directory and notice should add prompt tokens: %v vs %v", dom[MInputTokens], plain[MInputTokens])
	}
}

func TestAppendSearchCall(t *testing.T) {
	for _, q := range []string{
		"", "read file", "select:fs_read,fs_write", `say "hi"`, `back\slash`, "a<b>&c",
		"tab\there", "line\nbreak", "\x00\x1f\x7f", "naïve café", "東京", "\u2028\u2029",
		"bad \xff utf-8", "~!@#$%^*()_+`-=[]{}|;':,./?",
	} {
		want := `{"query":` + jsonQuote(q) + `}`
		if got := string(appendSearchCall([]byte("x"), []byte(q))); got != "x"+want {
			t.Errorf("appendSearchCall(%q) = %s, want x%s", q, got, want)
		}
	}
}

// jsonQuote is how search calls were quoted before appendSearchCall.
func jsonQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestCallOnServerNotServingItIsLeftOut pins that a call naming a server
// that does not serve its tool is unresolved in the replay as in the
// resolution count (docs/engine.md §9): it is left out of every search and
// load. The replay used to fall back to the same-named tool of another
// server, so under --allow-unresolved a call counted as an unknown tool
// (or unknown server) was replayed as that other server's tool.
func TestCallOnServerNotServingItIsLeftOut(t *testing.T) {
	e := newTestEngine(t, []Strategy{{Name: "defer-all", Trigger: Trigger{Mode: "always"}}},
		[]testTool{{"x", 100, 0}, {"y", 200, 0}})
	on := func(server, tool string) Step {
		s := call(tool)
		s.Calls[0].Server = server
		return s
	}
	for _, tc := range []struct {
		name     string
		step     Step
		searches float64
	}{
		{"its server", on("s", "y"), 1},
		{"no server: by name", on("", "y"), 1},
		{"a server not serving it", on("other", "y"), 0},
		{"a tool no server serves", on("", "nope"), 0},
	} {
		n := &Need{SessionID: "s", SystemTokens: 1000, Steps: []Step{user(10), tc.step, reply()}}
		check(t, tc.name, e.ReplayNeed(n)[0], want{MSearches: tc.searches, MExtraRoundTrips: tc.searches})
	}
}

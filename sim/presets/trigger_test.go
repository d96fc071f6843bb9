package presets

import (
	"fmt"
	"strings"
	"testing"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/traces"
)

// TestAnchorE7TriggerIsAnyColdDeferredTool pins E7's trigger (REFERENCE §1:
// deferred mode "when any cold deferred tool exists", kept by E9): once the
// session has loaded every deferred tool, the next request carries neither
// tool_search (search_tool_tokens = 87) nor a directory, where "always"
// keeps them. Before that the two rules send the same requests.
func TestAnchorE7TriggerIsAnyColdDeferredTool(t *testing.T) {
	cat := testCatalog(t, testServer{"s", "1", []string{
		`{"name":"alpha","description":"First tool.","inputSchema":{"type":"object","properties":{"x":{"type":"string"}}}}`,
		`{"name":"beta","description":"Second tool.","inputSchema":{"type":"object","properties":{"y":{"type":"string"}}}}`,
	}})
	for _, era := range []string{"anchor-e7-per-tool", "anchor-e9-warm-capped"} {
		t.Run(era, func(t *testing.T) {
			anyCold := mustStrategy(t, era)
			if anyCold.Trigger.Mode != sim.TriggerAnyCold {
				t.Fatalf("trigger %q, want %s", anyCold.Trigger.Mode, sim.TriggerAnyCold)
			}
			// Exact loads and no directory: the only block deferred mode adds
			// is the tool_search definition.
			anyCold.Search, anyCold.Directory = sim.Search{Mode: "select"}, sim.Directory{Format: "none"}
			always := anyCold
			always.Name, always.Trigger = "always", sim.Trigger{Mode: sim.TriggerAlways}
			e := testEngine(t, cat, []sim.Strategy{anyCold, always}, nil)
			servers := []traces.ServerRef{{Name: "s", Version: "1"}}
			out := e.ReplayNeed(need(servers, userSay("use both"), callTool("s", "alpha", `{}`), callTool("s", "beta", `{}`), answer()))
			a, b := out[0].PerRequest, out[1].PerRequest
			// Requests: search alpha, call alpha, search beta (beta still
			// cold), then call beta and answer with both loaded. The prompt
			// stays under the 1,024-token cache minimum: every token uncached.
			if len(a) != 5 || len(b) != 5 {
				t.Fatalf("%d and %d requests, want 5", len(a), len(b))
			}
			for i := range 3 {
				if a[i] != b[i] {
					t.Errorf("request %d differs while a deferred tool is cold:\n any-cold %+v\n always   %+v", i, a[i], b[i])
				}
			}
			for i := 3; i < 5; i++ {
				if d := b[i].Input - a[i].Input; d != searchToolTokens || a[i].CacheRead+b[i].CacheRead != 0 {
					t.Errorf("request %d: always sends %d more tokens than any-cold, want %d (the tool_search definition)", i, d, searchToolTokens)
				}
			}
			// A session that leaves beta cold keeps deferred mode on: identical.
			out = e.ReplayNeed(need(servers, userSay("only alpha"), callTool("s", "alpha", `{}`), answer()))
			if out[0].Values != out[1].Values {
				t.Error("with a tool still cold, any-cold and always differ")
			}
		})
	}
}

// paddedTool returns an MCP tool named name whose OpenAI function form
// ({"type":"function","function":{"name","description","parameters"}}) is
// exactly size bytes, its description padded with "a".
func paddedTool(t *testing.T, name string, size int) string {
	t.Helper()
	raw := func(desc string) string {
		return fmt.Sprintf(`{"name":%q,"description":%q,"inputSchema":{"type":"object"}}`, name, desc)
	}
	tl, err := catalog.NewTool([]byte(raw("")))
	if err != nil {
		t.Fatal(err)
	}
	out := raw(strings.Repeat("a", size-len(tl.WireOpenAI)))
	if tl, err = catalog.NewTool([]byte(out)); err != nil || len(tl.WireOpenAI) != size {
		t.Fatalf("padded tool: %d bytes, %v", len(tl.WireOpenAI), err)
	}
	return out
}

// TestPercentTriggerCountsWithItsCounter pins that the percent-of-context
// trigger (Claude Code's auto:N, REFERENCE §2: deferrable definitions ≥ N%
// of the context window, N = 10 by default) counts with trigger.counter.
// Claude Sonnet 4.5's window is 200,000 tokens, so auto:10 turns on at
// 20,000. Ten deferrable tools of 7,000 bytes each are 10 × 7,000 / 3.5 =
// 20,000 bytes/3.5 tokens: on. One of them at 6,996 bytes is ⌈1,998.9⌉ =
// 1,999, 19,999 in all: off — though a never-deferred 7,000-byte tool
// brings the registry to 21,999 (only deferrable tools count). The same
// texts in o200k_base (runs of "a", about 8 bytes a token) are far below
// 20,000: off.
func TestPercentTriggerCountsWithItsCounter(t *testing.T) {
	m, err := Model("claude-sonnet-4.5")
	if err != nil {
		t.Fatal(err)
	}
	if m.ContextWindow != 200000 {
		t.Fatalf("context window %d, the test's arithmetic assumes 200,000", m.ContextWindow)
	}
	build := func(lastSize int) *catalog.Catalog {
		var tools []string
		for i := range 10 {
			size := 7000
			if i == 9 {
				size = lastSize
			}
			tools = append(tools, paddedTool(t, fmt.Sprintf("tool_%02d", i), size))
		}
		tools = append(tools, paddedTool(t, "opener", 7000))
		return testCatalog(t, testServer{"s", "1", tools})
	}
	auto := mustStrategy(t, "claude-code-auto10")
	if auto.Trigger.Mode != sim.TriggerPercent || auto.Trigger.Percent != 10 || auto.Trigger.Counter != "o200k_base" {
		t.Fatalf("claude-code-auto10 trigger %+v", auto.Trigger)
	}
	auto.Search = sim.Search{Mode: "select"}
	auto.NeverDefer = []string{"opener"}
	est := auto
	est.Name, est.Trigger.Counter = "auto10-bytes", "bytes/3.5"
	servers := []traces.ServerRef{{Name: "s", Version: "1"}}
	n := need(servers, userSay("go"), callTool("s", "tool_00", `{}`), answer())
	for _, tc := range []struct {
		lastSize       int
		estOn, o200kOn bool
	}{{7000, true, false}, {6996, false, false}} {
		out := testEngine(t, build(tc.lastSize), []sim.Strategy{auto, est}, nil).ReplayNeed(n)
		for i, on := range []bool{tc.o200kOn, tc.estOn} {
			if got := out[i].Values[sim.MSearches] > 0; got != on {
				t.Errorf("last tool %d bytes, counter %s: deferred mode %v, want %v", tc.lastSize, []string{"o200k_base", "bytes/3.5"}[i], got, on)
			}
		}
	}
}

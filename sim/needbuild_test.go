package sim_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/scenarios"
	defaultdata "github.com/defersim/defersim/scenarios/default"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/traces"
)

// TestNeedBuilderMatchesExtractNeed pins that building a need event by
// event, as run reads traces (issue 18: one session's memory bounded),
// gives ExtractNeed's need of the whole session, RunNeeds' compact form of
// it the compact form of that need, and its resolution against the
// catalogs Engine.Resolve's: on every session of the
// embedded default traces and on sessions made to reach every rule of the
// extraction (implicit steps, canned text, search round trips, calls out
// of order, steps dropped across blocks, placeholder times).
func TestNeedBuilderMatchesExtractNeed(t *testing.T) {
	eng, cfg := defaultEngine(t)
	n := 0
	for s, err := range runner.Sessions(cfg) {
		if err != nil {
			t.Fatal(err)
		}
		if err := sim.CheckNeedBuilder(eng, s); err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n == 0 {
		t.Fatal("no default session")
	}
	for name, lines := range builderCases() {
		t.Run(name, func(t *testing.T) {
			ss, _, err := readLines(t, lines)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range ss {
				if err := sim.CheckNeedBuilder(eng, s); err != nil {
					t.Error(err)
				}
			}
		})
	}
}

// defaultEngine is the engine of the embedded default scenario.
func defaultEngine(t *testing.T) (*sim.Engine, runner.Config) {
	t.Helper()
	sc, err := scenarios.Default()
	if err != nil {
		t.Fatal(err)
	}
	return scenarioEngine(t, sc)
}

// scenarioEngine is the engine of scenario sc and its configuration.
func scenarioEngine(t *testing.T, sc *scenarios.Scenario) (*sim.Engine, runner.Config) {
	t.Helper()
	cfg, err := runner.FromScenario(sc, runner.Overrides{}, defaultdata.FS())
	if err != nil {
		t.Fatal(err)
	}
	eng, err := runner.Engine(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return eng, cfg
}

func readLines(t *testing.T, lines []string) ([]*traces.Session, traces.Counts, error) {
	t.Helper()
	r, err := traces.NewReader(strings.NewReader(strings.Join(lines, "\n")+"\n"), "case.jsonl", traces.ReadOptions{})
	if err != nil {
		return nil, traces.Counts{}, err
	}
	var out []*traces.Session
	for s, err := range r.Sessions() {
		if err != nil {
			return out, r.Counts(), err
		}
		out = append(out, s)
	}
	return out, r.Counts(), nil
}

func builderCases() map[string][]string {
	calls := 0
	ev := func(typ, rest string) string {
		if typ == "tool_call" {
			calls++
			rest += fmt.Sprintf(`,"call_id":"c%d"`, calls)
		}
		return fmt.Sprintf(`{"type":%q,"session":"s","t":"2026-01-01T00:00:%02dZ"%s}`, typ, calls%60, rest)
	}
	start := `{"v":1,"type":"session_start","session":"s","t":"2026-01-01T00:00:00Z","model":"m","system_prompt":"sys","servers":[{"name":"a","version":"1"}]}`
	end := ev("session_end", "")
	cases := map[string][]string{
		"implicit steps": {start, ev("user", `,"text":"hi"`), ev("assistant", `,"text":"a"`),
			ev("tool_call", `,"tool":"t","server":"a","args":{"x":1}`), ev("assistant", `,"text":"b"`),
			ev("tool_call", `,"tool":"t","server":"a","args":{"x":1}`), end},
		"canned then requests": {start, ev("assistant", `,"text":"welcome"`), ev("user", `,"text":"hi"`),
			ev("model_request", `,"id":"r1","usage":{"input":5,"output":1}`), ev("assistant", `,"text":"x","request":"r1"`), end},
		"search round trips": {start, ev("user", `,"text":"hi"`), ev("model_request", `,"id":"r1"`),
			ev("tool_search", `,"request":"r1","query":"q","returned":["t"]`), ev("model_request", `,"id":"r2"`),
			ev("tool_call", `,"request":"r2","tool":"tool_search","server":"rt","args":{"query":"q2"}`),
			ev("model_request", `,"id":"r3"`), ev("tool_call", `,"request":"r3","tool":"u","server":"a","status":"rejected"`),
			ev("model_request", `,"id":"r4"`), ev("tool_call", `,"request":"r4","tool":"t","server":"a","result":"ok"`), end},
		"calls out of order": {start, ev("user", `,"text":"hi"`), ev("model_request", `,"id":"r1"`),
			ev("model_request", `,"id":"r2"`), ev("tool_call", `,"request":"r2","tool":"t","server":"a"`),
			ev("tool_call", `,"request":"r1","tool":"u","server":"a"`), ev("assistant", `,"request":"r1","text":"late"`),
			ev("catalog_change", `,"server":"a","version":"2"`), end},
		"placeholder times": {`{"v":1,"type":"session_start","session":"s","t":"2026-01-01T00:00:00Z","meta":{"timing":"synthetic"}}`,
			ev("user", `,"text":"a"`), ev("model_request", `,"id":"r1","duration_ms":5`), ev("user", `,"text":"b"`), end},
		"calls after a search without results": {start, ev("user", `,"text":"hi"`), ev("model_request", `,"id":"r1"`),
			ev("tool_call", `,"request":"r1","tool":"search_tools","server":"rt","args":{"pattern":"cal"}`),
			ev("model_request", `,"id":"r2"`), ev("tool_call", `,"request":"r2","tool":"u","server":"a"`),
			ev("tool_search", `,"request":"r2","query":"q"`), ev("tool_call", `,"request":"r2","tool":"v","server":"a"`),
			ev("user", `,"text":"next"`), ev("model_request", `,"id":"r3"`), ev("tool_call", `,"request":"r3","tool":"w","server":"a"`), end},
		"no steps":          {start, end},
		"only search steps": {start, ev("model_request", `,"id":"r1"`), ev("tool_search", `,"request":"r1","query":"q"`), end},
	}
	// Many steps, some dropped, so that steps move down across blocks.
	long := []string{start}
	for i := range 10000 {
		long = append(long, ev("user", fmt.Sprintf(`,"text":"u%d"`, i%7)), ev("model_request", fmt.Sprintf(`,"id":"r%d"`, i)))
		if i%3 == 0 {
			long = append(long, ev("tool_search", fmt.Sprintf(`,"request":"r%d","query":"q"`, i)))
		} else {
			long = append(long, ev("tool_call", fmt.Sprintf(`,"request":"r%d","tool":"t","server":"a","args":{"i":%d}`, i, i%2)))
		}
	}
	cases["long, steps dropped across blocks"] = append(long, end)
	return cases
}

// TestNeedBuilderReusesMemory pins the recycling of builders' memory
// (needmem.go): once RunNeeds has made a need compact, the next builder
// of the engine starts from that memory, and every need built from
// recycled memory, after sessions of every shape in turn (calls in and
// out of order, searches, long sessions whose memory is not kept), still
// equals ExtractNeed's.
func TestNeedBuilderReusesMemory(t *testing.T) {
	eng, _ := defaultEngine(t)
	cases := builderCases()
	names := slices.Sorted(maps.Keys(cases))
	for round := range 2 {
		for _, name := range names {
			ss, _, err := readLines(t, cases[name])
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range ss {
				if err := sim.CheckNeedBuilder(eng, s); err != nil {
					t.Fatalf("round %d, %s: %v", round, name, err)
				}
			}
			// A session with steps left leaves its memory, unless it grew long.
			if free := eng.FreeNeedMem(); free != 1 && !strings.HasPrefix(name, "long") && !strings.HasPrefix(name, "no") &&
				!strings.HasPrefix(name, "only") {
				t.Fatalf("round %d, after %s: %d memories free, want 1", round, name, free)
			}
		}
	}
}

// TestNeedBuilderIsRecycled pins the recycling of the NeedBuilder struct
// itself (needmem.go): once a session's need is compact, the next
// session's builder is the same struct, holding nothing of the previous
// session (a new builder's state, its kept memory cleared), and the needs
// it builds are ExtractNeed's whatever session came before.
func TestNeedBuilderIsRecycled(t *testing.T) {
	eng, _ := defaultEngine(t)
	cases := builderCases()
	names := slices.Sorted(maps.Keys(cases))
	recycled := 0
	for _, name := range names {
		ss, _, err := readLines(t, cases[name])
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range ss {
			reused, err := sim.CheckNeedBuilderRecycled(eng, s, "next")
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if reused {
				recycled++
			}
			// The recycled builder builds the next session's need exactly.
			for _, other := range names {
				if strings.HasPrefix(other, "long") {
					continue // slow, and no different for this
				}
				os, _, err := readLines(t, cases[other])
				if err != nil {
					t.Fatal(err)
				}
				if err := sim.CheckNeedBuilder(eng, os[0]); err != nil {
					t.Fatalf("after %s, %s: %v", name, other, err)
				}
			}
		}
	}
	if recycled == 0 {
		t.Fatal("no builder was recycled: the test does not exercise the recycling")
	}
	t.Logf("%d of %d cases recycled their builder", recycled, len(names))
}

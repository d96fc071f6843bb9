package presets

import (
	"encoding/json"
	"testing"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/search"
	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/validation"
)

// The replay tests of this package build small catalogs in memory, replay
// hand-written needs under presets, and compare the outcomes with what the
// runtime's dated rule (REFERENCE, docs/presets.md) says.

// testServer is one server version: its tools as MCP tool objects.
type testServer struct {
	name, version string
	tools         []string
}

func testCatalog(t *testing.T, servers ...testServer) *catalog.Catalog {
	t.Helper()
	var out []*catalog.Server
	for _, s := range servers {
		var tools []*catalog.Tool
		for _, raw := range s.tools {
			tl, err := catalog.NewTool([]byte(raw))
			if err != nil {
				t.Fatalf("%s@%s: %v", s.name, s.version, err)
			}
			tools = append(tools, tl)
		}
		srv, err := catalog.NewServer(s.name, s.version, "", tools)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, srv)
	}
	return catalog.New(out...)
}

// testEngine builds an engine over cat with the default parameters (params
// may change them), the claude-sonnet-4.5 model preset, the search modes
// of sim/search and the schema validator.
func testEngine(t *testing.T, cat *catalog.Catalog, strategies []sim.Strategy, params func(*sim.Params)) *sim.Engine {
	t.Helper()
	m, err := Model("claude-sonnet-4.5")
	if err != nil {
		t.Fatal(err)
	}
	p := DefaultParams()
	if params != nil {
		params(&p)
	}
	reg := sim.NewRegistry()
	if err := search.Register(reg); err != nil {
		t.Fatal(err)
	}
	for i := range strategies {
		strategies[i].Normalize()
		if err := reg.ValidateStrategy(strategies[i]); err != nil {
			t.Fatalf("strategy %s: %v", strategies[i].Name, err)
		}
	}
	e, err := sim.NewEngine(sim.Config{Strategies: strategies, Model: m, Params: p, Catalog: cat, Seed: 1,
		Registry: reg, Validator: validation.New()})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// Need steps.
func userSay(text string) sim.Step { return sim.Step{Kind: sim.StepUser, PauseMs: 1000, Text: text} }

func callTool(server, tool, args string) sim.Step {
	return sim.Step{Kind: sim.StepModel, Usage: &traces.Usage{Output: 20},
		Calls: []sim.Call{{Tool: tool, Server: server, Args: json.RawMessage(args), DurationMs: 100, ResultTokens: 30}}}
}

func answer() sim.Step {
	return sim.Step{Kind: sim.StepModel, Usage: &traces.Usage{Output: 20}, Text: "done"}
}

func upgrade(server, version string) sim.Step {
	return sim.Step{Kind: sim.StepCatalogChange, Server: server, Version: version}
}

func need(servers []traces.ServerRef, steps ...sim.Step) *sim.Need {
	return &sim.Need{SessionID: "s1", Servers: servers, Steps: steps, SystemText: "You are a helpful agent."}
}

// metricsOf returns the named metrics of an outcome.
func metricsOf(o sim.Outcome, names ...string) map[string]float64 {
	out := map[string]float64{}
	for _, n := range names {
		out[n] = o.Values[sim.MetricIndex(n)]
	}
	return out
}

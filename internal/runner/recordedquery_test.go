package runner

import (
	"testing"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/component"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
	"github.com/defersim/defersim/traces"
)

// TestRecordedQueriesEveryRanker pins docs/engine.md §3: a search the trace
// recorded is replayed with its recorded query under every registered
// ranked search mode, whatever query model the mode or params.query_model
// names (issue 15); recorded_query_searches counts it.
func TestRecordedQueriesEveryRanker(t *testing.T) {
	reg, err := DefaultRegistry()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := catalog.Parse([]byte(`{"tools":[
		{"name":"get_weather","description":"Current weather for a city","inputSchema":{"type":"object"}},
		{"name":"book_flight","description":"Book a flight","inputSchema":{"type":"object"}},
		{"name":"list_files","description":"List files in a folder","inputSchema":{"type":"object"}}]}`), "s", "1", "")
	if err != nil {
		t.Fatal(err)
	}
	var strategies []sim.Strategy
	for _, in := range reg.Components() {
		if in.Kind != component.Ranker || in.Name == "select" {
			continue
		}
		strategies = append(strategies, sim.Strategy{Name: in.Name, Trigger: sim.Trigger{Mode: sim.TriggerAlways},
			Search: sim.Search{Mode: in.Name, K: 1}})
	}
	session := &traces.Session{ID: "q", Events: []traces.Event{
		{Type: traces.SessionStart, StartFields: &traces.StartFields{Servers: []traces.ServerRef{{Name: "s", Version: "1"}}}},
		{Type: traces.UserMessage, Text: "what should I pack"},
		{Type: traces.ToolSearch, ChangeFields: &traces.ChangeFields{Query: "weather forecast", Returned: []string{"get_weather"}}},
		{Type: traces.ToolCall, Tool: "get_weather", Server: "s", Args: []byte(`{}`)},
		{Type: traces.ToolCall, Tool: "list_files", Server: "s", Args: []byte(`{}`)},
	}}
	for _, qm := range []string{"auto", "name-words"} {
		params := presets.DefaultParams()
		params.QueryModel = qm
		model, _ := presets.Model("claude-sonnet-4.5")
		eng, err := sim.NewEngine(sim.Config{Strategies: strategies, Model: model, Params: params,
			Catalog: catalog.New(srv), Registry: reg})
		if err != nil {
			t.Fatal(err)
		}
		out := eng.ReplayNeed(sim.ExtractNeed(session))
		for si, s := range strategies {
			v := out[si].Values
			// get_weather is searched with the recorded query, list_files
			// with the query model's.
			if v[sim.MRecordedQuerySearches] != 1 || v[sim.MSearches] < 2 {
				t.Errorf("query model %s, mode %s: %v searches, %v with a recorded query; want at least 2, and 1",
					qm, s.Name, v[sim.MSearches], v[sim.MRecordedQuerySearches])
			}
		}
	}
}

package sim

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/traces"
)

// TestResolveSession pins how a session's inputs resolve against the
// catalogs (issue 15): each class of call, recorded search results,
// catalog changes to missing versions, and a session naming no server.
func TestResolveSession(t *testing.T) {
	parse := func(name, version, tools string) *catalog.Server {
		s, err := catalog.Parse([]byte(`{"tools":[`+tools+`]}`), name, version, "")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	cat := catalog.New(
		parse("a", "1", `{"name":"x"},{"name":"approx","_meta":{"defersim/schema":"approximate"}},{"name":"stub","_meta":{"defersim/schema":"missing"}}`),
		parse("a", "2", `{"name":"x"},{"name":"y"}`),
		parse("b", "1", `{"name":"z"}`),
	)
	e, err := NewEngine(Config{Strategies: []Strategy{{Name: "eager", Trigger: Trigger{Mode: TriggerNever}}},
		Model: testModel(), Params: testParams(), Catalog: cat})
	if err != nil {
		t.Fatal(err)
	}
	call := func(server, tool string) traces.Event {
		return traces.Event{Type: traces.ToolCall, Server: server, Tool: tool}
	}
	sessions := []*traces.Session{
		{ID: "s1", Events: []traces.Event{
			{Type: traces.SessionStart, Servers: []traces.ServerRef{{Name: "a", Version: "1"}, {Name: "nowhere"}}},
			call("a", "x"), call("a", "approx"), call("a", "stub"), call("a", "y"), // y: not at version 1
			call("nowhere", "q"), call("", "z"), // z: b is not offered
			{Type: traces.ToolSearch, Query: "q", Returned: []string{"x", "zz"}},
			call("a", "tool_search"), // the recorder's own search: not replayed
			{Type: traces.ToolCall, Server: "a", Tool: "x", Status: traces.StatusRejected}, // nor a rejected call
			{Type: traces.CatalogChange, Server: "a", Version: "9"},                        // no such version: a moves to its latest
			call("a", "y"),
			{Type: traces.CatalogChange, Server: "a", Version: "2"},
			call("a", "y"),
		}},
		{ID: "s2", Events: []traces.Event{{Type: traces.SessionStart}, call("b", "z"), call("a", "y")}},
	}
	var r Resolution
	for _, s := range sessions {
		e.Resolve(s, &r)
	}
	tools := r.Tools
	r.Tools = nil
	want := Resolution{Calls: 10, Resolved: 4, SchemaApproximate: 1, SchemaMissing: 1, UnknownTool: 2, UnknownServer: 1,
		VersionMissing: 1, SearchResults: 2, SearchResultsUnknown: 1, CatalogChanges: 2, CatalogChangesMissing: 1,
		Sessions: 2, SessionsWithoutServers: 1}
	if d := cmp.Diff(want, r); d != "" {
		t.Errorf("resolution (-want +got):\n%s", d)
	}
	wantTools := map[ToolClass]int64{
		{"a", "approx", ClassSchemaApproximate}: 1, {"a", "stub", ClassSchemaMissing}: 1,
		{"a", "y", ClassUnknownTool}: 1, {"", "z", ClassUnknownTool}: 1,
		{"nowhere", "q", ClassUnknownServer}: 1, {"a", "y", ClassVersionMissing}: 1,
	}
	if d := cmp.Diff(wantTools, tools); d != "" {
		t.Errorf("tools (-want +got):\n%s", d)
	}
	if got := r.Unresolved(); got != 4 {
		t.Errorf("unresolved = %d, want 4", got)
	}
}

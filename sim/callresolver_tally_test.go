package sim

import (
	"reflect"
	"testing"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/tokens"
	"github.com/defersim/defersim/traces"
)

// TestCallResolverCountsAsARun pins that the Resolution a CallResolver
// tallies (what `trace validate` predicts a run's stop from) is the one a
// run's resolution counts over the same sessions and catalog
// (Engine.Resolve), with the server versions each session replays as the
// replay counts them (sessionVersions of its need): validate had no counts
// of its own, and said nothing of the share a run stops on, nor of the
// catalog versions no session would replay.
func TestCallResolverCountsAsARun(t *testing.T) {
	parse := func(server, version, tools string) *catalog.Server {
		s, err := catalog.Parse([]byte(`{"tools":[`+tools+`]}`), server, version, "")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	cat := catalog.New(parse("web", "1.0", `{"name":"search"},{"name":"fetch"}`), parse("web", "2.0", `{"name":"search"}`),
		parse("kb", "1.0", `{"name":"lookup"}`))
	start := func(id string, servers ...traces.ServerRef) traces.Event {
		return traces.Event{Type: traces.SessionStart, Session: id, StartFields: &traces.StartFields{Servers: servers}}
	}
	call := func(id, server, tool string, status string) traces.Event {
		return traces.Event{Type: traces.ToolCall, Session: id, Server: server, Tool: tool, Status: status}
	}
	sessions := []*traces.Session{
		{ID: "a", Events: []traces.Event{start("a", traces.ServerRef{Name: "web", Version: "1.0"}),
			call("a", "web", "fetch", traces.StatusOK), call("a", "web", "nope", traces.StatusOK), call("a", "web", "nope", traces.StatusRejected),
			{Type: traces.CatalogChange, Session: "a", Server: "web", ChangeFields: &traces.ChangeFields{Version: "3.0"}},
			call("a", "web", "search", traces.StatusOK), {Type: traces.SessionEnd, Session: "a"}}},
		{ID: "b", Events: []traces.Event{start("b", traces.ServerRef{Name: "ghost"}, traces.ServerRef{Name: "kb"}),
			call("b", "ghost", "x", traces.StatusOK), call("b", "", "lookup", traces.StatusOK),
			{Type: traces.ToolSearch, Session: "b", ChangeFields: &traces.ChangeFields{Returned: []string{"lookup", "fetch"}}},
			{Type: traces.SessionEnd, Session: "b"}}},
		{ID: "c", Events: []traces.Event{start("c"), call("c", "web", "fetch", traces.StatusOK), {Type: traces.SessionEnd, Session: "c"}}},
	}
	e := &Engine{tables: buildToolTables(cat, tokens.NewEstimator(0), nil, 0, nil)}
	var want Resolution
	r := NewCallResolver(cat)
	for _, s := range sessions {
		e.Resolve(s, &want)
		want.addVersionsReplayed(e.sessionVersions(compactNeed(ExtractNeed(s)), nil))
		sr := r.Session()
		for i := range s.Events {
			sr.Event(&s.Events[i], i+1, nil)
		}
	}
	got := r.Resolution()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the resolver tallied\n%+v\na run counts\n%+v", got, want)
	}
	if want.Unresolved() == 0 || want.SessionsMissingServers == 0 || want.Sessions != 3 || len(want.VersionsReplayed) != 3 {
		t.Errorf("the sessions do not exercise the counts: %+v", want)
	}
}

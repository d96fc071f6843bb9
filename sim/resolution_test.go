package sim

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/traces"
)

// TestResolveSession pins how a session's inputs resolve against the
// catalogs (issue 15): each class of call, recorded search results,
// catalog changes to missing versions, a session naming no server, and the
// sessions counted by the model their session_start records.
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
			{Type: traces.SessionStart, StartFields: &traces.StartFields{Model: "m", Servers: []traces.ServerRef{{Name: "a", Version: "1"}, {Name: "nowhere"}}}},
			call("a", "x"), call("a", "approx"), call("a", "stub"), call("a", "y"), // y: not at version 1
			call("nowhere", "q"), call("", "z"), // z: b is not offered
			{Type: traces.ToolSearch, ChangeFields: &traces.ChangeFields{Query: "q", Returned: []string{"x", "zz"}}},
			call("a", "tool_search"), // the recorder's own search: not replayed
			{Type: traces.ToolCall, Server: "a", Tool: "x", Status: traces.StatusRejected},              // nor a rejected call
			{Type: traces.CatalogChange, Server: "a", ChangeFields: &traces.ChangeFields{Version: "9"}}, // no such version: a moves to its latest
			call("a", "y"),
			{Type: traces.CatalogChange, Server: "a", ChangeFields: &traces.ChangeFields{Version: "2"}},
			call("a", "y"),
		}},
		{ID: "s2", Events: []traces.Event{{Type: traces.SessionStart}, call("b", "z"), call("a", "y")}},
	}
	var r Resolution
	for _, s := range sessions {
		e.Resolve(s, &r)
	}
	tools, versions, servers := r.Tools, r.MissingVersions, r.MissingServers
	r.Tools, r.MissingVersions, r.MissingServers = nil, nil, nil
	want := Resolution{Calls: 10, Resolved: 4, SchemaApproximate: 1, SchemaMissing: 1, UnknownTool: 2, UnknownServer: 1,
		VersionMissing: 1, SearchResults: 2, SearchResultsUnknown: 1, CatalogChanges: 2, CatalogChangesMissing: 1,
		Sessions: 2, SessionsWithoutServers: 1, SessionsMissingServers: 1, Models: RecordedModels{Names: []ModelCount{{Model: "", Sessions: 1}, {Model: "m", Sessions: 1}}}}
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
	// The version-missing call is filed by the version its session asked
	// for: the catalog change to "9".
	if d := cmp.Diff(map[ServerVersion]int64{{"a", "9"}: 1}, versions); d != "" {
		t.Errorf("missing versions (-want +got):\n%s", d)
	}
	// s1 names "nowhere", which no catalog holds, and moves a to "9".
	if d := cmp.Diff(map[ServerVersion]int64{{"nowhere", ""}: 1, {"a", "9"}: 1}, servers); d != "" {
		t.Errorf("missing servers (-want +got):\n%s", d)
	}
	if got := r.Unresolved(); got != 4 {
		t.Errorf("unresolved = %d, want 4", got)
	}
}

// TestResolveAmbiguousCalls pins that a call naming no server, whose tool
// name two or more servers of its session serve, is counted as ambiguous
// (Resolution.Ambiguous, by tool and servers) with the server it resolves
// to, the first in registry order (local servers first, then by name),
// where before it resolved to one of them silently; calls naming their
// server, and names one server serves, are not counted.
func TestResolveAmbiguousCalls(t *testing.T) {
	parse := func(name, tools string) *catalog.Server {
		s, err := catalog.Parse([]byte(`[`+tools+`]`), name, "1", "")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	cat := catalog.New(
		parse("fs", `{"name":"read"},{"name":"write"}`),
		parse("desk", `{"name":"read"},{"name":"exec"}`),
		parse("zeta", `{"name":"read"}`),
	)
	call := func(server, tool string) traces.Event {
		return traces.Event{Type: traces.ToolCall, Server: server, Tool: tool}
	}
	start := func(servers ...string) traces.Event {
		ev := traces.Event{Type: traces.SessionStart}
		for _, s := range servers {
			ev.EnsureStart().Servers = append(ev.Servers(), traces.ServerRef{Name: s, Version: "1"})
		}
		return ev
	}
	tests := []struct {
		name   string
		local  []string
		events []traces.Event
		want   map[Ambiguity]int64
	}{
		{name: "named server", events: []traces.Event{start("fs", "desk"), call("fs", "read"), call("desk", "read")}},
		{name: "name one server serves", events: []traces.Event{start("fs", "desk"), call("", "write"), call("", "exec")}},
		{name: "shared name, one server offered", events: []traces.Event{start("fs"), call("", "read")}},
		{name: "same server listed twice", events: []traces.Event{start("fs", "fs"), call("", "read")}},
		{name: "shared name: by server name", events: []traces.Event{start("fs", "desk"), call("", "read"), call("", "read")},
			want: map[Ambiguity]int64{{"read", "desk\x00fs"}: 2}},
		{name: "local server first", local: []string{"fs"}, events: []traces.Event{start("fs", "desk"), call("", "read")},
			want: map[Ambiguity]int64{{"read", "fs\x00desk"}: 1}},
		{name: "session without servers", events: []traces.Event{{Type: traces.SessionStart}, call("", "read")},
			want: map[Ambiguity]int64{{"read", "desk\x00fs\x00zeta"}: 1}},
		{name: "server added by a catalog change", events: []traces.Event{start("fs"), call("", "read"),
			{Type: traces.CatalogChange, Server: "zeta", ChangeFields: &traces.ChangeFields{Version: "1"}}, call("", "read")},
			want: map[Ambiguity]int64{{"read", "fs\x00zeta"}: 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, err := NewEngine(Config{Strategies: []Strategy{{Name: "eager", Trigger: Trigger{Mode: TriggerNever}}},
				Model: testModel(), Params: testParams(), Catalog: cat, LocalServers: tc.local})
			if err != nil {
				t.Fatal(err)
			}
			var r Resolution
			e.Resolve(&traces.Session{ID: "s", Events: tc.events}, &r)
			var n int64
			for _, v := range tc.want {
				n += v
			}
			if r.Ambiguous != n || r.Resolved != r.Calls {
				t.Errorf("ambiguous %d of %d calls (%d resolved), want %d of all resolved", r.Ambiguous, r.Calls, r.Resolved, n)
			}
			if d := cmp.Diff(tc.want, r.Ambiguities, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("ambiguities (-want +got):\n%s", d)
			}
			// The replay resolves such a call by byName, which must be the
			// server counted as chosen.
			rs := sessionResolver{}
			var scratch Resolution
			for i := range tc.events {
				e.resolveEvent(&rs, &tc.events[i], &scratch)
			}
			for _, a := range r.TopAmbiguous(5) {
				if a.Chosen != a.Servers[0] || rs.set.byName[a.Tool].server != a.Chosen {
					t.Errorf("chosen %s, servers %v; the replay resolves to %s", a.Chosen, a.Servers, rs.set.byName[a.Tool].server)
				}
			}
			var m Resolution // merging twice doubles the counts
			m.Merge(&r)
			m.Merge(&r)
			if m.Ambiguous != 2*r.Ambiguous || len(m.Ambiguities) != len(r.Ambiguities) {
				t.Errorf("merged: %d ambiguous, %d entries", m.Ambiguous, len(m.Ambiguities))
			}
		})
	}
}

// TestResolveCountsUnorderedLatest pins that sessions which leave the replay
// to take the latest version of a server whose versions are content hashes
// are counted (the latest is only the last by spelling): one naming the
// server without a version, one naming no server. Naming a version, or a
// server whose versions are releases, is not counted.
func TestResolveCountsUnorderedLatest(t *testing.T) {
	parse := func(name, version string) *catalog.Server {
		s, err := catalog.Parse([]byte(`{"tools":[{"name":"x"}]}`), name, version, "")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	start := func(refs ...traces.ServerRef) *traces.Session {
		return &traces.Session{ID: "s", Events: []traces.Event{{Type: traces.SessionStart, StartFields: &traces.StartFields{Servers: refs}}}}
	}
	for _, tc := range []struct {
		name     string
		cat      *catalog.Catalog
		sessions []*traces.Session
		want     int64
	}{
		{"hashes", catalog.New(parse("h", "0aaa0000aaaa"), parse("h", "ffff0000ffff"), parse("r", "1.0")), []*traces.Session{
			start(traces.ServerRef{Name: "h", Version: "0aaa0000aaaa"}),
			start(traces.ServerRef{Name: "h"}),
			start(),
			start(traces.ServerRef{Name: "r"}),
		}, 2},
		{"releases", catalog.New(parse("r", "1.0"), parse("r", "1.1")), []*traces.Session{
			start(traces.ServerRef{Name: "r"}), start(),
		}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := NewEngine(Config{Strategies: []Strategy{{Name: "eager", Trigger: Trigger{Mode: TriggerNever}}},
				Model: testModel(), Params: testParams(), Catalog: tc.cat})
			if err != nil {
				t.Fatal(err)
			}
			var r Resolution
			for _, s := range tc.sessions {
				e.Resolve(s, &r)
			}
			if r.UnorderedLatest != tc.want {
				t.Errorf("UnorderedLatest = %d, want %d", r.UnorderedLatest, tc.want)
			}
		})
	}
}

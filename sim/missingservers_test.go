package sim

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/traces"
)

// TestResolveCountsSessionsNamingMissingServers pins that a session whose
// session_start or catalog_change names a server no catalog holds, or a
// version of one no catalog holds, is counted (once, and once per server
// version) whether or not a call on the server follows: before, a
// session listing a server no catalog holds resolved as clean, and its
// figures, without that server's tools, read as exact.
func TestResolveCountsSessionsNamingMissingServers(t *testing.T) {
	parse := func(name, version string) *catalog.Server {
		s, err := catalog.Parse([]byte(`{"tools":[{"name":"x"}]}`), name, version, "")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	cat := catalog.New(parse("web", "1.0"), parse("web", "2.0"), parse("kb", "1.0"))
	start := func(refs ...traces.ServerRef) traces.Event {
		return traces.Event{Type: traces.SessionStart, StartFields: &traces.StartFields{Servers: refs}}
	}
	change := func(server, version string) traces.Event {
		return traces.Event{Type: traces.CatalogChange, Server: server, ChangeFields: &traces.ChangeFields{Version: version}}
	}
	web1 := traces.ServerRef{Name: "web", Version: "1.0"}
	tests := []struct {
		name     string
		events   []traces.Event
		sessions int64
		want     map[ServerVersion]int64
	}{
		{"clean", []traces.Event{start(web1), change("web", "2.0")}, 0, nil},
		{"clean, no version named", []traces.Event{start(traces.ServerRef{Name: "web"})}, 0, nil},
		{"unknown server, no call on it", []traces.Event{start(traces.ServerRef{Name: "ghost", Version: "1.0.0"}, web1)},
			1, map[ServerVersion]int64{{"ghost", "1.0.0"}: 1}},
		{"unknown server without a version", []traces.Event{start(traces.ServerRef{Name: "ghost"})},
			1, map[ServerVersion]int64{{"ghost", ""}: 1}},
		{"known server at a missing version, no call on it", []traces.Event{start(traces.ServerRef{Name: "web", Version: "9.9"})},
			1, map[ServerVersion]int64{{"web", "9.9"}: 1}},
		{"catalog change to a missing version, no later call", []traces.Event{start(web1), change("web", "9.9")},
			1, map[ServerVersion]int64{{"web", "9.9"}: 1}},
		{"catalog change to an unknown server", []traces.Event{start(web1), change("ghost", "2")},
			1, map[ServerVersion]int64{{"ghost", "2"}: 1}},
		{"named twice: the session counts once per server version", []traces.Event{
			start(traces.ServerRef{Name: "ghost", Version: "1"}, traces.ServerRef{Name: "kb", Version: "7"}),
			change("ghost", "1"), change("kb", "1.0"), change("kb", "7")},
			1, map[ServerVersion]int64{{"ghost", "1"}: 1, {"kb", "7"}: 1}},
	}
	e, err := NewEngine(Config{Strategies: []Strategy{{Name: "eager", Trigger: Trigger{Mode: TriggerNever}}},
		Model: testModel(), Params: testParams(), Catalog: cat})
	if err != nil {
		t.Fatal(err)
	}
	var all Resolution
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var r Resolution
			s := &traces.Session{ID: "s", Events: tc.events}
			e.Resolve(s, &r)
			if r.SessionsMissingServers != tc.sessions {
				t.Errorf("SessionsMissingServers = %d, want %d", r.SessionsMissingServers, tc.sessions)
			}
			if d := cmp.Diff(tc.want, r.MissingServers, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("missing servers (-want +got):\n%s", d)
			}
			// A run that reads the session as it goes (NeedBuilder) counts
			// the same.
			nb := e.newNeedBuilder("s")
			for i := range tc.events {
				nb.Add(&tc.events[i], i+1)
			}
			if nb.resol.SessionsMissingServers != tc.sessions || !cmp.Equal(tc.want, nb.resol.MissingServers, cmpopts.EquateEmpty()) {
				t.Errorf("need builder: %d sessions, %v", nb.resol.SessionsMissingServers, nb.resol.MissingServers)
			}
			all.Merge(&r)
		})
	}
	// Merged, the sessions add up per server version.
	want := map[ServerVersion]int64{{"ghost", "1.0.0"}: 1, {"ghost", ""}: 1, {"web", "9.9"}: 2, {"ghost", "2"}: 1, {"ghost", "1"}: 1, {"kb", "7"}: 1}
	if all.SessionsMissingServers != 6 || !cmp.Equal(want, all.MissingServers) {
		t.Errorf("merged: %d sessions, %v", all.SessionsMissingServers, all.MissingServers)
	}
	if top := all.TopMissingServers(1); !cmp.Equal(top, []ServerSessions{{Server: "web", Version: "9.9", Sessions: 2}}) {
		t.Errorf("TopMissingServers(1) = %+v, want web 9.9 (2 sessions)", top)
	}
}

// TestMissingServersBoundedExact pins that the sessions counted by server
// version keep the MaxResolutionTools smallest keys, exactly, whatever
// order the parts of a run merge in, and count the rest beyond.
func TestMissingServersBoundedExact(t *testing.T) {
	n := MaxResolutionTools + 10
	var a, b, whole Resolution
	for i := range n {
		k := ServerVersion{Server: "s", Version: string(rune('a'+i%26)) + string(rune(0x100+i))}
		part := &a
		if i%3 == 0 {
			part = &b
		}
		part.addMissingServer(k, 2)
		whole.addMissingServer(k, 2)
	}
	for _, order := range [][2]*Resolution{{&a, &b}, {&b, &a}} {
		var m Resolution
		m.Merge(order[0])
		m.Merge(order[1])
		if d := cmp.Diff(whole.MissingServers, m.MissingServers); d != "" || m.MissingServersBeyond != whole.MissingServersBeyond {
			t.Errorf("merged differs from whole (beyond %d, %d):\n%s", m.MissingServersBeyond, whole.MissingServersBeyond, d)
		}
	}
	if len(whole.MissingServers) != MaxResolutionTools || whole.MissingServersBeyond != 20 {
		t.Errorf("%d keys kept, %d beyond; want %d, 20", len(whole.MissingServers), whole.MissingServersBeyond, MaxResolutionTools)
	}
}

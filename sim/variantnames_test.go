package sim

import (
	"slices"
	"testing"

	"github.com/defersim/defersim/traces"
)

// TestVariantNamesRead pins how a session's server references are read:
// a variant in the version names its series, and a call naming the bare
// server then calls that series, unless the session also names the bare
// series or two of its variants (the bare name is then the bare series);
// an event naming nothing to rewrite is returned as it is, and the
// trace's event is never changed.
func TestVariantNamesRead(t *testing.T) {
	start := func(refs ...traces.ServerRef) traces.Event {
		return traces.Event{Type: traces.SessionStart, StartFields: &traces.StartFields{Servers: refs}}
	}
	call := func(server string) traces.Event {
		return traces.Event{Type: traces.ToolCall, Server: server, Tool: "t"}
	}
	change := func(server, version string) traces.Event {
		return traces.Event{Type: traces.CatalogChange, Server: server, ChangeFields: &traces.ChangeFields{Version: version}}
	}
	ref := func(name, version string) traces.ServerRef { return traces.ServerRef{Name: name, Version: version} }
	for _, tc := range []struct {
		name   string
		events []traces.Event
		want   []traces.Event // as read
	}{
		{"variant in the version", []traces.Event{start(ref("p", "1.0+caps"), ref("q", "2")), call("p"), call("q"), change("p", "1.1+caps"), call("p")},
			[]traces.Event{start(ref("p+caps", "1.0"), ref("q", "2")), call("p+caps"), call("q"), change("p+caps", "1.1"), call("p+caps")}},
		{"series key", []traces.Event{start(ref("p+caps", "1.0")), call("p+caps"), call("p")},
			[]traces.Event{start(ref("p+caps", "1.0")), call("p+caps"), call("p")}},
		{"bare series named first", []traces.Event{start(ref("p", "1.0"), ref("p", "1.0+caps")), call("p"), call("p+caps")},
			[]traces.Event{start(ref("p", "1.0"), ref("p+caps", "1.0")), call("p"), call("p+caps")}},
		{"bare series named after", []traces.Event{start(ref("p", "1.0+caps"), ref("p", "1.0")), call("p")},
			[]traces.Event{start(ref("p+caps", "1.0"), ref("p", "1.0")), call("p")}},
		{"two variants", []traces.Event{start(ref("p", "1.0+a"), ref("p", "1.0+b")), call("p")},
			[]traces.Event{start(ref("p+a", "1.0"), ref("p+b", "1.0")), call("p")}},
		{"bare series joins by a change", []traces.Event{start(ref("p", "1.0+caps")), call("p"), change("p", "1.1"), call("p")},
			[]traces.Event{start(ref("p+caps", "1.0")), call("p+caps"), change("p", "1.1"), call("p")}},
		{"a new session forgets", []traces.Event{start(ref("p", "1.0+caps")), start(ref("q", "1")), call("p")},
			[]traces.Event{start(ref("p+caps", "1.0")), start(ref("q", "1")), call("p")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var v variantNames
			for i := range tc.events {
				ev := &tc.events[i]
				// The event's fields before the read, by value (a copy of an
				// Event shares its StartFields and ChangeFields).
				beforeServer, beforeVersion := ev.Server, ev.Version()
				servers := append([]traces.ServerRef(nil), ev.Servers()...)
				got := v.read(ev)
				w := &tc.want[i]
				if got.Server != w.Server || got.Version() != w.Version() || !slices.Equal(got.Servers(), w.Servers()) {
					t.Errorf("event %d read as server %q version %q servers %v; want %q %q %v", i, got.Server, got.Version(), got.Servers(), w.Server, w.Version(), w.Servers())
				}
				if ev.Server != beforeServer || ev.Version() != beforeVersion || !slices.Equal(ev.Servers(), servers) {
					t.Errorf("event %d: the trace's event was changed", i)
				}
				if unchanged := beforeServer == w.Server && beforeVersion == w.Version() && slices.Equal(servers, w.Servers()); unchanged && got != ev {
					t.Errorf("event %d: copied although nothing was rewritten", i)
				}
			}
		})
	}
}

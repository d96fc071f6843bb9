package sim

import (
	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/traces"
)

// variantNames reads one session's server references as the catalogs key
// them. A session_start server or a catalog_change whose version carries a
// launch variant ("p" at "0.0.45+caps") names the variant's series ("p+caps"
// at "0.0.45", catalog.SeriesRef). A tool call naming the bare server ("p")
// then names that series, unless the session also names the bare series
// "p" (at a plain version) or two variants of it: the bare name is then the
// bare series, and a call on a variant must name its series key. The zero
// value is ready; reset starts a session.
type variantNames struct {
	// alias maps a bare server name the session names with a variant
	// version to the variant's series key ("": two variants, ambiguous).
	alias map[string]string
	// bare holds the bare names the session also names at a plain version.
	bare map[string]bool
}

// reset forgets the previous session's names.
func (v *variantNames) reset() {
	clear(v.alias)
	clear(v.bare)
}

// ref reads a server reference: the series key and plain version it
// names, noting a variant named by its version for the calls that follow.
func (v *variantNames) ref(server, version string) (string, string) {
	key, plain := catalog.SeriesRef(server, version)
	if key == server {
		return key, plain
	}
	if v.alias == nil {
		v.alias = map[string]string{}
	}
	if old, ok := v.alias[server]; ok && old != key {
		key = "" // two variants: a bare call names neither
	}
	v.alias[server] = key
	return catalog.SeriesRef(server, version)
}

// named notes that the session names the bare series server at a plain
// version.
func (v *variantNames) named(server string) {
	if v.bare == nil {
		v.bare = map[string]bool{}
	}
	v.bare[server] = true
}

// server returns the series a tool call naming server calls.
func (v *variantNames) server(server string) string {
	if len(v.alias) == 0 || v.bare[server] {
		return server
	}
	if key := v.alias[server]; key != "" {
		return key
	}
	return server
}

// read returns ev with its server references read as series keys (ev
// itself when it names no variant by its version nor a bare name that
// stands for one; a copy otherwise: the trace's event is not changed).
func (v *variantNames) read(ev *traces.Event) *traces.Event {
	switch ev.Type {
	case traces.SessionStart:
		v.reset()
		var out []traces.ServerRef
		servers := ev.Servers()
		for i, r := range servers {
			name, version := v.ref(r.Name, r.Version)
			if out == nil && (name != r.Name || version != r.Version) {
				out = append(make([]traces.ServerRef, 0, len(servers)), servers[:i]...)
			}
			if out != nil {
				out = append(out, traces.ServerRef{Name: name, Version: version})
			}
		}
		if out == nil {
			return ev
		}
		for _, r := range servers {
			if _, ok := v.alias[r.Name]; ok && !catalog.HasVariant(r.Version) {
				v.named(r.Name)
			}
		}
		c := *ev
		start := *ev.StartFields // the copy gets its own fields: the trace's event is not changed
		start.Servers = out
		c.StartFields = &start
		return &c
	case traces.CatalogChange:
		name, version := v.ref(ev.Server, ev.Version())
		if name == ev.Server && version == ev.Version() {
			v.named(ev.Server)
			return ev
		}
		c := *ev
		change := *c.EnsureChange() // the copy gets its own fields: the trace's event is not changed
		change.Version = version
		c.Server, c.ChangeFields = name, &change
		return &c
	case traces.ToolCall:
		if name := v.server(ev.Server); name != ev.Server {
			c := *ev
			c.Server = name
			return &c
		}
	}
	return ev
}

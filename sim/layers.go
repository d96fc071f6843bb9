package sim

import "encoding/json"

// Loading a tool has three layers that a strategy can each defer:
// transport (is the server connected?), discovery (has its tools/list been
// fetched?) and context (is the schema in the prompt?). Context is what the
// rest of the engine models; this file holds the first two.
//
// Strategy.Transport: "eager" (default) connects every server of the
// session when the session starts, in parallel (the slowest connection
// delays the first request); "lazy" connects a server at the first call of
// one of its tools, or when its tools are first listed.
//
// Strategy.Discovery: "eager" (default) lists every server's tools when it
// connects; "cached" knows the tools from a catalog kept from an earlier
// session (no list call, whatever the transport); "lazy" lists a server's
// tools only when the model first needs one: until then its tools are
// neither in tools[] nor in the directory (which shows the server's name),
// so a call needs a tool_search, whose execution pays the connection and
// the list.
//
// A server that a catalog change adds to a started session comes up as the
// servers present at the start did (bringUp): under discovery eager it is
// connected and listed at the change, and its tools are offered by the
// strategy's rules like the others' (direct under the never trigger).

// serverTimings are a server's connection and tools/list times (ms), from
// its catalog metadata when captured, else -1.
type serverTimings struct {
	connectMs, listMs float64
}

// timingsFromMeta reads the handshake timings of a catalog's .meta.json:
// the mcpsnap form (timings_ms.initialize.median, timings_ms.tools_list
// .median, start → tools/list) or the capture form of the shared catalogs
// (initialize_ms).
func timingsFromMeta(raw json.RawMessage) serverTimings {
	t := serverTimings{connectMs: -1, listMs: -1}
	if len(raw) == 0 {
		return t
	}
	var m struct {
		InitializeMs *float64 `json:"initialize_ms"`
		Timings      *struct {
			Initialize struct {
				Median *float64 `json:"median"`
			} `json:"initialize"`
			ListAfterInitialize struct {
				Median *float64 `json:"median"`
			} `json:"list_after_initialize"`
		} `json:"timings_ms"`
	}
	if json.Unmarshal(raw, &m) != nil {
		return t
	}
	if m.Timings != nil {
		if v := m.Timings.Initialize.Median; v != nil && *v >= 0 {
			t.connectMs = *v
		}
		if v := m.Timings.ListAfterInitialize.Median; v != nil && *v >= 0 {
			t.listMs = *v
		}
	}
	if t.connectMs < 0 && m.InitializeMs != nil && *m.InitializeMs >= 0 {
		t.connectMs = *m.InitializeMs
	}
	return t
}

func (e *Engine) connectMs(t *serverTable) float64 {
	if t.timings.connectMs >= 0 {
		return t.timings.connectMs
	}
	return e.params.ConnectMs
}

func (e *Engine) listMs(t *serverTable) float64 {
	if t.timings.listMs >= 0 {
		return t.timings.listMs
	}
	return e.params.ListMs
}

// TimingDefaults counts the server versions of the engine's catalogs
// (versions) and, among them, those whose metadata records no connection
// time (connect) and no tools/list time (list): params.connect_ms and
// params.list_ms stand in for them.
func (e *Engine) TimingDefaults() (connect, list, versions int) {
	for _, t := range e.tables.byKey {
		versions++
		if t.timings.connectMs < 0 {
			connect++
		}
		if t.timings.listMs < 0 {
			list++
		}
	}
	return connect, list, versions
}

// startSession pays the eager layers when the session's first user message
// arrives: connections in parallel (the slowest decides), and the lists
// that go with them.
func (r *replayer) startSession() {
	var worst float64
	for _, t := range r.st.tables {
		worst = max(worst, r.bringUp(t))
	}
	r.addLayer(layerConnect, worst)
	r.registryChanged()
	if pr := r.e.params.CacheWarmStart; pr > 0 && r.rng.Float64() < pr {
		// Another session of the fleet wrote the static prefix (tools,
		// system prompt, directory) within the TTL.
		prompt, _ := r.buildPrompt()
		r.st.cache.Seed(r.st.clock, prompt)
	}
}

// bringUp applies the eager layers to one server of the session, as the
// session's start does, and returns the time they take: transport eager
// (or discovery eager, which needs a connection) connects it, discovery
// eager lists it on connect, cached knows its tools without a list call;
// under discovery lazy it stays unlisted. A server a catalog change adds
// after the start comes up the same way (addServer).
func (r *replayer) bringUp(t *serverTable) float64 {
	p, st := r.p, &r.st
	var d float64
	if !p.lazyConnect || p.discovery == discoverEager {
		st.servers.mark(t.srv, srvConnected)
		d = r.e.connectMs(t)
		if p.discovery == discoverEager {
			d += r.e.listMs(t)
		}
	}
	if p.discovery != discoverLazy {
		st.servers.mark(t.srv, srvListed)
	}
	return d
}

// addServer brings up a server a catalog change adds to a started
// session: its connection and list, if the strategy makes them eager,
// delay the next request. Before the start, startSession brings it up
// with the others.
func (r *replayer) addServer(t *serverTable) {
	if r.st.started {
		r.addLayer(layerConnect, r.bringUp(t))
	}
}

// relist pays, with probability relist_prob, the tools/list a client
// makes when a server it has listed changes version (on
// notifications/tools/list_changed): only after the start (the start
// lists the version then in force) and only for a server listed by a list
// call (discovery cached makes none). The list time of the new version
// delays the next request. t is the new version's table.
func (r *replayer) relist(t *serverTable) {
	pr := r.e.params.RelistProb
	if pr <= 0 || !r.st.started || !r.st.servers.has(t.srv, srvListed) || r.p.discovery == discoverCached {
		return
	}
	if r.rng.Float64() < pr {
		r.addLayer(layerList, r.e.listMs(t))
	}
}

// ensureConnected pays a lazy connection before ti's server is used.
func (r *replayer) ensureConnected(ti *Tool) {
	if r.st.servers.has(ti.srv, srvConnected) {
		return
	}
	r.st.servers.mark(ti.srv, srvConnected)
	if t := r.table(ti.srv); t != nil {
		r.addLayer(layerConnect, r.e.connectMs(t))
	}
}

// ensureListed pays a lazy tools/list of ti's server (and its connection).
func (r *replayer) ensureListed(ti *Tool) {
	if r.st.servers.has(ti.srv, srvListed) {
		return
	}
	r.ensureConnected(ti)
	r.st.servers.mark(ti.srv, srvListed)
	if t := r.table(ti.srv); t != nil {
		r.addLayer(layerList, r.e.listMs(t))
	}
	r.registryChanged()
}

// table is the registry's table of the server of index srv (nil: none).
func (r *replayer) table(srv int32) *serverTable {
	for _, t := range r.st.tables {
		if t.srv == srv {
			return t
		}
	}
	return nil
}

// Layers whose time is accounted separately.
const (
	layerConnect = iota
	layerList
	layerSearch
	numLayers
)

// addLayer advances the clock by ms spent in a loading layer.
func (r *replayer) addLayer(layer int, ms float64) {
	if ms <= 0 {
		return
	}
	r.st.clock += ms
	r.st.layerMs[layer] += ms
}

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

// startSession pays the eager layers when the session's first user message
// arrives: connections in parallel (the slowest decides), and the lists
// that go with them.
func (r *replayer) startSession() {
	s := r.s
	var worst float64
	for _, t := range r.tables {
		var d float64
		if s.Transport != "lazy" {
			r.connected[t.name] = true
			d += r.e.connectMs(t)
			if s.Discovery == "" || s.Discovery == "eager" {
				d += r.e.listMs(t)
			}
		}
		if s.Discovery != "lazy" && (s.Transport != "lazy" || s.Discovery == "cached") {
			r.listed[t.name] = true
		}
		worst = max(worst, d)
	}
	if s.Transport == "lazy" && s.Discovery == "eager" {
		// Eager discovery needs a connection: list every server at start.
		for _, t := range r.tables {
			r.connected[t.name] = true
			r.listed[t.name] = true
			worst = max(worst, r.e.connectMs(t)+r.e.listMs(t))
		}
	}
	r.addLayer(layerConnect, worst)
	r.countUnlisted()
	r.tver++
	r.dirOK = false
	if p := r.e.params.CacheWarmStart; p > 0 && r.rng.Float64() < p {
		// Another session of the fleet wrote the static prefix (tools,
		// system prompt, directory) within the TTL.
		pr, _ := r.buildPrompt()
		r.cache.Seed(r.clock, pr)
	}
}

// countUnlisted counts the session's servers whose tools are not listed,
// and notes which are (tblListed) for the prompt. It is called after every
// change of the registry or of what is listed, which lver counts.
func (r *replayer) countUnlisted() {
	r.unlisted = 0
	r.tblListed = r.tblListed[:0]
	for _, t := range r.tables {
		l := r.listed[t.name]
		if !l {
			r.unlisted++
		}
		r.tblListed = append(r.tblListed, l)
	}
	r.lver++
}

// ensureConnected pays a lazy connection before a server is used.
func (r *replayer) ensureConnected(server string) {
	if r.connected[server] {
		return
	}
	r.connected[server] = true
	if t := r.table(server); t != nil {
		r.addLayer(layerConnect, r.e.connectMs(t))
	}
}

// ensureListed pays a lazy tools/list (and its connection).
func (r *replayer) ensureListed(server string) {
	if r.listed[server] {
		return
	}
	r.ensureConnected(server)
	r.listed[server] = true
	if t := r.table(server); t != nil {
		r.addLayer(layerList, r.e.listMs(t))
	}
	r.countUnlisted()
	r.tver++
	r.dirOK = false
}

func (r *replayer) table(server string) *serverTable {
	for _, t := range r.tables {
		if t.name == server {
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
	r.clock += ms
	r.layerMs[layer] += ms
}

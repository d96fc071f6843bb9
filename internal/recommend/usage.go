package recommend

import (
	"sort"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/traces"
)

// toolKey names a tool of a server.
type toolKey struct {
	Server string `json:"server"`
	Tool   string `json:"tool"`
}

// Usage counts how sessions use each tool.
type Usage struct {
	Sessions int `json:"sessions"`
	// Requests is the total of model requests (one per recorded model step).
	Requests int `json:"requests"`
	// WithCalls counts sessions that called any tool.
	WithCalls int `json:"sessions_with_calls"`
	Tools     map[toolKey]*toolUsage
	// Versions counts, per server as the trace names it, the sessions
	// that name each of its versions.
	Versions map[string]map[string]int
}

// toolUsage counts one tool's use, in sessions.
type toolUsage struct {
	// Opens: sessions whose first tool call is this tool.
	Opens int `json:"opens"`
	// Uses: sessions that call it at all; Calls: calls in total.
	Uses  int `json:"uses"`
	Calls int `json:"calls"`
	// FirstTurn: sessions that call it in their first user turn (before the
	// second user message); BeforeReply: before the first assistant text
	// the user sees (what first-reply latency waits for).
	FirstTurn   int `json:"first_turn"`
	BeforeReply int `json:"before_first_reply"`
}

// newUsage returns an empty count.
func newUsage() *Usage {
	return &Usage{Tools: map[toolKey]*toolUsage{}, Versions: map[string]map[string]int{}}
}

// resolver maps a call to its tool's server when the trace does not say.
type resolver func(tool string) string

// Add counts one session's need (sim.ExtractNeed: the recorder's own
// deferral steps removed).
func (u *Usage) Add(need *sim.Need, resolve resolver) {
	u.Sessions++
	named := map[traces.ServerRef]bool{}
	for _, ref := range need.Servers {
		if ref.Version == "" || named[ref] {
			continue
		}
		named[ref] = true
		if u.Versions[ref.Name] == nil {
			u.Versions[ref.Name] = map[string]int{}
		}
		u.Versions[ref.Name][ref.Version]++
	}
	seen := map[toolKey]bool{}
	first, firstTurn, beforeReply := map[toolKey]bool{}, map[toolKey]bool{}, map[toolKey]bool{}
	users, replied, opened := 0, false, false
	for i := range need.Steps {
		st := &need.Steps[i]
		switch st.Kind {
		case sim.StepUser:
			users++
		case sim.StepModel:
			u.Requests++
			for _, c := range st.Calls {
				k := toolKey{Server: c.Server, Tool: c.Tool}
				if k.Server == "" && resolve != nil {
					k.Server = resolve(c.Tool)
				}
				t := u.tool(k)
				t.Calls++
				if !opened {
					opened = true
					first[k] = true
				}
				seen[k] = true
				if users <= 1 {
					firstTurn[k] = true
				}
				if !replied {
					beforeReply[k] = true
				}
			}
			if users > 0 && (st.Text != "" || st.TextTokens > 0) {
				replied = true
			}
		}
	}
	if opened {
		u.WithCalls++
	}
	for k := range seen {
		t := u.tool(k)
		t.Uses++
		if first[k] {
			t.Opens++
		}
		if firstTurn[k] {
			t.FirstTurn++
		}
		if beforeReply[k] {
			t.BeforeReply++
		}
	}
}

func (u *Usage) tool(k toolKey) *toolUsage {
	t := u.Tools[k]
	if t == nil {
		t = &toolUsage{}
		u.Tools[k] = t
	}
	return t
}

// Keys returns the tools in server, then name order.
func (u *Usage) Keys() []toolKey {
	keys := make([]toolKey, 0, len(u.Tools))
	for k := range u.Tools {
		keys = append(keys, k)
	}
	sortKeys(keys)
	return keys
}

func sortKeys(keys []toolKey) {
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].Server != keys[j].Server {
			return keys[i].Server < keys[j].Server
		}
		return keys[i].Tool < keys[j].Tool
	})
}

package recommend

import (
	"slices"
	"sort"
	"strings"

	"github.com/defersim/defersim/catalog"
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
	// cat resolves the versions a session's replay offers; profiles
	// counts the sessions by those versions (Served).
	cat      *catalog.Catalog
	profiles map[string]*profile
}

// Offered returns each server's versions the replay offers some training
// session (Add's offered), by series key, in no particular order.
func (u *Usage) Offered() map[string][]string {
	out := map[string][]string{}
	for _, p := range u.profiles {
		for key, vs := range p.versions {
			for _, v := range vs {
				if !slices.Contains(out[key], v.Version) {
					out[key] = append(out[key], v.Version)
				}
			}
		}
	}
	return out
}

// offeredServers returns each server's versions the replay offers some
// training session, by series key, as Offered but as catalog versions.
func (u *Usage) offeredServers() map[string][]*catalog.Server {
	out := map[string][]*catalog.Server{}
	for _, p := range u.profiles {
		for key, vs := range p.versions {
			for _, v := range vs {
				if !slices.Contains(out[key], v) {
					out[key] = append(out[key], v)
				}
			}
		}
	}
	return out
}

// profile is a set of catalog versions the replay offers sessions
// (sim.Engine.NeedVersions), by series, and how many sessions are offered
// exactly that set.
type profile struct {
	versions map[string][]*catalog.Server
	sessions int
}

// serves reports whether a session of the profile could call tool k: one
// of the versions of k's series its replay offers defines the tool.
func (p *profile) serves(k toolKey) bool {
	return definedIn(p.versions[k.Server], k.Tool)
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
	// Unserved: sessions that call it though none of the versions of its
	// server their replay offers defines it (counted as sessions that
	// could call it).
	Unserved int `json:"unserved"`
}

// newUsage returns an empty count; cat resolves the versions sessions name.
func newUsage(cat *catalog.Catalog) *Usage {
	return &Usage{Tools: map[toolKey]*toolUsage{}, Versions: map[string]map[string]int{}, cat: cat, profiles: map[string]*profile{}}
}

// resolver maps a call to its tool's server when the trace does not say.
type resolver func(tool string) string

// Add counts one session's need (sim.ExtractNeed: the recorder's own
// deferral steps removed), whose replay offers the server versions
// offered (sim.Engine.NeedVersions).
func (u *Usage) Add(need *sim.Need, offered []sim.ServerVersion, resolve resolver) {
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
	pr := &profile{versions: map[string][]*catalog.Server{}}
	var labels []string
	for _, sv := range offered {
		if v := u.cat.At(sv.Server, sv.Version); v != nil && !slices.Contains(pr.versions[v.Key()], v) {
			pr.versions[v.Key()] = append(pr.versions[v.Key()], v)
			labels = append(labels, v.Label())
		}
	}
	slices.Sort(labels)
	key := strings.Join(labels, "\x00")
	if known := u.profiles[key]; known != nil {
		pr = known
	} else {
		u.profiles[key] = pr
	}
	pr.sessions++
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
		if !pr.serves(k) {
			t.Unserved++
		}
	}
}

// Served is, for each tool of keys, the training sessions that could call
// it — its shares' denominator: those whose replay offers a version of its
// server that defines it (sim.Engine.NeedVersions: the servers the
// session_start names, at the versions named, or every server at its
// latest when it names none, and the versions catalog changes move to),
// and any session that calls it all the same. A session replayed only on
// versions that lack the tool (a tool an upgrade added, on a log of the
// version before), or whose session_start names other servers only, is
// not one of them.
func (u *Usage) Served(keys []toolKey) map[toolKey]int {
	out := make(map[toolKey]int, len(keys))
	for _, k := range keys {
		n := 0
		for _, p := range u.profiles {
			if p.serves(k) {
				n += p.sessions
			}
		}
		if t := u.Tools[k]; t != nil {
			n += t.Unserved
		}
		out[k] = n
	}
	return out
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

// fewerServers counts the training sessions whose replay is offered fewer
// of the catalogs' server series than all of them: a session_start that
// names some servers only.
func (u *Usage) fewerServers() (fewer, series int) {
	all := map[string]bool{}
	for _, name := range u.cat.ServerNames() {
		for _, v := range u.cat.Versions[name] {
			all[v.Key()] = true
		}
	}
	for _, p := range u.profiles {
		if len(p.versions) < len(all) {
			fewer += p.sessions
		}
	}
	return fewer, len(all)
}

package gen

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"time"

	yaml "go.yaml.in/yaml/v3"

	"github.com/defersim/defersim/catalog"
)

// OverParams configure a generation over an external catalog (NewOver):
// sessions call the real servers' tools instead of generated ones.
type OverParams struct {
	// Servers lists the catalog series to draw sessions over (series keys as
	// catalog.Catalog.ServerNames gives them). Empty means every series with
	// two or more versions.
	Servers []string `yaml:"servers,omitempty"`
	// Schedule decides which version of each series a session starts on:
	// "even" (version k of a series with n versions is in force from session
	// round(k·N/n) of N on) or "latest" (every session on the latest version,
	// no upgrades). See docs/generator.md.
	Schedule string `yaml:"schedule"`
	// MidSession is the probability that a session is resumed across an
	// upgrade: a server it has not at its latest version becomes its focus,
	// and before a later turn the user's pause lasts until that server's next
	// release, so the session records the upgrade (catalog_change) and goes
	// on with the new version. Sessions still running at a release record it
	// too, whatever this is.
	MidSession float64 `yaml:"mid_session"`
}

// Schedules known to OverParams.Schedule.
const (
	ScheduleEven   = "even"
	ScheduleLatest = "latest"
)

// DefaultOver returns the over-mode defaults: every multi-version series,
// even schedule, mid_session 0.08 (the drift.mid_session assumption).
func DefaultOver() OverParams { return OverParams{Schedule: ScheduleEven, MidSession: 0.08} }

// UnmarshalYAML reads an over: block strictly (unknown keys are errors);
// keys it does not give keep their DefaultOver value.
func (o *OverParams) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			switch k := n.Content[i].Value; k {
			case "servers", "schedule", "mid_session":
			default:
				return fmt.Errorf("line %d: over: unknown key %q (want servers, schedule, mid_session)", n.Content[i].Line, k)
			}
		}
	}
	type plain OverParams // without this method
	p := plain(DefaultOver())
	if err := n.Decode(&p); err != nil {
		return err
	}
	*o = OverParams(p)
	return nil
}

func (o *OverParams) validate() error {
	switch o.Schedule {
	case ScheduleEven, ScheduleLatest:
	default:
		return fmt.Errorf("over.schedule: unknown schedule %q (want %s or %s)", o.Schedule, ScheduleEven, ScheduleLatest)
	}
	if !(o.MidSession >= 0 && o.MidSession <= 1) {
		return fmt.Errorf("over.mid_session: must be in [0, 1] (got %g)", o.MidSession)
	}
	seen := map[string]bool{}
	for i, s := range o.Servers {
		if s == "" {
			return fmt.Errorf("over.servers[%d]: empty server name", i)
		}
		if seen[s] {
			return fmt.Errorf("over.servers[%d]: %q appears twice", i, s)
		}
		seen[s] = true
	}
	return nil
}

// ScheduledUpgrade is one fleet upgrade of an over-mode generation: from
// session AfterSession on (0-based, in trace order) sessions start with
// Server at version To. It is the scenario key
// servers.<Server>.upgrades[] {to, after_session}.
type ScheduledUpgrade struct {
	Server       string `json:"server"`
	To           string `json:"to"`
	AfterSession int    `json:"after_session"`
	// At is the start time of session AfterSession: a session still running
	// then is upgraded between two turns (catalog_change).
	At time.Time `json:"at"`
}

// overState is the external catalog an over-mode generator draws from.
type overState struct {
	series []*overSeries
	// tools holds one entry per distinct (series, tool fingerprint).
	tools map[string]*overTool
}

// overSeries is one catalog series with the versions sessions use.
type overSeries struct {
	key      string
	dom      *domain
	versions []*overVersion
	// from[k] is the first session starting on version k (from[0] = 0);
	// at[k] is that session's start time (zero when no session reaches it).
	from []int
	at   []time.Time
}

// overVersion is one version of a series.
type overVersion struct {
	srv     *catalog.Server
	tools   []*overTool
	sampler *weighted
	// wireBytes is the compact wire size of all its tools.
	wireBytes int
}

// NewOver validates p and returns a generator whose sessions call the tools
// of cat's servers (p.Over selects which; nil means DefaultOver). The
// parameters that shape a generated catalog (servers, server_specs,
// tools_per_server, schema_bytes, description_share, planted, drift) are
// not used, and an error when they differ from their defaults; every
// session parameter is. Arguments are built from
// validation.Example for the schema of the version in force at the call.
func NewOver(cat *catalog.Catalog, p Params) (*Generator, error) {
	if cat == nil {
		return nil, fmt.Errorf("generate over a catalog: no catalog")
	}
	if p.Over == nil {
		d := DefaultOver()
		p.Over = &d
	}
	if err := p.ValidateOver(); err != nil {
		return nil, err
	}
	keys, err := overKeys(cat, p.Over.Servers)
	if err != nil {
		return nil, err
	}
	start, _ := p.StartTime()
	g := &Generator{p: p, start: start, weight: map[string]float64{}}
	o := &overState{tools: map[string]*overTool{}}
	for _, k := range keys {
		s := &overSeries{key: k, dom: domainFor(k)}
		for _, srv := range cat.Versions[k] {
			v := &overVersion{srv: srv}
			for _, t := range srv.Tools {
				id := k + "\x00" + t.ServedFingerprint
				ot := o.tools[id]
				if ot == nil {
					ot = newOverTool(k, t)
					o.tools[id] = ot
				}
				v.tools = append(v.tools, ot)
				v.wireBytes += len(t.Wire)
			}
			s.versions = append(s.versions, v)
		}
		o.series = append(o.series, s)
	}
	g.over = o
	if err := o.checkBuildable(); err != nil {
		return nil, err
	}
	g.rankOver()
	g.scheduleOver()
	return g, nil
}

// DefaultOverServers splits cat's series keys (sorted) into those a
// generation uses when OverParams.Servers is empty, the series with two or
// more versions (their upgrades are the drift it replays), and those it
// leaves out, with one version. A caller warns of the second.
func DefaultOverServers(cat *catalog.Catalog) (use, leftOut []string) {
	for _, k := range cat.ServerNames() {
		if len(cat.Versions[k]) >= 2 {
			use = append(use, k)
		} else {
			leftOut = append(leftOut, k)
		}
	}
	return use, leftOut
}

// overKeys resolves the requested series keys (sorted), or every series
// with two or more versions when none is requested.
func overKeys(cat *catalog.Catalog, want []string) ([]string, error) {
	names := cat.ServerNames()
	if len(want) == 0 {
		keys, _ := DefaultOverServers(cat)
		if len(keys) == 0 {
			return nil, fmt.Errorf("generate over a catalog: no server has two or more versions; name the servers to use (over.servers)")
		}
		want = keys
	}
	keys := slices.Clone(want)
	slices.Sort(keys)
	for _, k := range keys {
		if len(cat.Versions[k]) == 0 {
			return nil, errors.New(catalog.NearName(k, names).WithHint(fmt.Sprintf("over.servers: %q is not a server of the catalog (it has %d: %s)", k, len(names), abbreviate(names, 8))))
		}
	}
	for _, k := range keys {
		for _, v := range cat.Versions[k] {
			if len(v.Tools) == 0 {
				return nil, fmt.Errorf("over.servers: %s serves no tools (leave it out)", v.Label())
			}
		}
	}
	return keys, nil
}

func abbreviate(xs []string, n int) string {
	if len(xs) <= n {
		return strings.Join(xs, ", ")
	}
	return strings.Join(xs[:n], ", ") + fmt.Sprintf(", … (%d more)", len(xs)-n)
}

// domainFor picks the word list a series' user text and free-text values
// draw from, by a hash of its key (deterministic, no meaning implied).
func domainFor(key string) *domain {
	h := fnv.New32a()
	h.Write([]byte(key))
	return &domains[int(h.Sum32()%uint32(len(domains)))]
}

// rankOver gives every series/tool name a popularity rank (seeded order)
// and builds the per-version samplers, as rankTools does for a generated
// catalog.
func (g *Generator) rankOver() {
	r := newRNG(g.p.Seed, streamOver, 1)
	var keys []string
	seen := map[string]bool{}
	for _, s := range g.over.series {
		for _, v := range s.versions {
			for _, t := range v.tools {
				k := s.key + "/" + t.name
				if !seen[k] {
					seen[k] = true
					keys = append(keys, k)
				}
			}
		}
	}
	shuffle(r, keys)
	w := zipfWeights(len(keys), g.p.Zipf)
	for i, k := range keys {
		g.weight[k] = w[i]
	}
	for _, s := range g.over.series {
		for _, v := range s.versions {
			ws := make([]float64, len(v.tools))
			for j, t := range v.tools {
				if t.unbuildable == "" {
					ws[j] = g.weight[s.key+"/"+t.name]
				}
			}
			v.sampler = newWeighted(ws)
		}
	}
}

// scheduleOver computes, per series, the first session of each version and
// its start time.
func (g *Generator) scheduleOver() {
	n := g.p.Sessions
	need := map[int]bool{}
	for _, s := range g.over.series {
		nv := len(s.versions)
		s.from = make([]int, nv)
		s.at = make([]time.Time, nv)
		for k := 1; k < nv; k++ {
			switch g.p.Over.Schedule {
			case ScheduleLatest:
				s.from[k] = 0
			default:
				s.from[k] = int(math.Round(float64(k) * float64(n) / float64(nv)))
			}
			need[s.from[k]] = true
		}
	}
	// Session start times, from the same layout stream Sessions uses.
	starts := map[int]time.Time{}
	lay := newRNG(g.p.Seed, streamLayout, 0)
	t := g.start
	last := 0
	for i := range need {
		last = max(last, i)
	}
	for i := 0; i <= last && i < n; i++ {
		if i > 0 {
			t = g.nextStart(lay, t)
		}
		if need[i] {
			starts[i] = t
		}
	}
	for _, s := range g.over.series {
		for k := range s.versions {
			if st, ok := starts[s.from[k]]; ok {
				s.at[k] = st
			}
		}
	}
}

// Schedule returns the fleet upgrades of an over-mode generation, by series
// then version (nil for a generated catalog, and for the latest schedule).
// Upgrades whose session is past the last session are left out.
func (g *Generator) Schedule() []ScheduledUpgrade {
	if g.over == nil || g.p.Over.Schedule == ScheduleLatest {
		return nil
	}
	var out []ScheduledUpgrade
	for _, s := range g.over.series {
		for k := 1; k < len(s.versions); k++ {
			if s.from[k] >= g.p.Sessions {
				continue
			}
			out = append(out, ScheduledUpgrade{Server: s.key, To: s.versions[k].srv.Version, AfterSession: s.from[k], At: s.at[k]})
		}
	}
	return out
}

// startVersions returns, per series, the version index session i starts on.
func (o *overState) startVersions(i int) []int {
	cur := make([]int, len(o.series))
	for si, s := range o.series {
		for k := range s.versions {
			if s.from[k] <= i {
				cur[si] = k
			}
		}
	}
	return cur
}

// overServers returns every version of every series used, as loaded.
func (o *overState) servers() []*catalog.Server {
	var out []*catalog.Server
	for _, s := range o.series {
		for _, v := range s.versions {
			out = append(out, v.srv)
		}
	}
	return out
}

package gen

import (
	"encoding/json"
	"fmt"
	"iter"
	"time"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/traces"
)

// Generator holds a generated catalog and produces sessions over it.
type Generator struct {
	p       Params
	start   time.Time
	servers []*serverDef
	// weight is the popularity weight of each tool, by "server/tool".
	weight map[string]float64
	// samplers[s][v] draws a tool of server s at version v by popularity.
	samplers [][]*toolSampler
	// wireBytes[s][v] is the wire size of every tool of server s at version v.
	wireBytes [][]int
	planted   []plantedRef
	// span is the expected time span of the trace, in seconds.
	span float64
	// over is set when sessions are drawn over an external catalog (NewOver);
	// servers, samplers and planted are then unused.
	over *overState
}

type toolSampler struct {
	tools []*toolDef
	w     *weighted
}

type plantedRef struct {
	server int
	tool   string
	open   float64
	use    float64
}

// New validates p and generates the catalog.
func New(p Params) (*Generator, error) {
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("invalid generator parameters: %w", err)
	}
	if p.Over != nil {
		return nil, fmt.Errorf("invalid generator parameters: over: set, but no catalog to generate over (use NewOver, or trace gen --catalogs)")
	}
	if n, idle := p.idleKeys(false); n > 0 {
		return nil, idleError(n, idle)
	}
	return newChecked(p)
}

// newChecked generates the catalog of p, which New has checked.
func newChecked(p Params) (*Generator, error) {
	start, _ := p.StartTime()
	servers, err := buildServers(&p)
	if err != nil {
		return nil, fmt.Errorf("generate catalog: %w", err)
	}
	addVersions(&p, servers)
	g := &Generator{p: p, start: start, servers: servers, weight: map[string]float64{}}
	g.rankTools()
	for _, pt := range p.Planted {
		for i, s := range servers {
			if s.name == pt.Server {
				g.planted = append(g.planted, plantedRef{server: i, tool: pt.Tool, open: pt.Open, use: pt.Use})
			}
		}
	}
	g.span = float64(p.Sessions) * p.SessionGapSec.Mean(false)
	return g, nil
}

// rankTools gives every tool name a popularity rank (seeded order) and
// builds the per-version samplers.
func (g *Generator) rankTools() {
	r := newRNG(g.p.Seed, streamLayout, 1)
	var keys []string
	seen := map[string]bool{}
	for _, s := range g.servers {
		for _, v := range s.versions {
			for _, t := range v.tools {
				k := s.name + "/" + t.name
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
	for _, pt := range g.p.Planted {
		if pt.Use > 0 {
			g.weight[pt.Server+"/"+pt.Tool] = 0
		}
	}
	g.samplers = make([][]*toolSampler, len(g.servers))
	g.wireBytes = make([][]int, len(g.servers))
	for i, s := range g.servers {
		for _, v := range s.versions {
			ws := make([]float64, len(v.tools))
			n := 0
			for j, t := range v.tools {
				ws[j] = g.weight[s.name+"/"+t.name]
				n += t.wireSize()
			}
			g.wireBytes[i] = append(g.wireBytes[i], n)
			g.samplers[i] = append(g.samplers[i], &toolSampler{tools: v.tools, w: newWeighted(ws)})
		}
	}
}

// Params returns the parameters the generator was built with.
func (g *Generator) Params() Params { return g.p }

// Servers returns every server at every version, in server order then
// version order, as catalog servers (Raw, Name, Description, InputSchema,
// Annotations and Server are set; fingerprints are left to the catalog
// package). Over an external catalog they are the catalog's own servers.
func (g *Generator) Servers() []*catalog.Server {
	if g.over != nil {
		return g.over.servers()
	}
	var out []*catalog.Server
	for _, s := range g.servers {
		for _, v := range s.versions {
			cs := &catalog.Server{Name: s.name, Version: v.version}
			for _, t := range v.tools {
				raw := t.mcpJSON()
				ct := &catalog.Tool{Raw: json.RawMessage(raw), Server: s.name}
				_ = json.Unmarshal(raw, ct) // our own JSON always decodes
				cs.Tools = append(cs.Tools, ct)
			}
			out = append(out, cs)
		}
	}
	return out
}

// Changes returns every change between consecutive versions (planted
// drift; nil over an external catalog, whose drift catalog.Diff gives).
func (g *Generator) Changes() []Change {
	var out []Change
	for _, s := range g.servers {
		for _, v := range s.versions {
			out = append(out, v.changes...)
		}
	}
	return out
}

// Sessions yields the sessions one at a time; each is built from its own
// random stream, so memory stays bounded by one session. A yielded session
// is not reused by the generator.
func (g *Generator) Sessions() iter.Seq[*traces.Session] {
	return func(yield func(*traces.Session) bool) {
		lay := newRNG(g.p.Seed, streamLayout, 0)
		t := g.start
		for i := 0; i < g.p.Sessions; i++ {
			if i > 0 {
				t = g.nextStart(lay, t)
			}
			var s *traces.Session
			if g.over != nil {
				s = g.overSession(i, t)
			} else {
				s = g.session(i, t)
			}
			if !yield(s) {
				return
			}
		}
	}
}

// nextStart returns the start of the session after one that started at t,
// drawing the gap from the layout stream lay.
func (g *Generator) nextStart(lay *rng, t time.Time) time.Time {
	return t.Add(time.Duration(g.p.SessionGapSec.sample(lay) * float64(time.Second))).Truncate(time.Millisecond)
}

// Output is a whole generation held in memory (use Generator.Sessions and
// WriteDir for large traces).
type Output struct {
	Servers  []*catalog.Server
	Changes  []Change
	Sessions []*traces.Session
}

// Generate runs the generator and returns everything it made.
func Generate(p Params) (*Output, error) {
	g, err := New(p)
	if err != nil {
		return nil, err
	}
	out := &Output{Servers: g.Servers(), Changes: g.Changes()}
	for s := range g.Sessions() {
		out.Sessions = append(out.Sessions, s)
	}
	return out, nil
}

// versionsAt returns, per server, the index of the version in force at t.
func (g *Generator) versionsAt(t time.Time) []int {
	f := 0.0
	if g.span > 0 {
		f = t.Sub(g.start).Seconds() / g.span
	}
	cur := make([]int, len(g.servers))
	for i, s := range g.servers {
		for v := range s.versions {
			if s.versions[v].at <= f {
				cur[i] = v
			}
		}
	}
	return cur
}

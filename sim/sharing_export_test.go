package sim

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/defersim/defersim/traces"
)

// SharingProbe replays sessions under every strategy of an engine, one
// strategy after another with one replayer (as a worker does), and
// fingerprints every simulated model request at the moment the replayer
// hands its prompt to the cache: the test hook of
// TestStrategySharingReport, which measures how much of the replay
// strategies could share. It only reads the replayer's state; outcomes
// are those of Engine.ReplayNeed.
type SharingProbe struct {
	e *Engine
	r *replayer
	// pre and state hold, per request of the run in progress, the
	// request's own fingerprint and the strategy's state before it
	// (request, stateParts); seeds chains the warm-start seeds handed to
	// the cache since the last request.
	pre    []uint64
	state  [][NumStateParts]uint64
	blocks []int
	seeds  uint64
}

// SharingRun is one strategy's replay of one session, fingerprinted per
// simulated model request k (in the order of Outcome.PerRequest).
type SharingRun struct {
	// Cache[k] chains everything that decides request k's accounting and
	// every earlier one's, since the session started: at each request the
	// time, the random stream's position (what its latency and the cold
	// calls before it draw), every block of the prompt as the cache sees
	// it (prefix hash and cumulative tokens), the breakpoints, the
	// warm-start seeds handed to the cache before it, and the request's
	// accounting (its RequestTokens). The cache's state before request k
	// is a function of what was handed to it before, so two runs with
	// equal Cache[k] build the same prompt, find the same cache and draw
	// the same latency at request k: the prompt and cache work of k is
	// interchangeable between them.
	Cache []uint64
	// State[k] chains Cache[k] with the strategy's simulated state before
	// each request up to k: the warm set (tools, schemas, load and use
	// order), transient loads, which servers are connected and listed,
	// announced routing domains, loading-layer times, the metrics so far,
	// the registry and the session flags. Equal State[k]: the two runs are
	// one replay up to k, but for what their strategies decide next.
	State []uint64
	// StateParts[k] is the state before request k, part by part (not
	// chained; PartWarm...): which part two runs differ in.
	StateParts [][NumStateParts]uint64
	// Blocks[k] is the number of blocks of request k's prompt.
	Blocks []int
	// Values and PerRequest are the run's outcome.
	Values     [NumMetrics]float64
	PerRequest []RequestTokens
}

// NewSharingProbe returns a probe over e.
func (e *Engine) NewSharingProbe() *SharingProbe {
	p := &SharingProbe{e: e, r: newReplayer(e)}
	inner := e.newCache()
	p.r.st.cache = &probeCache{inner: inner, p: p}
	p.r.st.placer, _ = inner.(BreakpointPlacer)
	return p
}

// Session replays the session at stream index idx under every strategy
// and returns each strategy's fingerprinted run.
func (p *SharingProbe) Session(s *traces.Session, idx int64) ([]SharingRun, error) {
	e := p.e
	n := p.r.need.extract(s)
	if _, err := e.applyUpgrades(n, idx); err != nil {
		return nil, err
	}
	pn := compactNeed(n)
	runs := make([]SharingRun, len(e.strategies))
	for si := range e.strategies {
		p.pre, p.state, p.blocks, p.seeds = p.pre[:0], p.state[:0], p.blocks[:0], 0
		var oc Outcome
		p.r.run(pn, si, &oc, e.keepsFidelity(si))
		if len(p.pre) != len(oc.PerRequest) {
			return nil, fmt.Errorf("session %s, strategy %s: %d cache requests for %d model requests",
				s.ID, e.strategies[si].Name, len(p.pre), len(oc.PerRequest))
		}
		run := &runs[si]
		run.Values, run.PerRequest, run.Blocks = oc.Values, slices.Clone(oc.PerRequest), slices.Clone(p.blocks)
		var c, st uint64
		for k := range p.pre {
			c = mix(mix(c, p.pre[k]), tokensDigest(&oc.PerRequest[k]))
			st = mix(st, c)
			for _, x := range p.state[k] {
				st = mix(st, x)
			}
			run.Cache = append(run.Cache, c)
			run.State = append(run.State, st)
			run.StateParts = append(run.StateParts, p.state[k])
		}
	}
	p.r.endSession()
	return runs, nil
}

// request notes a request handed to the cache at now.
func (p *SharingProbe) request(now float64, pr *Prompt) {
	r := p.r
	rng, err := r.pcg.MarshalBinary()
	if err != nil {
		panic(err) // a PCG always marshals
	}
	h := mix(p.seeds, promptDigest(now, pr))
	h = mix(h, hashString(string(rng)))
	p.seeds = 0
	p.pre = append(p.pre, h)
	p.state = append(p.state, r.stateParts())
	p.blocks = append(p.blocks, pr.Len())
}

// seed notes a warm-start seed handed to the cache at now.
func (p *SharingProbe) seed(now float64, pr *Prompt) {
	p.seeds = mix(p.seeds, mix(hashString("seed"), promptDigest(now, pr)))
}

// promptDigest hashes a prompt as the cache sees it at now.
func promptDigest(now float64, p *Prompt) uint64 {
	h := mix(math.Float64bits(now), uint64(p.Len()))
	for i := range p.Len() {
		h = mix(mix(h, p.PrefixHash(i)), uint64(p.CumTokens(i)))
	}
	h = mix(h, uint64(len(p.Breakpoints)))
	for _, b := range p.Breakpoints {
		h = mix(h, uint64(b))
	}
	return h
}

// tokensDigest hashes one request's accounting.
func tokensDigest(t *RequestTokens) uint64 {
	h := mix(uint64(t.Input), uint64(t.Uncached))
	h = mix(h, uint64(t.CacheRead))
	h = mix(h, uint64(t.CacheWrite))
	h = mix(h, uint64(t.Output))
	if t.Extra {
		h = mix(h, 1)
	}
	return mix(h, uint64(t.Kind))
}

// State parts a SharingRun fingerprints, in StateParts[k].
const (
	PartWarm      = iota // the warm set: tools, schemas, load and use order, tokens
	PartTransient        // loads that live until the end of the step
	PartServers          // connected and listed servers, announced routing domains
	PartLayers           // time spent in each loading layer
	PartMetrics          // the metrics so far
	PartSession          // the registry, the clock, the session's flags and positions
	NumStateParts
)

// StatePartNames names the state parts.
var StatePartNames = [NumStateParts]string{"warm set", "transient loads", "servers and domains", "layer times", "metrics so far", "registry, clock, flags"}

// stateParts hashes the strategy's simulated state (simState but the
// cache, which SharingRun.Cache covers, and the conversation, which the
// prompt covers) and the metrics so far, part by part.
func (r *replayer) stateParts() (d [NumStateParts]uint64) {
	s := &r.st
	h := mix(uint64(len(s.warm.entries)), uint64(s.warm.tokens))
	h = mix(h, uint64(s.warm.seq))
	for _, w := range s.warm.entries {
		h = mix(mix(h, uint64(w.Tool.id)), hashString(w.Tool.fp))
		h = mix(mix(h, uint64(w.LoadedAt)), uint64(w.UsedAt))
	}
	d[PartWarm] = h
	h = uint64(len(s.transient))
	for _, t := range s.transient {
		h = mix(h, uint64(t.id))
	}
	d[PartTransient] = h
	h = 0
	for i, f := range s.servers.f {
		if f != 0 {
			h = mix(h, uint64(i)<<8|uint64(f))
		}
	}
	active := make([]string, 0, len(s.active))
	for dom, on := range s.active {
		if on {
			active = append(active, dom)
		}
	}
	sort.Strings(active)
	for _, dom := range active {
		h = mix(h, hashString(dom))
	}
	d[PartServers] = h
	h = 0
	for _, ms := range s.layerMs {
		h = mix(h, math.Float64bits(ms))
	}
	d[PartLayers] = h
	h = 0
	for _, v := range r.out.Values {
		h = mix(h, math.Float64bits(v))
	}
	d[PartMetrics] = h
	h = mix(s.set.fp, s.runFP)
	h = mix(mix(h, math.Float64bits(s.clock)), math.Float64bits(s.t0))
	var flags uint64
	for i, b := range []bool{s.started, s.userSeen, s.replied, s.turnOpen, s.staticOn} {
		if b {
			flags |= 1 << i
		}
	}
	h = mix(h, flags)
	h = mix(mix(h, uint64(s.userStep)), uint64(s.userMsg))
	d[PartSession] = mix(h, uint64(len(s.msgs)))
	return d
}

// probeCache is a replayer's cache with the probe's notes.
type probeCache struct {
	inner PromptCache
	p     *SharingProbe
}

func (c *probeCache) Request(now float64, pr *Prompt) (int64, int64) {
	c.p.request(now, pr)
	return c.inner.Request(now, pr)
}

func (c *probeCache) Seed(now float64, pr *Prompt) {
	c.p.seed(now, pr)
	c.inner.Seed(now, pr)
}

func (c *probeCache) Reset() { c.inner.Reset() }

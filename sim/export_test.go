package sim

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/traces"
)

// ReferenceCheck compares the fast replayer, used as a worker uses it (one
// replayer for every session in turn, its memos warm), with the reference
// replayer (reference_test.go), session by session: outcomes, fidelity
// pairs, and every prompt each hands its prompt cache.
type ReferenceCheck struct {
	e       *Engine
	r       *replayer
	fast    promptLog
	ref     promptLog
	rankers map[string]Ranker
	buf     []byte
	// Requests counts the prompts compared.
	Requests int
}

// NewReferenceCheck returns a check over e.
func (e *Engine) NewReferenceCheck() *ReferenceCheck {
	c := &ReferenceCheck{e: e, r: newReplayer(e), rankers: map[string]Ranker{}}
	inner := e.newCache()
	c.r.st.cache = &recordingCache{inner: inner, log: &c.fast}
	c.r.st.placer, _ = inner.(BreakpointPlacer)
	return c
}

// Session replays the session at stream index idx with both replayers
// under every strategy and returns the first difference (nil when none).
func (c *ReferenceCheck) Session(s *traces.Session, idx int64) error {
	e := c.e
	n := c.r.need.extract(s)
	e.applyUpgrades(n, idx)
	type run struct {
		out     Outcome
		fid     []FidelityPair
		prompts []loggedPrompt
	}
	fast := make([]run, len(e.strategies))
	pn := compactNeed(n)
	for si := range e.strategies {
		c.fast = c.fast[:0]
		c.r.run(pn, si, &fast[si].out, si == e.fidelity)
		fast[si].out.PerRequest = slices.Clone(fast[si].out.PerRequest)
		fast[si].prompts = slices.Clone(c.fast)
		if si == e.fidelity {
			fast[si].fid = slices.Clone(c.r.fid)
		}
	}
	c.r.endSession()
	n2 := ExtractNeed(s)
	e.applyUpgrades(n2, idx)
	e.prepare(n2, &c.buf)
	wrap := func(p PromptCache) PromptCache { return &recordingCache{inner: p, log: &c.ref} }
	for si := range e.strategies {
		c.ref = c.ref[:0]
		out, fid := e.replayReference(n2, si, wrap, c.rankers)
		name := e.strategies[si].Name
		f := &fast[si]
		for i := range min(len(f.prompts), len(c.ref)) {
			if !c.ref[i].equal(&f.prompts[i]) {
				return fmt.Errorf("session %s, strategy %s: prompt %d of %d differs (-reference +fast):\n%s", s.ID, name, i, len(c.ref),
					cmp.Diff(c.ref[i], f.prompts[i], cmp.AllowUnexported(loggedPrompt{})))
			}
		}
		if len(f.prompts) != len(c.ref) {
			return fmt.Errorf("session %s, strategy %s: %d prompts, the reference has %d", s.ID, name, len(f.prompts), len(c.ref))
		}
		c.Requests += len(c.ref)
		if out.Values != f.out.Values || !slices.Equal(out.PerRequest, f.out.PerRequest) {
			return fmt.Errorf("session %s, strategy %s: outcomes differ (-reference +fast):\n%s", s.ID, name, cmp.Diff(out, f.out))
		}
		if !slices.Equal(fid, f.fid) {
			return fmt.Errorf("session %s, strategy %s: fidelity pairs differ (-reference +fast):\n%s", s.ID, name, cmp.Diff(fid, f.fid))
		}
	}
	return nil
}

// loggedPrompt is one prompt a replayer handed its cache.
type loggedPrompt struct {
	seed        bool // Seed (warm start) rather than Request
	now         float64
	hashes      []uint64
	cum         []int64
	breakpoints []int
}

func (a *loggedPrompt) equal(b *loggedPrompt) bool {
	return a.seed == b.seed && a.now == b.now && slices.Equal(a.hashes, b.hashes) && slices.Equal(a.cum, b.cum) &&
		slices.Equal(a.breakpoints, b.breakpoints)
}

type promptLog []loggedPrompt

// recordingCache logs every prompt, then passes it on.
type recordingCache struct {
	inner PromptCache
	log   *promptLog
}

func (c *recordingCache) add(seed bool, now float64, p *Prompt) {
	lp := loggedPrompt{seed: seed, now: now, breakpoints: slices.Clone(p.Breakpoints)}
	for i := range p.Len() {
		lp.hashes = append(lp.hashes, p.PrefixHash(i))
		lp.cum = append(lp.cum, p.CumTokens(i))
	}
	*c.log = append(*c.log, lp)
}

func (c *recordingCache) Request(now float64, p *Prompt) (int64, int64) {
	c.add(false, now, p)
	return c.inner.Request(now, p)
}

func (c *recordingCache) Seed(now float64, p *Prompt) {
	c.add(true, now, p)
	c.inner.Seed(now, p)
}

func (c *recordingCache) Reset() { c.inner.Reset() }

// NeedExtractor extracts sessions as a worker does: every session into the
// same reused Need (valid until the next Extract).
type NeedExtractor struct{ b needBuffers }

// Extract returns the need of s.
func (x *NeedExtractor) Extract(s *traces.Session) *Need { return x.b.extract(s) }

// CheckNeedBuilder builds the need of s event by event (NeedBuilder) and
// compares it with ExtractNeed's, the compact form RunNeeds makes from the
// blocks with the compact form of ExtractNeed's need, and (when e is set)
// the resolution made as the session is read with Engine.Resolve's.
func CheckNeedBuilder(e *Engine, s *traces.Session) error {
	build := func() *NeedBuilder {
		b := NewNeedBuilder(s.ID)
		if e != nil {
			b = e.newNeedBuilder(s.ID)
		}
		for i := range s.Events {
			ev := s.Events[i] // the reader hands each event in a reused Event
			b.Add(&ev, s.Lines[i])
			ev = traces.Event{}
		}
		return b
	}
	want := ExtractNeed(s)
	opts := cmp.AllowUnexported(Need{}, pneed{}, pstep{}, pcall{}, pchange{})
	if d := cmp.Diff(want, build().Need(), opts); d != "" {
		return fmt.Errorf("session %s: built need differs (-extracted +built):\n%s", s.ID, d)
	}
	var got pneed
	nb := build()
	resol := nb.resol // compact may hand nb to the next session
	removed := nb.compact(&got)
	if e != nil {
		var want Resolution
		e.Resolve(s, &want)
		if d := cmp.Diff(want, resol); d != "" {
			return fmt.Errorf("session %s: resolution differs (-whole +as read):\n%s", s.ID, d)
		}
	}
	wantP := compactNeed(ExtractNeed(s))
	if d := cmp.Diff(wantP, &got, opts); d != "" {
		return fmt.Errorf("session %s: compact form differs (-extracted +built):\n%s", s.ID, d)
	}
	if removed != want.Removed {
		return fmt.Errorf("session %s: removed %d, want %d", s.ID, removed, want.Removed)
	}
	return nil
}

// FreeNeedMem returns the number of NeedBuilders waiting, with their
// memory, to be reused.
func (e *Engine) FreeNeedMem() int { return len(e.needFree) }

// CheckNeedBuilderRecycled builds s's need with a builder of e, makes it
// compact as a worker does, and starts the next session's builder (id
// next): it must be the builder let go, in a new builder's state but for
// the memory it keeps (its first block of steps, calls, maps, held
// events' room), which must hold nothing of s. reused is false when the
// builder was not recycled (s grew its memory past the bounds).
func CheckNeedBuilderRecycled(e *Engine, s *traces.Session, next string) (reused bool, err error) {
	nb := e.newNeedBuilder(s.ID)
	for i := range s.Events {
		ev := s.Events[i]
		nb.Add(&ev, s.Lines[i])
	}
	var p pneed
	nb.compact(&p)
	nb2 := e.newNeedBuilder(next)
	if nb2 != nb {
		return false, nil
	}
	b := nb2.b
	for _, m := range []struct {
		name  string
		empty bool
	}{
		{"first block", len(b.spare) == 0 && cap(b.spare) == firstStepBlock && !slices.ContainsFunc(b.spare[:cap(b.spare)], func(st Step) bool { return !reflect.DeepEqual(st, Step{}) })},
		{"calls", len(b.pcalls) == 0 && len(b.arena) == 0 && !slices.ContainsFunc(b.arena[:cap(b.arena)], func(c Call) bool { return !reflect.DeepEqual(c, Call{}) })},
		{"maps", len(b.byReq) == 0 && len(b.searched) == 0},
		{"step counts", len(b.ncalls) == 0 && len(b.pstep) == 0},
		{"held events", len(nb2.held) == 0},
	} {
		if !m.empty {
			return true, fmt.Errorf("session %s: the recycled builder's %s hold the session's data", s.ID, m.name)
		}
	}
	// Without its memory, the builder is a new one.
	got := *nb2
	got.b = needBuffers{}
	got.held = nil
	want := NeedBuilder{n: Need{SessionID: next}, e: e}
	want.resol.Sessions = 1
	if !reflect.DeepEqual(&got, &want) {
		return true, fmt.Errorf("session %s: the recycled builder is not in a new builder's state:\n%s", s.ID,
			cmp.Diff(&want, &got, cmp.Exporter(func(reflect.Type) bool { return true })))
	}
	return true, nil
}

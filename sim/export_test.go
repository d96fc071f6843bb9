package sim

import (
	"fmt"
	"slices"

	"github.com/defersim/defersim/traces"
)

// ReplayChecked replays n under every strategy as ReplayNeed does, and
// checks before every request that the prompt assembled incrementally
// (prompt.go) is the one assembled from scratch as the replay used to, and
// that memoised directories are the ones rendered afresh. It returns the
// outcomes and the first mismatch.
func (e *Engine) ReplayChecked(n *Need) ([]Outcome, error) {
	r := newReplayer(e)
	c := &checkedCache{r: r, inner: e.newCache()}
	r.cache = c
	out := make([]Outcome, len(e.strategies))
	for si := range e.strategies {
		r.run(n, si, &out[si], si == e.fidelity)
		out[si].PerRequest = slices.Clone(out[si].PerRequest)
		if c.err != nil {
			return out, fmt.Errorf("strategy %s: %w", e.strategies[si].Name, c.err)
		}
	}
	return out, nil
}

// checkedCache checks every prompt it is given, then passes it on.
type checkedCache struct {
	r     *replayer
	inner PromptCache
	err   error
	n     int // requests checked
}

func (c *checkedCache) Request(now float64, p *Prompt) (int64, int64) {
	c.check(p)
	return c.inner.Request(now, p)
}

func (c *checkedCache) Seed(now float64, p *Prompt) {
	c.check(p)
	c.inner.Seed(now, p)
}

func (c *checkedCache) Reset() { c.inner.Reset() }

func (c *checkedCache) check(p *Prompt) {
	c.n++
	if c.err != nil {
		return
	}
	r := c.r
	e := r.e
	// The prompt from scratch: every tool's state, the system prompt, the
	// directory buildPrompt used, every message.
	mode := r.deferredMode()
	search := mode || r.unlisted > 0
	var b []block
	if search {
		b = append(b, block{h: hashString("\x00tool_search"), tokens: e.params.SearchToolTokens, schema: true})
	}
	for _, t := range r.tables {
		for _, ti := range t.tools {
			exp, seen := r.state(ti, mode)
			if exp == expCold || (exp == expWarm && r.s.Injection == "inline") {
				continue
			}
			b = append(b, block{h: seen.h, tokens: seen.tokens, schema: true})
		}
	}
	b = append(b, block{h: e.systemHash(r.n), tokens: e.systemTokens(r.n) + e.params.RequestOverheadTokens})
	if search && r.s.Directory.Format != "none" && r.dir.tokens > 0 {
		b = append(b, r.dir)
	}
	b = append(b, r.msgs...)
	var h uint64
	var cum, schema int64
	if len(p.PrefixHash) != len(b) || len(p.CumTokens) != len(b) {
		c.err = fmt.Errorf("request %d: %d prefix hashes and %d sums, want %d blocks", c.n, len(p.PrefixHash), len(p.CumTokens), len(b))
		return
	}
	for i, bl := range b {
		h = mix(h, bl.h)
		cum += bl.tokens
		if bl.schema {
			schema += bl.tokens
		}
		if p.PrefixHash[i] != h || p.CumTokens[i] != cum {
			c.err = fmt.Errorf("request %d, block %d of %d: hash %x, tokens %d; want %x, %d", c.n, i, len(b), p.PrefixHash[i], p.CumTokens[i], h, cum)
			return
		}
	}
	if got := r.schemaCum[len(b)-1]; got != schema {
		c.err = fmt.Errorf("request %d: %d schema tokens, want %d", c.n, got, schema)
		return
	}
	for _, m := range []bool{false, true} {
		want := e.directory(r.s, r.tables, func(ti *toolInfo) bool { return m && r.deferrable(ti) }, r.listed)
		if got := r.directory(m); got != want {
			c.err = fmt.Errorf("request %d: memoised directory (mode %v) %+v, want %+v", c.n, m, got, want)
			return
		}
	}
}

// NeedExtractor extracts sessions as a worker does: every session into the
// same reused Need (valid until the next Extract).
type NeedExtractor struct{ b needBuffers }

// Extract returns the need of s.
func (x *NeedExtractor) Extract(s *traces.Session) *Need { return x.b.extract(s) }

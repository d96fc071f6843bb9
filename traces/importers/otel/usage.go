package otel

import (
	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers/ingest"
)

// excludesCachedNote counts, under "converted", the sessions whose
// input_tokens are read as excluding cached tokens.
const excludesCachedNote = "sessions whose gen_ai.usage.input_tokens are read as the uncached input (a request's input_tokens is below cache_read + cache_creation)"

// usageNums reads gen_ai.usage.*, negative figures as 0; ok is false when
// the span records none of them.
func usageNums(a map[string]any) (in, out, cacheRead, cacheWrite int64, ok bool) {
	in, okIn := num(a, "gen_ai.usage.input_tokens")
	out, okOut := num(a, "gen_ai.usage.output_tokens")
	cr, okR := num(a, "gen_ai.usage.cache_read.input_tokens")
	cw, okW := num(a, "gen_ai.usage.cache_creation.input_tokens")
	return max(in, 0), max(out, 0), max(cr, 0), max(cw, 0), okIn || okOut || okR || okW
}

// sessionExcludesCached says whether a session's producer reports
// input_tokens without cached tokens (as Anthropic's API does): some model
// request's input_tokens is smaller than its cache_read + cache_creation.
// The convention is one producer's, so it is decided for the whole
// session, also for requests that are ambiguous on their own.
func sessionExcludesCached(spans []*span) bool {
	for _, sp := range spans {
		if !requestOps[spanOp(sp)] {
			continue
		}
		if in, _, cr, cw, ok := usageNums(sp.attrs); ok && (in < cr || in-cr < cw) { // in < cr+cw without overflow
			return true
		}
	}
	return false
}

// usage maps gen_ai.usage.*: by the GenAI conventions input_tokens includes
// cached tokens, so the uncached input is input − cache_read −
// cache_creation; in a session whose producer evidently excludes them
// (sessionExcludesCached) input_tokens is taken as is.
func (c *converter) usage(a map[string]any) *traces.Usage {
	in, out, cr, cw, ok := usageNums(a)
	if !ok {
		return nil
	}
	var missing []string
	for _, k := range []string{"gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens"} {
		if _, ok := num(a, k); !ok {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		c.rep.Unmap(ingest.IncompleteUsage("chat span", missing))
		return nil
	}
	u := &traces.Usage{Input: in, CacheRead: cr, CacheWrite: cw, Output: out}
	if !c.uncachedInput {
		u.Input = in - cr - cw
	}
	return u
}

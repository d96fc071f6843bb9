package sim

import (
	"math"
	"math/rand/v2"

	"github.com/defersim/defersim/tokens"
	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/validation"
)

// The engine's accounting: token counts of a need's content, and what a
// request, a call and a session add to an outcome. Replayers decide what
// happens; these functions are the arithmetic, shared by every replayer
// (and the reference replayer of the tests), so no component can get it
// wrong.

func (e *Engine) countText(s string) int64 {
	if s == "" {
		return 0
	}
	return e.content.Count([]byte(s))
}

// maxScratchText is the longest text counted through a scratch buffer;
// a longer one is converted (a buffer that size would stay with its
// replayer for the rest of the run).
const maxScratchText = 64 << 10

// countString is c.Count([]byte(s)) through the scratch buffer *buf, so
// that counting a string does not allocate its copy (counters read b only
// during the call); an empty s has no tokens.
func countString(c tokens.Counter, s string, buf *[]byte) int64 {
	if s == "" {
		return 0
	}
	if len(s) > maxScratchText {
		return c.Count([]byte(s))
	}
	*buf = append((*buf)[:0], s...)
	return c.Count(*buf)
}

// prepare marks the model steps that repeat their predecessor's calls and
// counts the tokens of a need's text once, before it is replayed under
// every strategy: message text and tool arguments with the raw
// counter (their content is unique to the session, so memoising it would
// only grow memory), system prompts and tool names with the memo. buf is
// scratch space. preparePacked is the same for the compact form.
func (e *Engine) prepare(n *Need, buf *[]byte) {
	markRepeats(n)
	if n.SystemText != "" { // else the trace may have recorded its tokens alone
		n.SystemTokens = countString(e.content, n.SystemText, buf)
	}
	for i := range n.Steps {
		st := &n.Steps[i]
		if st.Text != "" {
			st.TextTokens = countString(e.raw, st.Text, buf)
		}
		for j := range st.Calls {
			c := &st.Calls[j]
			c.NameTokens = countString(e.content, c.Tool, buf)
			c.ArgTokens = e.raw.Count(c.Args)
			c.ResultTokens = e.resultTokens(c.ResultTokens, c.Result, c.ResultBytes, buf)
		}
	}
	n.prepared = true
}

// preparePacked is prepare for a need in its compact form. A result's
// text is dropped once counted.
func (e *Engine) preparePacked(n *pneed, buf *[]byte) {
	if n.sysText != "" {
		n.sysTokens = countString(e.content, n.sysText, buf)
	}
	for i := range n.steps {
		st := &n.steps[i]
		if st.text != "" {
			st.textTok = countString(e.raw, st.text, buf)
		}
	}
	for i := range n.calls {
		c := &n.calls[i]
		c.nameTok = countString(e.content, c.tool, buf)
		c.argTok = e.raw.Count(c.args)
		c.resTok = e.resultTokens(c.resTok, c.result, c.resBytes, buf)
		c.result = ""
	}
	n.prepared = true
}

// resultTokens is a tool result's size in tokens: as recorded, else its
// text counted, else its size in bytes over bytes_per_token.
func (e *Engine) resultTokens(recorded int64, text string, bytes int64, buf *[]byte) int64 {
	switch {
	case recorded > 0:
		return recorded
	case text != "":
		return countString(e.raw, text, buf)
	case bytes > 0 && e.params.BytesPerToken > 0:
		return int64(float64(bytes)/e.params.BytesPerToken + 0.999999)
	}
	return recorded
}

func (e *Engine) systemHash(text string, tokens int64) uint64 {
	return mix(hashString(text), uint64(tokens))
}

// outputTokens is the recorded output of a model step, or its estimate
// (asst, its assistant message's tokens).
func outputTokens(u *traces.Usage, asst int64) int64 {
	if u != nil && u.Output > 0 {
		return u.Output
	}
	return asst
}

// assistantTokens is the size of the assistant message a step adds to the
// conversation: its text and its tool calls (name and raw arguments).
func (e *Engine) assistantTokens(st *Step) int64 {
	t := st.TextTokens
	for i := range st.Calls {
		c := &st.Calls[i]
		t += c.NameTokens + c.ArgTokens + e.params.MessageOverheadTokens
	}
	return t
}

// packedAssistantTokens is assistantTokens of a compact step.
func (e *Engine) packedAssistantTokens(n *pneed, st *pstep) int64 {
	t := st.textTok
	for _, c := range st.calls(n) {
		t += c.nameTok + c.argTok + e.params.MessageOverheadTokens
	}
	return t
}

// deniedText is what a runtime answers to a call the permission check
// refuses: the conversation grows by it instead of the tool's result.
const deniedText = "Permission denied: this tool is not allowed here."

// deniedTokens is the size of deniedText (counted once per engine).
func (e *Engine) deniedTokens() int64 {
	e.deniedOnce.Do(func() { e.deniedTok = e.countText(deniedText) })
	return e.deniedTok
}

// validate classifies a call made against the seen schema and served
// another: "" (valid) or a class of package validation. A validator that
// takes renames is told the properties the served schema renamed.
func (e *Engine) validate(seen, served *Tool, args []byte) string {
	if e.validator == nil {
		return ""
	}
	if rv, ok := e.validator.(RenamingValidator); ok {
		if rn := e.renames(seen, served); len(rn) > 0 {
			return rv.CheckRenamed(seen.schema, served.schema, args, rn)
		}
	}
	return e.validator.Check(seen.schema, served.schema, args)
}

// request files one model request into v and returns it: its prompt
// tokens split by the cache (read, write, the rest uncached), its output,
// and whether it exists only because of deferral (extra).
func request(v *[NumMetrics]float64, total, read, write, output, schema int64, extra, deferred bool) RequestTokens {
	uncached := total - read - write
	v[MUncachedTokens] += float64(uncached)
	v[MCacheWriteTokens] += float64(write)
	v[MCacheReadTokens] += float64(read)
	v[MOutputTokens] += float64(output)
	v[MSchemaTokens] += float64(schema)
	v[MRequests]++
	if extra {
		v[MExtraRoundTrips]++
	}
	if deferred {
		v[MDeferredModeRequests]++
	}
	return RequestTokens{Input: total, Uncached: uncached, CacheRead: read, CacheWrite: write, Output: output, Extra: extra}
}

// requestMs is a request's duration: overhead and its kind's term, prefill
// of the uncached and written tokens, cached prefill of the read ones,
// decode of the output, times a lognormal jitter drawn from rng when the
// model has one.
func (e *Engine) requestMs(rt RequestTokens, rng *rand.Rand) float64 {
	lat := &e.model.Latency
	dur := lat.DurationMs(rt.Kind, rt.Uncached+rt.CacheWrite, rt.CacheRead, rt.Output)
	if lat.JitterCV > 0 {
		sigma := math.Sqrt(math.Log(1 + lat.JitterCV*lat.JitterCV))
		dur *= math.Exp(rng.NormFloat64()*sigma - sigma*sigma/2)
	}
	return dur
}

// fidelityPair compares a replayed request (its tokens rt) with the
// recorded one, which records its usage (u, nil when not), its duration
// (durMs, -1 when not) or both.
func fidelityPair(session string, index int, u *traces.Usage, durMs float64, rt RequestTokens, simMs float64) FidelityPair {
	fp := FidelityPair{Session: session, Request: index, RecordedInput: -1, SimInput: rt.Input, RecordedMs: -1, SimMs: simMs,
		SimCacheRead: rt.CacheRead, SimCacheWrite: rt.CacheWrite, RecordedCacheRead: -1}
	if u != nil {
		fp.RecordedInput = u.Input + u.CacheRead + u.CacheWrite
		if u.CacheRead > 0 {
			fp.RecordedCacheRead = u.CacheRead
		}
	}
	if durMs > 0 {
		fp.RecordedMs = durMs
	}
	return fp
}

// firstReply files the first reply's time (from t0, the first user
// message, to now) and how much of it each loading layer took.
func firstReply(v *[NumMetrics]float64, now, t0 float64, layerMs *[numLayers]float64) {
	v[MFirstReplyMs] = now - t0
	v[MFirstReplyConnectMs] = layerMs[layerConnect]
	v[MFirstReplyListMs] = layerMs[layerList]
	v[MFirstReplySearchMs] = layerMs[layerSearch]
}

// classify files the validation outcome of a call made against a stale
// schema: valid, malformed of its class, or accepted with an argument the
// served schema ignores (not malformed: the call runs). A call the served
// schema cannot check (validation.ClassSchemaInvalid: it fails its
// meta-schema) is neither valid nor malformed: the catalog is broken, not
// the call. It stays in stale_warm_calls only, and the run's catalog
// notes name the schema (catalog.NoteSchemaInvalid).
func classify(v *[NumMetrics]float64, class string) {
	switch class {
	case validation.ClassSchemaInvalid:
	case "":
		v[MStaleValidCalls]++
	case validation.ClassMissingRequired:
		v[MMalformedMissingRequired]++
	case validation.ClassUnknownProperty:
		v[MMalformedUnknownProperty]++
	case validation.ClassType:
		v[MMalformedType]++
	case validation.ClassEnum:
		v[MMalformedEnum]++
	case validation.ClassIgnoredArgument:
		v[MIgnoredArguments]++
	default:
		v[MMalformedOther]++
	}
}

// finish files what follows from a session's other metrics: its length
// (now), connection time, input tokens, cache hit ratio, cost and
// malformed calls.
func (e *Engine) finish(v *[NumMetrics]float64, now float64, layerMs *[numLayers]float64) {
	v[MSessionMs] = now
	v[MConnectMs] = layerMs[layerConnect] + layerMs[layerList]
	v[MInputTokens] = v[MUncachedTokens] + v[MCacheWriteTokens] + v[MCacheReadTokens]
	if v[MInputTokens] > 0 {
		v[MCacheHitRatio] = v[MCacheReadTokens] / v[MInputTokens]
	}
	p := e.model.Pricing
	c := e.model.Cache
	v[MCostUSD] = ((v[MUncachedTokens]+v[MCacheWriteTokens]*c.WriteMultiplier+v[MCacheReadTokens]*c.ReadMultiplier)*p.InputPerMTok +
		v[MOutputTokens]*p.OutputPerMTok) / 1e6
	v[MMalformedCalls] = v[MMalformedMissingRequired] + v[MMalformedUnknownProperty] + v[MMalformedType] + v[MMalformedEnum] + v[MMalformedOther] + v[MMalformedNoSchema]
}

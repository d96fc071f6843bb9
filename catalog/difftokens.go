package catalog

import (
	"fmt"

	"github.com/defersim/defersim/tokens"
)

// TokenOptions says how the token figures of a diff or a history are
// counted.
type TokenOptions struct {
	// Counter counts each tool's bytes (the replay's default tokenizer is
	// o200k_base).
	Counter tokens.Counter
	// Form is the wire form whose bytes are counted (default FormAnthropic:
	// Tool.Wire, the form the replay counts in tools[]).
	Form WireForm
	// ToolOverhead is the framing tokens a request adds per tool definition
	// (the replay's tool_overhead_tokens); it enters PerRequest only.
	ToolOverhead int64
	// OverheadSource says where ToolOverhead comes from, in words (for
	// example "the default model params"); it is quoted in Assumes.
	OverheadSource string
}

// TokenBasis states what the token figures assume.
type TokenBasis struct {
	Counter      string   `json:"counter"`
	Form         WireForm `json:"form"`
	ToolOverhead int64    `json:"tool_overhead_tokens"`
	// Assumes says the same in words: counter, serialisation, how tools
	// are summed, and what per_request adds.
	Assumes string `json:"assumes"`
}

// TokenSummary is the token cost of going from one version to another.
type TokenSummary struct {
	// From and To are the tokens of every tool of each side, each tool
	// counted alone and summed (as catalog stats counts them).
	From  int64 `json:"from"`
	To    int64 `json:"to"`
	Delta int64 `json:"delta"`
	// AddedTokens and RemovedTokens are the tokens of the added and the
	// removed tools; ChangedDelta is the sum of the changed tools' deltas.
	// Delta = AddedTokens − RemovedTokens + ChangedDelta.
	AddedTokens   int64 `json:"added_tokens"`
	RemovedTokens int64 `json:"removed_tokens"`
	ChangedDelta  int64 `json:"changed_delta"`
	// OutsideForm counts changed tools whose counted bytes are identical on
	// both sides: their changes (annotations, title, outputSchema, …) are
	// not in the form counted, so they cost no token.
	OutsideForm int `json:"changed_outside_form"`
	// PerRequest is how many more tokens (fewer when negative) each request
	// that sends every tool of the server directly carries: Delta plus
	// ToolOverhead per tool more (before prompt caching).
	PerRequest int64 `json:"per_request"`
}

// ToolTokenDelta is one tool's tokens on each side (From 0 for an added
// tool, To 0 for a removed one).
type ToolTokenDelta struct {
	Tool  string `json:"tool"`
	From  int64  `json:"from"`
	To    int64  `json:"to"`
	Delta int64  `json:"delta"`
	// OutsideForm marks a changed tool whose counted bytes did not change.
	OutsideForm bool `json:"outside_form,omitempty"`
}

// TokenDelta is a diff's token cost: the totals, and per added, removed
// and changed tool (in the order of DiffResult's lists).
type TokenDelta struct {
	TokenBasis
	TokenSummary
	AddedTools   []ToolTokenDelta `json:"added_tools"`
	RemovedTools []ToolTokenDelta `json:"removed_tools"`
	ChangedTools []ToolTokenDelta `json:"changed_tools"`
}

// Basis returns what figures counted with opt assume.
func (opt TokenOptions) Basis() TokenBasis {
	form := opt.form()
	b := TokenBasis{Counter: opt.Counter.Name(), Form: form, ToolOverhead: opt.ToolOverhead}
	b.Assumes = fmt.Sprintf("%s tokens of each tool's %s wire form %s, each tool counted alone and summed, as catalog stats counts them",
		b.Counter, form, formShape(form))
	if form != FormMCP {
		b.Assumes += " (annotations, title and outputSchema are not in this form)"
	}
	b.Assumes += fmt.Sprintf("; per request adds %d framing tokens per tool (tool_overhead_tokens", opt.ToolOverhead)
	if opt.OverheadSource != "" {
		b.Assumes += ", " + opt.OverheadSource
	}
	b.Assumes += ")"
	return b
}

func (opt TokenOptions) form() WireForm {
	if opt.Form == "" {
		return FormAnthropic
	}
	return opt.Form
}

// formShape shows the members a wire form holds.
func formShape(f WireForm) string {
	switch f {
	case FormOpenAI:
		return `{"type":"function","function":{"name","description","parameters"}}`
	case FormMCP:
		return "(the tool object as served, compact, without icons)"
	}
	return `{"name","description","input_schema"}`
}

// DiffTokens counts the token cost of d, the diff of a (older) and b: every
// tool of each side under opt.Counter in opt.Form (CountTool, as catalog
// stats counts), and per added, removed and changed tool.
func DiffTokens(a, b *Server, d DiffResult, opt TokenOptions) TokenDelta {
	form := opt.form()
	counters := []tokens.Counter{opt.Counter}
	name := opt.Counter.Name()
	count := func(s *Server) (map[string]int64, int64) {
		by := map[string]int64{}
		var sum int64
		for _, t := range tools(s) {
			n := CountTool(s, t, form, counters).Tokens[name]
			by[t.Name] = n
			sum += n
		}
		return by, sum
	}
	from, fromSum := count(a)
	to, toSum := count(b)
	td := TokenDelta{TokenBasis: opt.Basis(), AddedTools: []ToolTokenDelta{}, RemovedTools: []ToolTokenDelta{}, ChangedTools: []ToolTokenDelta{}}
	s := &td.TokenSummary
	s.From, s.To, s.Delta = fromSum, toSum, toSum-fromSum
	for _, n := range d.Added {
		td.AddedTools = append(td.AddedTools, ToolTokenDelta{Tool: n, To: to[n], Delta: to[n]})
		s.AddedTokens += to[n]
	}
	for _, n := range d.Removed {
		td.RemovedTools = append(td.RemovedTools, ToolTokenDelta{Tool: n, From: from[n], Delta: -from[n]})
		s.RemovedTokens += from[n]
	}
	for _, tc := range d.Changed {
		x := ToolTokenDelta{Tool: tc.Name, From: from[tc.Name], To: to[tc.Name]}
		x.Delta = x.To - x.From
		if at, bt := a.Tool(tc.Name), b.Tool(tc.Name); at != nil && bt != nil && string(at.Bytes(form)) == string(bt.Bytes(form)) {
			x.OutsideForm = true
			s.OutsideForm++
		}
		td.ChangedTools = append(td.ChangedTools, x)
		s.ChangedDelta += x.Delta
	}
	s.PerRequest = s.Delta + opt.ToolOverhead*int64(d.ToTools-d.FromTools)
	return td
}

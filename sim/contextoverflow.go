package sim

// A request whose prompt is larger than the model's context window
// (Model.ContextWindow) would be refused by the provider ("prompt is too
// long"): the session could not go on as recorded, and the tokens, dollars
// and times the replay computes for it and what follows are those of a
// request that cannot be made. The replay still computes them (the figure
// of what the strategy would send is real), and counts such requests per
// strategy so that the run says so instead of answering as if they had
// succeeded.

// ContextOverflow counts one strategy's model requests whose input tokens
// exceed the model's context window, over the sessions of a run. Every
// field merges exactly (sums, and the largest request with the smallest
// stream index on ties), so shards, merges and resumes count the same as
// one run.
type ContextOverflow struct {
	// Window is the context window the requests were compared with, in
	// tokens (the run's model's; 0 while none is counted).
	Window int64 `json:"context_window"`
	// Requests over the window, and the Sessions holding at least one.
	Requests int64 `json:"requests"`
	Sessions int64 `json:"sessions"`
	// MaxInput is the largest input of those requests, in tokens, and
	// MaxSession the session that sent it (the first in stream order,
	// MaxIndex, of those that sent that many).
	MaxInput   int64  `json:"max_input_tokens"`
	MaxSession string `json:"max_input_session"`
	MaxIndex   int64  `json:"-"`
}

// sessionOverflow is one session's requests over the window under one
// strategy: how many, and the largest input among them.
type sessionOverflow struct {
	window, requests, maxInput int64
}

// overflowOf counts the requests of reqs whose input exceeds window (a
// window of 0 or less: no model limit is known, none counts).
func overflowOf(reqs []RequestTokens, window int64) sessionOverflow {
	o := sessionOverflow{window: window}
	if window <= 0 {
		return o
	}
	for i := range reqs {
		if in := reqs[i].Input; in > window {
			o.requests++
			o.maxInput = max(o.maxInput, in)
		}
	}
	return o
}

// add files one session's overflow (its stream index idx and id).
func (c *ContextOverflow) add(o sessionOverflow, idx int64, id string) {
	if o.requests == 0 {
		return
	}
	c.takeMax(o.maxInput, idx, id)
	c.Window = o.window
	c.Requests += o.requests
	c.Sessions++
}

// merge adds o (another shard's count of the same strategy) to c.
func (c *ContextOverflow) merge(o *ContextOverflow) {
	if o.Requests == 0 {
		return
	}
	c.takeMax(o.MaxInput, o.MaxIndex, o.MaxSession)
	c.Window = o.Window
	c.Requests += o.Requests
	c.Sessions += o.Sessions
}

// takeMax keeps the larger input, and on a tie the session first in stream
// order, whatever order sessions or shards are filed in (called before
// Sessions counts the one it files).
func (c *ContextOverflow) takeMax(in, idx int64, id string) {
	if c.Sessions == 0 || in > c.MaxInput || (in == c.MaxInput && idx < c.MaxIndex) {
		c.MaxInput, c.MaxIndex, c.MaxSession = in, idx, id
	}
}

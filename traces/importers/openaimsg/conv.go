// Package openaimsg imports OpenAI chat-completions transcripts (messages
// with tool_calls and role "tool" results), and provides the message
// converter the tau-bench and tau2 importers share.
package openaimsg

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers/ingest"
)

// Conv converts OpenAI-style messages of one session into trace events.
// Calls that name no server (by an mcp__ prefix or a server field) are left
// to the pipeline to attribute.
type Conv struct {
	B   *ingest.Builder
	Rep *ingest.Report
	// ErrorPrefix, when set, marks tool results starting with it as errors
	// (for sources with no error flag).
	ErrorPrefix string
	// ContentErrors marks tool results whose content says they failed
	// (ingest.ContentMarksError) as errors.
	ContentErrors bool
	// CallSkip lists members of tool calls and results that carry nothing
	// beyond what the conversion keeps (consumed without a report).
	CallSkip []string

	// SystemPrompt is the text of the first system (or developer) message.
	SystemPrompt string
	systemSeen   bool

	prev      time.Time // time of the previous message, for request starts
	batchPrev time.Time // time of the previous event of the current call batch
	batch     []int     // tool_call events of the last assistant message
	req       string    // id of the last model request
}

// NewConv returns a converter adding to b.
func NewConv(b *ingest.Builder, rep *ingest.Report) *Conv {
	return &Conv{B: b, Rep: rep}
}

// Observe records the time of a message that produced no event (so the next
// model request starts after it).
func (c *Conv) Observe(t time.Time) {
	if !t.IsZero() {
		c.prev = t
	}
}

// Message converts one message. t is its time (zero when unknown); the
// caller has taken any time field from m already. Members of m that are not
// mapped are reported.
func (c *Conv) Message(m *ingest.Object, t time.Time) error {
	role, err := m.TakeString("role")
	if err != nil {
		return err
	}
	switch role {
	case "system", "developer":
		err = c.system(m)
	case "user":
		err = c.user(m, t)
	case "assistant":
		err = c.assistant(m, t)
	case "tool", "function":
		err = c.tool(m, role, t)
	default:
		c.Rep.Unmap(m.Field + " with role " + quoteRole(role))
		m.Rest(ingest.NewReport(""))
		return nil
	}
	if err != nil {
		return err
	}
	c.Observe(t)
	m.Rest(c.Rep)
	return nil
}

func quoteRole(r string) string {
	if r == "" {
		return `""`
	}
	return r
}

func (c *Conv) system(m *ingest.Object) error {
	text, err := Content(m, "content", c.Rep)
	if err != nil {
		return err
	}
	if c.systemSeen {
		c.Rep.Unmap(m.Field + " (system message after the first)")
		return nil
	}
	c.systemSeen = true
	c.SystemPrompt = text
	return nil
}

func (c *Conv) user(m *ingest.Object, t time.Time) error {
	text, err := Content(m, "content", c.Rep)
	if err != nil {
		return err
	}
	if text != "" {
		c.B.Add(traces.Event{Type: traces.UserMessage, T: t, Text: text})
	}
	return nil
}

func (c *Conv) assistant(m *ingest.Object, t time.Time) error {
	usage, err := TakeUsage(m, c.Rep)
	if err != nil {
		return err
	}
	c.Rep.StopReason(m.PeekString("finish_reason")) // and not mapped, as before
	start := t
	if !c.prev.IsZero() && !t.IsZero() && !c.prev.After(t) {
		start = c.prev
	}
	reqID, _ := m.TakeString("id")
	ri := c.B.Request(reqID, start, ingest.Millis(start, t), usage)
	c.req = c.B.At(ri).ID
	if model, _ := m.TakeString("model"); model != "" {
		if st := &c.B.Session().Events[0]; st.Model() == "" {
			st.EnsureStart().Model = model
		}
	}
	text, err := Content(m, "content", c.Rep)
	if err != nil {
		return err
	}
	if text != "" {
		c.B.Add(traces.Event{Type: traces.AssistantMessage, T: t, Text: text, Request: c.req})
	}
	c.batch = c.batch[:0]
	c.batchPrev = t
	calls, err := m.TakeArray("tool_calls")
	if err != nil {
		return err
	}
	for i, raw := range calls {
		tc, err := m.Elem("tool_calls", i, raw)
		if err != nil {
			return err
		}
		tc.Skip(c.CallSkip...)
		ev, err := ToolCall(tc, c.Rep)
		if err != nil {
			return err
		}
		ev.T, ev.Request = t, c.req
		c.batch = append(c.batch, c.B.ToolUse(ev, true))
	}
	if fc, err := m.TakeObject("function_call"); err != nil {
		return err
	} else if fc != nil {
		// The legacy single function call; its result is a role "function" message.
		ev, err := functionCall(fc, c.Rep)
		if err != nil {
			return err
		}
		ev.T, ev.Request = t, c.req
		c.batch = append(c.batch, c.B.ToolUse(ev, true))
	}
	return nil
}

// tool pairs a tool result with its call. The call starts when the previous
// event of its batch ended (the assistant message, or the previous result:
// calls of one message run one after another) and ends at the result.
func (c *Conv) tool(m *ingest.Object, role string, t time.Time) error {
	id, err := m.TakeString("tool_call_id")
	if err != nil {
		return err
	}
	if id == "" {
		if id, err = m.TakeString("id"); err != nil {
			return err
		}
	}
	if role == "function" {
		id = "" // legacy function results answer the (id-less) function call
	}
	m.Skip("name") // repeats the tool name of the call
	m.Skip(c.CallSkip...)
	text, err := Content(m, "content", c.Rep)
	if err != nil {
		return err
	}
	failed, err := resultFlags(m, c.Rep)
	if err != nil {
		return err
	}
	switch {
	case failed != "":
	case c.ErrorPrefix != "" && strings.HasPrefix(text, c.ErrorPrefix):
		failed = "result text starting with " + strconv.Quote(c.ErrorPrefix)
	case c.ContentErrors && ingest.ContentMarksError(text):
		failed = "result content (isError, is_error or a non-empty error member)"
	}
	i := c.B.Answer(id)
	if i < 0 {
		c.Rep.Unmap(m.Field + " (tool result without a matching call)")
		return nil
	}
	c.B.Result(i, text, failed)
	ev := c.B.At(i)
	if !t.IsZero() {
		c.B.MoveStart(i, c.batchPrev)
		ev.DurationMs = ingest.Millis(ev.T, t)
		c.batchPrev = t
	}
	return nil
}

// resultFlags reads the members of a tool result message that mark it as
// failed: error (true, or a non-empty string), is_error / isError (true) or
// status ("error", "failed", "failure"). It returns what marked it, or "".
func resultFlags(m *ingest.Object, rep *ingest.Report) (string, error) {
	failed := ""
	if raw := m.Take("error"); raw != nil {
		var b bool
		var s string
		switch {
		case json.Unmarshal(raw, &b) == nil:
			if b {
				failed = "error: true"
			}
		case json.Unmarshal(raw, &s) == nil:
			if strings.TrimSpace(s) != "" {
				failed = "error message"
			}
		default:
			return "", m.Errorf("error: want a boolean or a string")
		}
	}
	for _, k := range []string{"is_error", "isError"} {
		b, _, err := m.TakeBool(k)
		if err != nil {
			return "", err
		}
		if b && failed == "" {
			failed = k + ": true"
		}
	}
	status, err := m.TakeString("status")
	if err != nil {
		return "", err
	}
	switch strings.ToLower(status) {
	case "", "ok", "success", "succeeded", "completed":
	case "error", "failed", "failure":
		if failed == "" {
			failed = "status: " + status
		}
	default:
		rep.Unmap(m.Field + ".status (value other than ok/success/error/failed)")
	}
	return failed, nil
}

// serverFields are the members of a tool call that name its server.
var serverFields = []string{"server_name", "server", "server_label"}

// ToolCall reads one element of tool_calls: the chat-completions shape
// {id, type, function:{name, arguments}} or the flat {id, name, arguments}.
// A server named by a member (server_name, server or server_label, on the
// call or its function) or by an mcp__<server>__ prefix goes to ev.Server.
func ToolCall(tc *ingest.Object, rep *ingest.Report) (traces.Event, error) {
	var ev traces.Event
	id, err := tc.TakeString("id")
	if err != nil {
		return ev, err
	}
	ev.CallID = id
	if typ, _ := tc.TakeString("type"); typ != "" && typ != "function" {
		rep.Unmap(tc.Field + " of type " + typ)
	}
	src := tc
	if fn, err := tc.TakeObject("function"); err != nil {
		return ev, err
	} else if fn != nil {
		defer fn.Rest(rep)
		src = fn
	}
	if ev.Tool, err = src.TakeString("name"); err != nil {
		return ev, err
	}
	if ev.Tool == "" {
		return ev, tc.Errorf("tool call without a name")
	}
	for _, o := range []*ingest.Object{tc, src} {
		for _, k := range serverFields {
			s, err := o.TakeString(k)
			if err != nil {
				return ev, err
			}
			if ev.Server == "" {
				ev.Server = strings.TrimSpace(s)
			}
		}
	}
	tool, prefixed := ingest.SplitMCPName(ev.Tool)
	if ev.Server == "" {
		ev.Server = prefixed
	}
	ev.Tool = tool
	args, ok := ingest.Args(src.Take("arguments"))
	if !ok {
		rep.Unmap(src.Field + ".arguments (not a JSON object, or one with a key twice; kept as a string)")
	}
	ev.Args = args
	return ev, nil
}

func functionCall(fc *ingest.Object, rep *ingest.Report) (traces.Event, error) {
	var ev traces.Event
	name, err := fc.TakeString("name")
	if err != nil {
		return ev, err
	}
	if name == "" {
		return ev, fc.Errorf("function call without a name")
	}
	ev.Tool, ev.Server = ingest.SplitMCPName(name)
	args, ok := ingest.Args(fc.Take("arguments"))
	if !ok {
		rep.Unmap(fc.Field + ".arguments (not a JSON object, or one with a key twice; kept as a string)")
	}
	ev.Args = args
	fc.Rest(rep)
	return ev, nil
}

// Content reads member key of m as message content: a string, or an array
// of parts whose text parts are joined with newlines. Other parts are
// reported as unmapped.
func Content(m *ingest.Object, key string, rep *ingest.Report) (string, error) {
	raw := m.Take(key)
	if raw == nil {
		return "", nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var parts []json.RawMessage
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", m.Errorf("%s: want a string or an array of parts", key)
	}
	var texts []string
	for i, p := range parts {
		part, err := m.Elem(key, i, p)
		if err != nil {
			return "", err
		}
		typ, _ := part.TakeString("type")
		switch typ {
		case "text", "input_text", "output_text":
			t, err := part.TakeString("text")
			if err != nil {
				return "", err
			}
			texts = append(texts, t)
			part.Rest(rep)
		default:
			rep.Unmap(part.Field + " of type " + quoteRole(typ))
			part.Rest(ingest.NewReport(""))
		}
	}
	return strings.Join(texts, "\n"), nil
}

// TakeUsage reads an OpenAI usage member: prompt_tokens (which includes
// cached tokens) and completion_tokens, or the Responses API's
// input_tokens/output_tokens. Cached tokens (prompt_tokens_details.cached_tokens)
// become CacheRead and are subtracted from the input. It returns nil when m
// has no usage.
func TakeUsage(m *ingest.Object, rep *ingest.Report) (*traces.Usage, error) {
	u, err := m.TakeObject("usage")
	if err != nil || u == nil {
		return nil, err
	}
	var usage traces.Usage
	var missing []string
	in, ok, err := u.TakeInt("prompt_tokens")
	if err != nil {
		return nil, err
	}
	if !ok {
		if in, ok, err = u.TakeInt("input_tokens"); err != nil {
			return nil, err
		} else if !ok {
			missing = append(missing, "prompt_tokens")
		}
	}
	out, ok, err := u.TakeInt("completion_tokens")
	if err != nil {
		return nil, err
	}
	if !ok {
		if out, ok, err = u.TakeInt("output_tokens"); err != nil {
			return nil, err
		} else if !ok {
			missing = append(missing, "completion_tokens")
		}
	}
	var cached int64
	for _, key := range []string{"prompt_tokens_details", "input_tokens_details"} {
		d, err := u.TakeObject(key)
		if err != nil {
			return nil, err
		}
		if d == nil {
			continue
		}
		if n, _, err := d.TakeInt("cached_tokens"); err != nil {
			return nil, err
		} else if n > 0 {
			cached = n
		}
		d.Rest(rep)
	}
	if cached > in {
		rep.Unmap(u.Field + " (cached_tokens above prompt_tokens; cache read capped)")
		cached = in
	}
	usage.Input, usage.CacheRead, usage.Output = in-cached, cached, out
	u.Skip("total_tokens") // input + output
	for _, key := range []string{"completion_tokens_details", "output_tokens_details"} {
		if d, err := u.TakeObject(key); err == nil && d != nil {
			// reasoning tokens are part of completion_tokens already
			d.Skip("reasoning_tokens")
			d.Rest(rep)
		}
	}
	u.Rest(rep)
	if len(missing) > 0 {
		rep.Unmap(ingest.IncompleteUsage(u.Field, missing))
		return nil, nil
	}
	return &usage, nil
}

package sweagent

import (
	"encoding/json"
	"math"
	"strings"
	"time"

	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers/ingest"
	"github.com/defersim/defersim/traces/importers/openaimsg"
)

// message is one element of history, read.
type message struct {
	role, text      string
	thought, action string
	hasThought      bool
	demo            bool
	calls           []traces.Event // function calling: tool_calls
	callIDs         []string       // tool_call_ids of a tool message
}

// readHistory reads every history message. Members that repeat what the
// others say (message_type, agent) are consumed; the rest is counted.
func readHistory(top *ingest.Object, history []json.RawMessage, rep *ingest.Report) ([]*message, error) {
	msgs := make([]*message, 0, len(history))
	agents := map[string]bool{}
	for i, raw := range history {
		o, err := top.Elem("history", i, raw)
		if err != nil {
			return nil, err
		}
		m := &message{}
		if m.role, err = o.TakeString("role"); err != nil {
			return nil, err
		}
		if m.text, err = openaimsg.Content(o, "content", rep); err != nil {
			return nil, err
		}
		m.hasThought = o.Has("thought")
		if m.thought, err = o.TakeString("thought"); err != nil {
			return nil, err
		}
		if m.action, err = o.TakeString("action"); err != nil {
			return nil, err
		}
		if m.demo, _, err = o.TakeBool("is_demo"); err != nil {
			return nil, err
		}
		agent, err := o.TakeString("agent")
		if err != nil {
			return nil, err
		}
		agents[agent] = true
		o.Skip("message_type") // system_prompt / observation / action: repeats the role
		calls, err := o.TakeArray("tool_calls")
		if err != nil {
			return nil, err
		}
		for j, craw := range calls {
			tc, err := o.Elem("tool_calls", j, craw)
			if err != nil {
				return nil, err
			}
			ev, err := openaimsg.ToolCall(tc, rep)
			if err != nil {
				return nil, err
			}
			tc.Rest(rep)
			m.calls = append(m.calls, ev)
		}
		if ids := o.Take("tool_call_ids"); ids != nil {
			if err := json.Unmarshal(ids, &m.callIDs); err != nil {
				return nil, o.Errorf("tool_call_ids: want an array of strings")
			}
		}
		o.Rest(rep)
		msgs = append(msgs, m)
	}
	if len(agents) > 1 {
		rep.Unmap("history[].agent (messages of several agents, imported as one conversation)")
	}
	return msgs, nil
}

// step is one element of trajectory: one model step with its action, the
// observation it got and the action's execution time.
type step struct {
	action, thought, response, observation string
	execMs                                 int64 // 0: not recorded
}

// readSteps reads the trajectory's steps.
func readSteps(top *ingest.Object, steps []json.RawMessage) ([]*step, []*ingest.Object, error) {
	out := make([]*step, 0, len(steps))
	objs := make([]*ingest.Object, 0, len(steps))
	for i, raw := range steps {
		o, err := top.Elem("trajectory", i, raw)
		if err != nil {
			return nil, nil, err
		}
		s := &step{}
		for _, f := range []struct {
			key string
			dst *string
		}{{"action", &s.action}, {"thought", &s.thought}, {"response", &s.response}, {"observation", &s.observation}} {
			if *f.dst, err = o.TakeString(f.key); err != nil {
				return nil, nil, err
			}
		}
		secs, ok, err := o.TakeFloat("execution_time")
		if err != nil {
			return nil, nil, err
		}
		if ok && secs > 0 && secs < 1e9 {
			s.execMs = int64(math.Round(secs * 1000))
		}
		out = append(out, s)
		objs = append(objs, o)
	}
	return out, objs, nil
}

// conv turns the history into events and lines the trajectory's steps up
// with them.
type conv struct {
	tr  *traj
	b   *ingest.Builder
	rep *ingest.Report
	// asst holds, per model step taken from history, its action and the
	// index of its (first) tool call event (-1: none).
	asst []asstStep
}

type asstStep struct {
	action string
	call   int
}

func (c *conv) history(msgs []*message) error {
	systemSeen := false
	for _, m := range msgs {
		switch {
		case m.role == "system" && !m.demo:
			if systemSeen {
				c.rep.Unmap("history[] system message after the first")
			}
			systemSeen = true
		case m.demo && m.role == "assistant":
			// A demonstration's model turn: prompt text no request produced.
			c.b.Add(traces.Event{Type: traces.AssistantMessage, Text: m.text})
			c.rep.Convert("history[].is_demo: demonstration kept as prompt text (user, or assistant without a request)")
		case m.demo:
			c.b.Add(traces.Event{Type: traces.UserMessage, Text: m.text})
			c.rep.Convert("history[].is_demo: demonstration kept as prompt text (user, or assistant without a request)")
		case m.role == "assistant":
			c.assistant(m)
		case m.role == "tool":
			c.toolResult(m)
		case m.role == "user":
			// In a thought-action run the environment's observation comes
			// back as a user message: the result of the pending action.
			if i := c.b.Answer(""); i >= 0 && c.tr.mode == ModeThoughtAction {
				ingest.SetResult(c.b.At(i), m.text, false)
				continue
			}
			c.b.Add(traces.Event{Type: traces.UserMessage, Text: m.text})
		default:
			c.rep.Unmap("history[] message of role " + quote(m.role))
		}
	}
	return nil
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// assistant adds one model step: its request, its thought as text and its
// tool call (from tool_calls, or parsed from the action text).
func (c *conv) assistant(m *message) {
	ri := c.b.Request("", time.Time{}, 0, nil)
	req := c.b.At(ri).ID
	text := m.text
	if m.hasThought && len(m.calls) == 0 && c.tr.mode == ModeThoughtAction {
		text = m.thought // the action follows as the call's arguments
	}
	if strings.TrimSpace(text) != "" {
		c.b.Add(traces.Event{Type: traces.AssistantMessage, Request: req, Text: text})
	}
	first := -1
	if len(m.calls) > 0 {
		for _, ev := range m.calls {
			ev.Type, ev.Request = traces.ToolCall, req
			i := c.b.Call(ev)
			if first < 0 {
				first = i
			}
		}
	} else if c.tr.mode == ModeThoughtAction {
		first = c.action(req, m.action, true)
	}
	c.asst = append(c.asst, asstStep{action: m.action, call: first})
}

// action adds the tool call an action text stands for, awaiting its
// observation when await is set. It returns the call's index (-1: none).
func (c *conv) action(req, text string, await bool) int {
	tool, args, how := parseAction(text, c.tr.cmds)
	c.rep.Convert(how)
	if tool == "" {
		return -1
	}
	ev := traces.Event{Type: traces.ToolCall, Request: req, Tool: tool, Args: args}
	if await {
		return c.b.Call(ev)
	}
	return c.b.DoneCall(ev)
}

// toolResult pairs a function-calling tool message with its calls.
func (c *conv) toolResult(m *message) {
	ids := m.callIDs
	if len(ids) == 0 {
		ids = []string{""}
	}
	for _, id := range ids {
		i := c.b.Answer(id)
		if i < 0 {
			c.rep.Unmap("history[] tool message answering no call")
			continue
		}
		ingest.SetResult(c.b.At(i), m.text, false)
	}
}

// align lines the trajectory's steps up with the model steps of the
// history, in order, by their action: a matched step gives its call the
// recorded execution time. Steps after the last matched one (SWE-agent may
// not write its last step into history) are added from the trajectory,
// when every history step was matched; other unmatched steps are counted.
func (c *conv) align(steps []*step, objs []*ingest.Object) {
	j, unmatched := 0, 0
	for _, a := range c.asst {
		k := j
		for k < len(steps) && strings.TrimSpace(steps[k].action) != strings.TrimSpace(a.action) {
			k++
		}
		if k == len(steps) {
			unmatched++
			continue
		}
		c.rep.UnmapN("trajectory[] step absent from history (left out)", k-j)
		if a.call >= 0 {
			ev := c.b.At(a.call)
			if steps[k].execMs > 0 {
				ev.DurationMs = steps[k].execMs
			}
			if ev.Status == "" && c.b.Settle(a.call) {
				// No observation followed in history (SWE-agent writes none
				// after the last step): the step has it.
				ingest.SetResult(ev, steps[k].observation, false)
				c.rep.Convert("history step without its observation: result taken from trajectory[].observation")
			}
		}
		j = k + 1
	}
	c.rep.UnmapN("history model step without a trajectory step (no execution time)", unmatched)
	tail := steps[j:]
	if unmatched > 0 || (len(c.asst) > 0 && j == 0) {
		c.rep.UnmapN("trajectory[] step absent from history (left out)", len(tail))
		tail = nil
	}
	for _, s := range tail {
		c.rep.Convert("trajectory[] step absent from the end of history: added from the trajectory")
		ri := c.b.Request("", time.Time{}, 0, nil)
		req := c.b.At(ri).ID
		text := s.thought
		if text == "" {
			text = s.response
		}
		if strings.TrimSpace(text) != "" {
			c.b.Add(traces.Event{Type: traces.AssistantMessage, Request: req, Text: text})
		}
		if i := c.action(req, s.action, false); i >= 0 {
			ingest.SetResult(c.b.At(i), s.observation, false)
			c.b.At(i).DurationMs = s.execMs
		}
	}
	for _, o := range objs {
		if v := o.Take("state"); !ingest.IsEmpty(v) {
			c.rep.Unmap("trajectory[].state (open file and working directory after the step)")
		}
		if v := o.Take("messages"); !ingest.IsEmpty(v) {
			c.rep.Unmap("trajectory[].messages (the messages of the step's request; history holds the conversation)")
		}
		o.Rest(c.rep)
	}
}

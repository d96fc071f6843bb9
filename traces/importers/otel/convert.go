package otel

import (
	"encoding/json"
	"sort"
	"strings"
	"time"

	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers/ingest"
	"github.com/defersim/defersim/traces/importers/toolschema"
)

// Operation names (gen_ai.operation.name) that are model requests.
var requestOps = map[string]bool{"chat": true, "text_completion": true, "generate_content": true}

// Attributes a chat span maps; others are reported.
var chatAttrs = map[string]bool{
	"gen_ai.operation.name": true, "gen_ai.conversation.id": true,
	"gen_ai.request.model": true, "gen_ai.response.model": true, "gen_ai.response.id": true,
	"gen_ai.usage.input_tokens": true, "gen_ai.usage.output_tokens": true,
	"gen_ai.usage.cache_read.input_tokens": true, "gen_ai.usage.cache_creation.input_tokens": true,
	"gen_ai.input.messages": true, "gen_ai.output.messages": true, "gen_ai.system_instructions": true,
	"gen_ai.tool.definitions": true, "gen_ai.provider.name": true, "gen_ai.system": true,
}

// Attributes an execute_tool span maps; others are reported.
var toolAttrs = map[string]bool{
	"gen_ai.operation.name": true, "gen_ai.conversation.id": true,
	"gen_ai.tool.name": true, "gen_ai.tool.call.id": true, "gen_ai.tool.call.arguments": true,
	"gen_ai.tool.call.result": true, "error.type": true, "gen_ai.provider.name": true, "gen_ai.system": true,
}

// Attributes an invoke_agent or create_agent span maps; others are reported.
var agentAttrs = map[string]bool{
	"gen_ai.operation.name": true, "gen_ai.conversation.id": true,
	"gen_ai.agent.name": true, "gen_ai.agent.id": true,
}

// outputCall is a tool call a chat span's output names.
type outputCall struct {
	req  string
	name string
	args json.RawMessage
	at   time.Time
}

// converter turns the spans of one session into events.
type converter struct {
	b       *ingest.Builder
	rep     *ingest.Report
	users   int             // user messages seen in inputs so far
	named   map[string]bool // call ids named by outputs and not yet executed
	lastReq string
	schemas map[string]bool
	// uncachedInput: the session's input_tokens exclude cached tokens
	// (see sessionExcludesCached).
	uncachedInput bool
}

func convert(g *sessionSpans, opts *ingest.Options, rep *ingest.Report) (*ingest.Session, error) {
	server := opts.ServerName(DefaultServer)
	b := ingest.NewBuilder(g.id, "", server)
	meta := map[string]string{"source_format": Format}
	first := g.spans[0]
	for _, k := range sortedKeys(first.resource) {
		v := str(first.resource, k)
		if ingest.IsCredential(k, v) {
			rep.DropCredential("resource attribute " + k)
			continue
		}
		meta["resource."+k] = v
	}
	if first.scope != "" {
		meta["scope"] = first.scope
	}
	b.Add(traces.Event{Type: traces.SessionStart, T: first.start, StartFields: &traces.StartFields{Meta: meta}})
	b.UseGateway(&opts.Gateway)
	c := &converter{b: b, rep: rep, named: map[string]bool{}, schemas: map[string]bool{}}
	if c.uncachedInput = sessionExcludesCached(g.spans); c.uncachedInput {
		rep.Convert(excludesCachedNote)
	}
	var end time.Time
	for _, sp := range g.spans {
		if sp.end.After(end) {
			end = sp.end
		}
		op := spanOp(sp)
		for _, e := range sp.Events {
			rep.Unmap("span event " + e.Name)
		}
		switch {
		case requestOps[op]:
			if err := c.chat(sp); err != nil {
				return nil, err
			}
		case op == "execute_tool":
			c.tool(sp)
		case op == "invoke_agent" || op == "create_agent":
			for _, k := range []string{"gen_ai.agent.name", "gen_ai.agent.id"} {
				if v := str(sp.attrs, k); v != "" {
					meta[strings.TrimPrefix(k, "gen_ai.")] = v
				}
			}
			c.unmapped(op+" span", sp.attrs, agentAttrs)
		default:
			rep.Unmap("span with operation " + orQuote(op))
		}
	}
	return b.End(end, rep), nil
}

// spanOp is a span's operation: gen_ai.operation.name, else the span
// name's first word.
func spanOp(sp *span) string {
	op := str(sp.attrs, "gen_ai.operation.name")
	if op == "" {
		op, _, _ = strings.Cut(sp.Name, " ")
	}
	return op
}

func orQuote(s string) string {
	if s == "" {
		return `""`
	}
	return s
}

// chat converts a model request span: new user messages from its input,
// the request with timing and usage, the assistant's text and the tool
// calls its output names.
func (c *converter) chat(sp *span) error {
	a := sp.attrs
	st := c.b.At(0)
	if st.Model() == "" {
		st.EnsureStart().Model = str(a, "gen_ai.response.model")
		if st.Model() == "" {
			st.EnsureStart().Model = str(a, "gen_ai.request.model")
		}
	}
	if p := str(a, "gen_ai.provider.name"); p != "" {
		st.Meta()["provider"] = p
	} else if p := str(a, "gen_ai.system"); p != "" {
		st.Meta()["provider"] = p
	}
	if st.SystemPrompt() == "" {
		st.EnsureStart().SystemPrompt = partsText(jsonAttr(a, "gen_ai.system_instructions"))
	}
	if defs := jsonAttr(a, "gen_ai.tool.definitions"); defs != nil {
		c.toolDefinitions(defs)
	}
	for _, text := range c.newUserTexts(jsonAttr(a, "gen_ai.input.messages")) {
		c.b.Add(traces.Event{Type: traces.UserMessage, T: sp.start, Text: text})
	}
	id := str(a, "gen_ai.response.id")
	if id == "" {
		id = sp.SpanID
	}
	if reasons, ok := a["gen_ai.response.finish_reasons"].([]any); ok { // and reported as not mapped, as before
		for _, r := range reasons {
			if s, ok := r.(string); ok {
				c.rep.StopReason(s)
			}
		}
	}
	ri := c.b.Request(id, sp.start, ingest.Millis(sp.start, sp.end), c.usage(a))
	c.lastReq = c.b.At(ri).ID
	text, calls := outputParts(jsonAttr(a, "gen_ai.output.messages"))
	if text != "" {
		c.b.Add(traces.Event{Type: traces.AssistantMessage, T: sp.end, Text: text, Request: c.lastReq})
	}
	for _, oc := range calls {
		// Recorded at once; an execute_tool span with the same id completes it.
		oc.req, oc.at = c.lastReq, sp.end
		c.addCall(oc.outputCall, oc.id, false)
		if oc.id != "" {
			c.named[oc.id] = true
		}
	}
	if isError(sp.Status.Code) {
		c.rep.Unmap("chat span with error status (trace v1 has no request status)")
	}
	c.unmapped("chat span", a, chatAttrs)
	return nil
}

// tool converts an execute_tool span into a tool call (or, for a gateway
// search tool, a search) with its result.
func (c *converter) tool(sp *span) {
	a := sp.attrs
	name := str(a, "gen_ai.tool.name")
	if name == "" {
		name = strings.TrimSpace(strings.TrimPrefix(sp.Name, "execute_tool"))
	}
	if name == "" {
		c.rep.Unmap("execute_tool span without a tool name")
		return
	}
	id := str(a, "gen_ai.tool.call.id")
	i := -1
	if c.named[id] {
		if i = c.b.Answer(id); i >= 0 {
			c.b.MoveStart(i, sp.start)
			ev := c.b.At(i)
			if args := jsonAttr(a, "gen_ai.tool.call.arguments"); args != nil && ev.Type == traces.ToolCall && len(ev.Args) == 0 {
				ev.Args, _ = ingest.Args(args)
			}
		}
		delete(c.named, id)
	}
	if i < 0 {
		oc := outputCall{req: c.lastReq, name: name, args: jsonAttr(a, "gen_ai.tool.call.arguments"), at: sp.start}
		i = c.addCall(oc, id, true)
		if _, recorded := a["gen_ai.tool.call.arguments"]; !recorded {
			// No chat span's output recorded the call and its span holds
			// no arguments: content capture was off, not a call without
			// arguments (the replay validates no such call).
			if ev := c.b.At(i); ev.Type == traces.ToolCall && len(ev.Args) == 0 {
				ev.EnsureChange().ArgsUnrecorded = true
			}
		}
	}
	result := str(a, "gen_ai.tool.call.result")
	_, recorded := a["gen_ai.tool.call.result"]
	failed := ""
	switch {
	case isError(sp.Status.Code):
		failed = "span status ERROR"
	case str(a, "error.type") != "":
		failed = "error.type"
	case ingest.ContentMarksError(result):
		failed = "result content (isError, is_error or a non-empty error member)"
	}
	c.b.Result(i, result, failed)
	ev := c.b.At(i)
	if !recorded && ev.Type == traces.ToolCall {
		// Content capture off: the result's size is unknown, not 0 (the
		// replay counts such a call in calls_result_unrecorded).
		c.rep.CallsWithoutResult++
		ev.EnsureChange().ResultUnrecorded = true
	}
	ev.DurationMs = ingest.Millis(ev.T, sp.end)
	if failed != "" && ev.Type == traces.ToolCall {
		ev.Error = sp.Status.Message
		if ev.Error == "" {
			ev.Error = str(a, "error.type")
		}
		if ev.Error == "" {
			ev.Error = result
		}
	}
	c.unmapped("execute_tool span", a, toolAttrs)
}

// addCall adds a tool call (through the gateway mapping); an answered call
// (its result is on the span) is not left awaiting one.
func (c *converter) addCall(oc outputCall, id string, answered bool) int {
	tool, server := ingest.SplitMCPName(oc.name)
	args, ok := ingest.Args(oc.args)
	if !ok {
		c.rep.Unmap("tool call arguments (not a JSON object, or one with a key twice; kept as a string)")
	}
	ev := traces.Event{T: oc.at, Request: oc.req, CallID: id, Tool: tool, Server: server, Args: args}
	return c.b.ToolUse(ev, !answered)
}

// toolDefinitions adds gen_ai.tool.definitions as a schema source.
func (c *converter) toolDefinitions(defs json.RawMessage) {
	key := string(defs)
	if c.schemas[key] {
		return
	}
	c.schemas[key] = true
	sets, dropped, err := toolschema.Parse("gen_ai.tool.definitions", defs)
	if err != nil {
		c.rep.Unmap("gen_ai.tool.definitions (unreadable: " + err.Error() + ")")
		return
	}
	for k, n := range dropped {
		c.rep.ToolDefinitionsDropped["gen_ai.tool.definitions"+k] += n
	}
	s := c.b.Session()
	s.Schemas = append(s.Schemas, sets...)
}

func (c *converter) unmapped(what string, a map[string]any, known map[string]bool) {
	for _, k := range sortedKeys(a) {
		if known[k] {
			continue
		}
		if ingest.IsCredential(k, str(a, k)) {
			c.rep.DropCredential(what + " attribute " + k)
			continue
		}
		c.rep.Unmap(what + " attribute " + k)
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Package anthropicmsg imports Anthropic Messages transcripts (content blocks
// text, tool_use, tool_result, with usage split into uncached input, cache
// read and cache creation), and provides the block converter the
// claude-code importer shares.
package anthropicmsg

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers/ingest"
)

// searchTools are the names runtimes give their tool-search tool; calls of
// them become tool_search events.
var searchTools = []string{"tool_search", "ToolSearch", "search_tools",
	"tool_search_tool_regex", "tool_search_tool_bm25"}

// IsSearchTool reports whether name is a tool-search tool.
func IsSearchTool(name string) bool {
	for _, s := range searchTools {
		if name == s {
			return true
		}
	}
	return false
}

// Conv converts Anthropic content blocks of one session into trace events.
// Calls that name no server (by an mcp__ prefix or server_name) are left to
// the pipeline to attribute.
type Conv struct {
	B   *ingest.Builder
	Rep *ingest.Report
	// ServerTools is the server of Anthropic-executed tools (server_tool_use).
	ServerTools string
	// ContentErrors marks tool results whose content says they failed
	// (ingest.ContentMarksError) as errors.
	ContentErrors bool
}

// NewConv returns a converter adding to b.
func NewConv(b *ingest.Builder, rep *ingest.Report) *Conv {
	return &Conv{B: b, Rep: rep, ServerTools: "anthropic"}
}

// blockList reads member key of m as content: a string is one text block.
func blockList(m *ingest.Object, key string) (text string, blocks []json.RawMessage, err error) {
	raw := m.Take(key)
	if raw == nil {
		return "", nil, nil
	}
	if json.Unmarshal(raw, &text) == nil {
		return text, nil, nil
	}
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return "", nil, m.Errorf("%s: want a string or an array of content blocks", key)
	}
	return "", blocks, nil
}

// Assistant converts the content of an assistant message produced by
// request req at time t: text, tool_use (tool_call, or tool_search for a
// search tool), server_tool_use and mcp_tool_use, and the results of
// server-executed tools that arrive in the same message.
func (c *Conv) Assistant(m *ingest.Object, key string, t time.Time, req string) error {
	text, blocks, err := blockList(m, key)
	if err != nil {
		return err
	}
	var texts []string
	if text != "" {
		texts = append(texts, text)
	}
	flush := func() {
		if len(texts) > 0 {
			c.B.Add(traces.Event{Type: traces.AssistantMessage, T: t, Text: strings.Join(texts, "\n"), Request: req})
			texts = nil
		}
	}
	for i, raw := range blocks {
		b, err := m.Elem(key, i, raw)
		if err != nil {
			return err
		}
		typ, _ := b.TakeString("type")
		switch {
		case typ == "text":
			s, err := b.TakeString("text")
			if err != nil {
				return err
			}
			b.Skip("citations")
			texts = append(texts, s)
		case typ == "tool_use" || typ == "server_tool_use" || typ == "mcp_tool_use":
			flush()
			if err := c.toolUse(b, typ, t, req); err != nil {
				return err
			}
		case strings.HasSuffix(typ, "_tool_result"):
			if err := c.result(b, typ, t); err != nil {
				return err
			}
		default:
			c.Rep.Unmap(b.Field + " of type " + orEmpty(typ))
			b.Rest(ingest.NewReport(""))
		}
		b.Rest(c.Rep)
	}
	flush()
	return nil
}

func orEmpty(s string) string {
	if s == "" {
		return `""`
	}
	return s
}

func (c *Conv) toolUse(b *ingest.Object, typ string, t time.Time, req string) error {
	id, err := b.TakeString("id")
	if err != nil {
		return err
	}
	name, err := b.TakeString("name")
	if err != nil {
		return err
	}
	if name == "" {
		return b.Errorf("%s without a name", typ)
	}
	input := b.Take("input")
	if IsSearchTool(name) {
		// The runtime's own tool search: its query by the default fields.
		var defaults *ingest.Gateway
		c.B.Search(id, traces.Event{T: t, Request: req, ChangeFields: &traces.ChangeFields{Query: defaults.Query(input)}})
		return nil
	}
	ev := traces.Event{T: t, Request: req, CallID: id}
	switch typ {
	case "mcp_tool_use":
		ev.Tool = name
		if ev.Server, err = b.TakeString("server_name"); err != nil {
			return err
		}
	case "server_tool_use":
		ev.Tool, ev.Server = name, c.ServerTools
	default:
		ev.Tool, ev.Server = ingest.SplitMCPName(name)
	}
	args, ok := ingest.Args(input)
	if !ok {
		c.Rep.Unmap(b.Field + ".input (not a JSON object, or one with a key twice; kept as a string)")
	}
	ev.Args = args
	c.B.ToolUse(ev, true)
	return nil
}

// User converts the content of a user message at time t: text becomes a user
// event, tool_result blocks complete the calls they answer.
func (c *Conv) User(m *ingest.Object, key string, t time.Time) error {
	text, blocks, err := blockList(m, key)
	if err != nil {
		return err
	}
	var texts []string
	if text != "" {
		texts = append(texts, text)
	}
	for i, raw := range blocks {
		b, err := m.Elem(key, i, raw)
		if err != nil {
			return err
		}
		typ, _ := b.TakeString("type")
		switch {
		case typ == "text":
			s, err := b.TakeString("text")
			if err != nil {
				return err
			}
			texts = append(texts, s)
		case typ == "tool_result" || strings.HasSuffix(typ, "_tool_result"):
			if err := c.result(b, typ, t); err != nil {
				return err
			}
		default:
			c.Rep.Unmap(b.Field + " of type " + orEmpty(typ))
			b.Rest(ingest.NewReport(""))
		}
		b.Skip("cache_control")
		b.Rest(c.Rep)
	}
	if len(texts) > 0 {
		c.B.Add(traces.Event{Type: traces.UserMessage, T: t, Text: strings.Join(texts, "\n")})
	}
	return nil
}

// result completes the call (or search) that a *tool_result block answers.
// Its content is text, text blocks, or (for tool search) tool_reference
// blocks naming the tools found.
func (c *Conv) result(b *ingest.Object, typ string, t time.Time) error {
	id, err := b.TakeString("tool_use_id")
	if err != nil {
		return err
	}
	isErr, _, err := b.TakeBool("is_error")
	if err != nil {
		return err
	}
	text, names, errCode, err := resultContent(b)
	if err != nil {
		return err
	}
	failed := ""
	switch {
	case isErr:
		failed = "is_error: true"
	case errCode != "":
		failed = "error_code"
	case c.ContentErrors && ingest.ContentMarksError(text):
		failed = "result content (isError, is_error or a non-empty error member)"
	}
	if errCode != "" && text == "" {
		text = errCode
	}
	i := c.B.Answer(id)
	if i < 0 {
		c.Rep.Unmap(b.Field + " (" + typ + " without a matching call)")
		return nil
	}
	ev := c.B.At(i)
	if ev.Type == traces.ToolSearch {
		// trace v1 lists returned tools as the catalog names them: a
		// tool_reference to mcp__<server>__<tool> (Claude Code) is <tool>.
		for k, n := range names {
			names[k], _ = ingest.SplitMCPName(n)
		}
		ev.EnsureChange().Returned = names
		c.B.Result(i, text, failed)
		return nil
	}
	c.B.Result(i, text, failed)
	ev.DurationMs = ingest.Millis(ev.T, t)
	return nil
}

// resultContent reads a result block's content: a string; an array of
// blocks (text joined, tool_reference names collected, others kept as
// JSON); or an object (a server tool's result: tool references collected,
// an error_code reported, the rest kept as JSON).
func resultContent(b *ingest.Object) (text string, names []string, errCode string, err error) {
	raw := b.Take("content")
	if raw == nil {
		return "", nil, "", nil
	}
	if json.Unmarshal(raw, &text) == nil {
		return text, nil, "", nil
	}
	var blocks []json.RawMessage
	if json.Unmarshal(raw, &blocks) == nil {
		var texts []string
		for _, bl := range blocks {
			var blk struct {
				Type     string `json:"type"`
				Text     string `json:"text"`
				ToolName string `json:"tool_name"`
			}
			if json.Unmarshal(bl, &blk) != nil {
				continue
			}
			switch blk.Type {
			case "text":
				texts = append(texts, blk.Text)
			case "tool_reference":
				names = append(names, blk.ToolName)
			default:
				texts = append(texts, string(ingest.Compact(bl)))
			}
		}
		return strings.Join(texts, "\n"), names, "", nil
	}
	var obj struct {
		ErrorCode      string `json:"error_code"`
		ToolReferences []struct {
			ToolName string `json:"tool_name"`
		} `json:"tool_references"`
	}
	if json.Unmarshal(raw, &obj) != nil {
		return "", nil, "", b.Errorf("content: want a string, blocks or an object")
	}
	for _, r := range obj.ToolReferences {
		names = append(names, r.ToolName)
	}
	return string(ingest.Compact(raw)), names, obj.ErrorCode, nil
}

// TakeUsage reads an Anthropic usage member: input_tokens is the uncached
// input, cache_read_input_tokens and cache_creation_input_tokens the cached
// parts, output_tokens the output. The 5-minute/1-hour split of cache
// creation has no place in trace v1 and is reported when the 1-hour part is
// used. It returns nil when m has no usage.
func TakeUsage(m *ingest.Object, rep *ingest.Report) (*traces.Usage, error) {
	u, err := m.TakeObject("usage")
	if err != nil || u == nil {
		return nil, err
	}
	var usage traces.Usage
	var missing []string
	for _, f := range []struct {
		key      string
		dst      *int64
		required bool
	}{{"input_tokens", &usage.Input, true}, {"cache_read_input_tokens", &usage.CacheRead, false},
		{"cache_creation_input_tokens", &usage.CacheWrite, false}, {"output_tokens", &usage.Output, true}} {
		n, ok, err := u.TakeInt(f.key)
		if err != nil {
			return nil, err
		}
		if n < 0 {
			return nil, u.Errorf("%s: negative", f.key)
		}
		if f.required && !ok {
			missing = append(missing, f.key)
		}
		*f.dst = n
	}
	if cc, err := u.TakeObject("cache_creation"); err != nil {
		return nil, err
	} else if cc != nil {
		cc.Skip("ephemeral_5m_input_tokens")
		if n, _, err := cc.TakeInt("ephemeral_1h_input_tokens"); err != nil {
			return nil, err
		} else if n > 0 {
			rep.Unmap(cc.Field + ".ephemeral_1h_input_tokens (cache write TTL split not expressible)")
		}
		cc.Rest(rep)
	}
	u.Rest(rep)
	if len(missing) > 0 {
		rep.Unmap(ingest.IncompleteUsage(u.Field, missing))
		return nil, nil
	}
	return &usage, nil
}

// MaxUsage returns the field-wise maximum of a and b (either may be nil).
func MaxUsage(a, b *traces.Usage) *traces.Usage {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	return &traces.Usage{Input: max(a.Input, b.Input), CacheRead: max(a.CacheRead, b.CacheRead),
		CacheWrite: max(a.CacheWrite, b.CacheWrite), Output: max(a.Output, b.Output)}
}

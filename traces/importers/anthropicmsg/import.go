package anthropicmsg

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers/ingest"
	"github.com/defersim/defersim/traces/importers/toolschema"
)

// Format is the format name of this importer.
const Format = "anthropic-messages"

// DefaultServer is the server of tools that name none.
const DefaultServer = "anthropic-messages"

// Importer reads Anthropic Messages transcripts: one conversation per file
// (an object {"system", "tools", "messages":[…]} or a bare message array) or
// one per line (JSON Lines of either).
type Importer struct{}

// New returns an anthropic-messages importer.
func New() *Importer { return &Importer{} }

// ImportFile imports every conversation of the file at path.
func (im *Importer) ImportFile(path string, opts *ingest.Options, sink ingest.Sink, rep *ingest.Report) error {
	data, err := ingest.ReadFile(path)
	if err != nil {
		return err
	}
	return im.Import(filepath.Base(path), bytes.NewReader(data), opts, sink, rep)
}

// Import imports every conversation read from r; name labels sessions and errors.
func (im *Importer) Import(name string, r io.Reader, opts *ingest.Options, sink ingest.Sink, rep *ingest.Report) error {
	return ingest.ImportConversations(name, r, opts, rep, func(stem string, n int, pos string, raw json.RawMessage) error {
		s, err := conversation(fmt.Sprintf("%s:%d", stem, n), pos, raw, opts, rep)
		if err != nil {
			return err
		}
		return sink.Emit(s)
	})
}

func conversation(id, pos string, raw json.RawMessage, opts *ingest.Options, rep *ingest.Report) (*ingest.Session, error) {
	server := opts.ServerName(DefaultServer)
	var conv *ingest.Object
	var msgs []json.RawMessage
	field := "[]"
	if ingest.FirstByte(raw) == '[' {
		if err := json.Unmarshal(raw, &msgs); err != nil {
			return nil, fmt.Errorf("%s: %w", where(pos), err)
		}
	} else {
		var err error
		if conv, err = ingest.NewObject(pos, "", raw); err != nil {
			return nil, err
		}
		if !conv.Has("messages") {
			return nil, ingest.WithoutMessages(conv)
		}
		if msgs, err = conv.TakeArray("messages"); err != nil {
			return nil, err
		}
		if v, _ := conv.TakeString("id"); v != "" {
			id = v
		}
		field = "messages[]"
	}
	b := ingest.NewBuilder(id, "", server)
	b.Add(traces.Event{Type: traces.SessionStart, StartFields: &traces.StartFields{Meta: map[string]string{"source_format": Format}}})
	if conv != nil {
		if err := header(conv, b, rep); err != nil {
			return nil, err
		}
	}
	b.UseGateway(&opts.Gateway)
	c := NewConv(b, rep)
	c.ContentErrors = true
	var prev time.Time
	for i, mraw := range msgs {
		m, err := ingest.NewObject(fmt.Sprintf("%s.messages[%d]", where(pos), i), field, mraw)
		if err != nil {
			return nil, err
		}
		t, err := ingest.TakeTime(m, "timestamp", "created_at")
		if err != nil {
			return nil, err
		}
		if err := message(c, m, t, prev); err != nil {
			return nil, err
		}
		if !t.IsZero() {
			prev = t
		}
		m.Rest(rep)
	}
	return b.End(time.Time{}, rep), nil
}

// message converts one message; an assistant message is one model request,
// which starts at the previous message's time and ends at its own.
func message(c *Conv, m *ingest.Object, t, prev time.Time) error {
	role, err := m.TakeString("role")
	if err != nil {
		return err
	}
	if err := openAIMessage(m, role); err != nil {
		return err
	}
	m.Skip("type") // "message" on API responses
	switch role {
	case "user":
		return c.User(m, "content", t)
	case "assistant":
		usage, err := TakeUsage(m, c.Rep)
		if err != nil {
			return err
		}
		c.Rep.StopReason(m.PeekString("stop_reason")) // and not mapped, as before
		start := t
		if !prev.IsZero() && !t.IsZero() && !prev.After(t) {
			start = prev
		}
		id, err := m.TakeString("id")
		if err != nil {
			return err
		}
		ri := c.B.Request(id, start, ingest.Millis(start, t), usage)
		if model, _ := m.TakeString("model"); model != "" {
			if st := c.B.At(0); st.Model() == "" {
				st.EnsureStart().Model = model
			}
		}
		return c.Assistant(m, "content", t, c.B.At(ri).ID)
	}
	c.Rep.Unmap(m.Field + " with role " + orEmpty(role))
	m.Rest(ingest.NewReport(""))
	return nil
}

// header maps the members of a conversation object other than its messages:
// model, system, tools (with defer_loading marking the recorded deferred
// set), MCP servers and request parameters.
func header(conv *ingest.Object, b *ingest.Builder, rep *ingest.Report) error {
	st := b.At(0)
	var err error
	if st.EnsureStart().Model, err = conv.TakeString("model"); err != nil {
		return err
	}
	if sys := conv.Take("system"); sys != nil {
		st.EnsureStart().SystemPrompt, err = systemText(sys)
		if err != nil {
			return conv.Errorf("system: %v", err)
		}
	}
	if t, err := ingest.TakeTime(conv, "timestamp", "created_at"); err != nil {
		return err
	} else if !t.IsZero() {
		b.MoveStart(0, t)
	}
	if tools := conv.Take("tools"); tools != nil {
		deferred := deferredNames(tools)
		sets, dropped, err := toolschema.Parse("conversation tools", tools)
		if err != nil {
			return conv.Errorf("tools: %v", err)
		}
		for k, v := range dropped {
			rep.ToolDefinitionsDropped["tools"+k] += v
		}
		b.Session().Schemas = sets
		st.EnsureStart().RecordedStrategy = "eager"
		if len(deferred) > 0 {
			st.EnsureStart().RecordedStrategy = "defer_loading"
			b.Add(traces.Event{Type: traces.DeferralChange, ChangeFields: &traces.ChangeFields{Added: deferred}})
			st = b.At(0) // Add may have moved the events
		}
	}
	if servers, err := conv.TakeArray("mcp_servers"); err != nil {
		return err
	} else {
		// The request lists the MCP servers it connects (an empty list
		// connects none).
		b.Session().ServersRecorded = servers != nil
		for i, raw := range servers {
			s, err := conv.Elem("mcp_servers", i, raw)
			if err != nil {
				return err
			}
			name, err := s.TakeString("name")
			if err != nil {
				return err
			}
			if name != "" {
				st.EnsureStart().Servers = append(st.Servers(), traces.ServerRef{Name: name})
			}
			s.Skip("type")
			s.Rest(rep)
		}
	}
	if md := conv.Take("metadata"); md != nil {
		ingest.FlattenMeta(st.Meta(), "metadata", "metadata", md, rep)
	}
	for _, k := range []string{"max_tokens", "temperature", "top_p", "top_k", "tool_choice", "thinking", "service_tier"} {
		if v := conv.Take(k); v != nil {
			ingest.SetMeta(st.Meta(), "request."+k, k, v, rep)
		}
	}
	conv.Rest(rep)
	return nil
}

// systemText reads a system prompt: a string or an array of text blocks.
func systemText(raw json.RawMessage) (string, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return "", fmt.Errorf("want a string or text blocks")
	}
	var texts []string
	for _, bl := range blocks {
		if bl.Type == "text" || bl.Type == "" {
			texts = append(texts, bl.Text)
		}
	}
	return strings.Join(texts, "\n"), nil
}

// deferredNames returns the names of tools marked defer_loading, sorted.
func deferredNames(tools json.RawMessage) []string {
	var list []struct {
		Name         string `json:"name"`
		DeferLoading bool   `json:"defer_loading"`
	}
	if json.Unmarshal(tools, &list) != nil {
		return nil
	}
	var names []string
	for _, t := range list {
		if t.DeferLoading && t.Name != "" {
			names = append(names, t.Name)
		}
	}
	sort.Strings(names)
	return names
}

func where(pos string) string {
	if pos == "" {
		return "conversation"
	}
	return pos
}

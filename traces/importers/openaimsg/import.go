package openaimsg

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers/ingest"
	"github.com/defersim/defersim/traces/importers/toolschema"
)

// Format is the format name of this importer.
const Format = "openai-messages"

// DefaultServer is the server of tools that name none.
const DefaultServer = "openai-messages"

// Importer reads OpenAI chat-completions transcripts: one conversation per
// file (an object {"messages":[…], "tools":[…]} or a bare message array) or
// one per line (JSON Lines of either).
type Importer struct{}

// New returns an openai-messages importer.
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
		s, err := conversation(stem, pos, n, raw, opts, rep)
		if err != nil {
			return err
		}
		return sink.Emit(s)
	})
}

func conversation(stem, pos string, n int, raw json.RawMessage, opts *ingest.Options, rep *ingest.Report) (*ingest.Session, error) {
	server := opts.ServerName(DefaultServer)
	id := fmt.Sprintf("%s:%d", stem, n)
	var conv *ingest.Object
	var msgs []json.RawMessage
	if ingest.FirstByte(raw) == '[' {
		if err := json.Unmarshal(raw, &msgs); err != nil {
			return nil, fmt.Errorf("%s: %w", posOr(pos), err)
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
		if err := anthropicSystem(conv, msgs); err != nil {
			return nil, err
		}
		if cid := conv.Take("id"); cid != nil {
			var s string
			if json.Unmarshal(cid, &s) != nil {
				s = string(ingest.Compact(cid))
			}
			if s != "" {
				id = s
			}
		}
	}
	b := ingest.NewBuilder(id, "", server)
	start := traces.Event{Type: traces.SessionStart, StartFields: &traces.StartFields{Meta: map[string]string{"source_format": Format}}}
	b.Add(start)
	if conv != nil {
		if err := header(conv, b, rep); err != nil {
			return nil, err
		}
	}
	b.UseGateway(&opts.Gateway)
	c := NewConv(b, rep)
	c.ContentErrors = true
	field := "messages[]"
	if conv == nil {
		field = "[]"
	}
	for i, mraw := range msgs {
		m, err := ingest.NewObject(fmt.Sprintf("%s.messages[%d]", posOr(pos), i), field, mraw)
		if err != nil {
			return nil, err
		}
		if err := anthropicBlocks(m); err != nil {
			return nil, err
		}
		if err := anthropicUsage(m); err != nil {
			return nil, err
		}
		t, err := ingest.TakeTime(m, "timestamp", "created_at", "created")
		if err != nil {
			return nil, err
		}
		if err := c.Message(m, t); err != nil {
			return nil, err
		}
	}
	if st := b.At(0); st.SystemPrompt() == "" {
		st.EnsureStart().SystemPrompt = c.SystemPrompt
	}
	return b.End(time.Time{}, rep), nil
}

// header maps the members of a conversation object other than its messages.
func header(conv *ingest.Object, b *ingest.Builder, rep *ingest.Report) error {
	st := b.At(0) // header adds no events, so st stays valid
	var err error
	if st.EnsureStart().Model, err = conv.TakeString("model"); err != nil {
		return err
	}
	if tools := conv.Take("tools"); tools != nil {
		sets, dropped, err := toolschema.Parse("conversation tools", tools)
		if err != nil {
			return conv.Errorf("tools: %v", err)
		}
		for k, v := range dropped {
			rep.ToolDefinitionsDropped["tools"+k] += v
		}
		b.Session().Schemas = sets
		st.EnsureStart().RecordedStrategy = "eager"
	}
	if created, ok, err := conv.TakeInt("created"); err != nil {
		return err
	} else if ok && created > 0 && created < 1e11 {
		b.MoveStart(0, time.Unix(created, 0).UTC())
	}
	if md := conv.Take("metadata"); md != nil {
		ingest.FlattenMeta(st.Meta(), "metadata", "metadata", md, rep)
	}
	for _, k := range []string{"temperature", "top_p", "max_tokens", "max_completion_tokens",
		"parallel_tool_calls", "tool_choice", "seed", "reasoning_effort", "service_tier"} {
		if v := conv.Take(k); v != nil {
			ingest.SetMeta(st.Meta(), "request."+k, k, v, rep)
		}
	}
	conv.Rest(rep)
	return nil
}

func posOr(pos string) string {
	if pos == "" {
		return "conversation"
	}
	return pos
}

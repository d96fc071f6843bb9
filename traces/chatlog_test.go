package traces

import (
	"slices"
	"strings"
	"testing"
)

// TestChatLogLineNamesTheImporter pins what a line of a chat-completions
// log fed to validate (or run) says: it said only `missing required field
// "type"` (its "model" is a field of the event format, so it was not taken
// for a foreign object), or `unknown event type "message"` for an
// Anthropic response. It now says what the line is and names the import
// that converts the file, with the right importer when the line shows
// which API wrote it; the advice is given once per file, later lines
// pointing at it.
func TestChatLogLineNamesTheImporter(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		want       []string // in the first line's reason
		not        []string
	}{
		{"OpenAI request log with tool calls",
			`{"model":"gpt-4o","messages":[{"role":"user","content":"x"},{"role":"assistant","tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}}]}]}`,
			[]string{`missing required field "type": the line is a chat-completions conversation ("messages")`, "trace import --from openai-messages FILE"},
			[]string{"anthropic-messages"}},
		{"Anthropic request log with a top-level system",
			`{"model":"claude-sonnet-4-5","system":"be brief","messages":[{"role":"user","content":"x"}]}`,
			[]string{"trace import --from anthropic-messages FILE"}, []string{"openai-messages"}},
		{"Anthropic tool_result block",
			`{"model":"claude-sonnet-4-5","messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"ok"}]}]}`,
			[]string{"trace import --from anthropic-messages FILE"}, []string{"openai-messages"}},
		{"text only: either importer",
			`{"model":"m","messages":[{"role":"user","content":"x"},{"role":"assistant","content":"y"}]}`,
			[]string{"--from openai-messages or --from anthropic-messages", "whichever API wrote it"}, nil},
		{"OpenAI response",
			`{"id":"c","object":"chat.completion","model":"gpt-4o","choices":[{"message":{"role":"assistant","content":"hi"}}]}`,
			[]string{`an OpenAI chat-completions response ("choices")`, "--from openai-messages FILE", "response's message appended"}, []string{"anthropic-messages"}},
		{"Anthropic response",
			`{"id":"msg_1","type":"message","role":"assistant","model":"claude","content":[{"type":"tool_use","id":"t","name":"x","input":{}}]}`,
			[]string{`unknown event type "message": the line is an Anthropic Messages response`, "--from anthropic-messages FILE", "not one message per line"}, []string{"openai-messages"}},
		{"a message on its own",
			`{"role":"tool","tool_call_id":"a","content":"ok"}`,
			[]string{`a chat message on its own ("role", "content")`, "--from openai-messages FILE"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			probs, _, err := ValidateReader(strings.NewReader(tc.line+"\n"+tc.line+"\n"), "chat.jsonl", ValidateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(probs) == 0 || probs[0].Line != 1 {
				t.Fatalf("problems %v", probs)
			}
			first := probs[0].Reason
			for _, w := range tc.want {
				if !strings.Contains(first, w) {
					t.Errorf("line 1: %q does not say %q", first, w)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(first, w) {
					t.Errorf("line 1: %q names %q", first, w)
				}
			}
			if got := AdvisedAt(probs); got != 1 {
				t.Errorf("AdvisedAt = %d, want 1", got)
			}
			for _, p := range probs[1:] {
				if strings.Contains(p.Reason, importHint) {
					t.Errorf("advice repeated at line %d: %s", p.Line, p.Reason)
				}
				if p.Line == 2 && strings.HasPrefix(first, strings.SplitN(p.Reason, ":", 2)[0]+":") && !strings.HasSuffix(p.Reason, "(see line 1)") {
					t.Errorf("line 2 does not point at line 1: %s", p.Reason)
				}
			}
		})
	}
}

// TestChatLogLeavesEventsAlone pins that an event lacking "type" whose
// fields are the format's, and an event of an unknown type that is no chat
// line, keep their plain reasons.
func TestChatLogLeavesEventsAlone(t *testing.T) {
	for _, line := range []string{
		`{"session":"s","t":"2026-01-01T00:00:00Z","model":"gpt-4o"}`,
		`{"type":"thought","session":"s","t":"2026-01-01T00:00:00Z","text":"x"}`,
	} {
		probs, _, err := ValidateReader(strings.NewReader(line+"\n"), "t.jsonl", ValidateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range probs {
			if strings.Contains(p.Reason, "chat") || strings.Contains(p.Reason, importHint) {
				t.Errorf("%s: %s", line, p.Reason)
			}
		}
	}
}

// TestChatLogAdviceOncePerShape pins that a file mixing chat-log shapes
// gets each shape's advice once: before, every line after the first said
// "(see line 1)", though line 1 named another importer (an OpenAI
// response's openai-messages, where an Anthropic response needs
// anthropic-messages). A later line of an already-advised shape still
// points at the line that advised it.
func TestChatLogAdviceOncePerShape(t *testing.T) {
	const (
		openAI    = `{"id":"c","object":"chat.completion","model":"gpt-4o","choices":[{"message":{"role":"assistant","content":"hi"}}]}`
		anthropic = `{"id":"msg_1","type":"message","role":"assistant","model":"claude","content":[{"type":"tool_use","id":"t","name":"x","input":{}}]}`
	)
	in := strings.Join([]string{openAI, anthropic, openAI, anthropic}, "\n") + "\n"
	probs, _, err := ValidateReader(strings.NewReader(in), "mixed.jsonl", ValidateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []struct {
		line      int
		says, not string // says: in the reason; not: absent from it
	}{
		{1, "--from openai-messages FILE", "anthropic-messages"},
		{2, "--from anthropic-messages FILE", "(see line"},
		{3, "(see line 1)", importHint},
		{4, "(see line 2)", importHint},
	} {
		i := slices.IndexFunc(probs, func(p Problem) bool { return p.Line == want.line })
		if i < 0 {
			t.Fatalf("no problem at line %d: %v", want.line, probs)
		}
		r := probs[i].Reason
		if !strings.Contains(r, want.says) || strings.Contains(r, want.not) {
			t.Errorf("line %d: %q; want it to say %q and not %q", want.line, r, want.says, want.not)
		}
	}
	if got := AdvisedAt(probs); got != 1 {
		t.Errorf("AdvisedAt = %d, want 1", got)
	}
}

package importers_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers"
)

// formatSamples are the importers' own test inputs, one or more per format,
// with the structure by which package sniff recognises the format.
var formatSamples = []struct {
	name, format string
	inputs       []string
	like         string
}{
	{"tau-bench run", "tau-bench", []string{filepath.Join("taubench", "testdata", "test-model-airline.json")},
		`runs with "task_id" and "traj"`},
	{"tau2 results", "tau2", []string{filepath.Join("tau2", "testdata", "shop-run.json")},
		`an object with "tasks" and "simulations"`},
	{"openai conversations", "openai-messages", []string{filepath.Join("openaimsg", "testdata", "conversations.jsonl")},
		`a message with role system`},
	{"openai chat", "openai-messages", []string{filepath.Join("testdata", "chat.jsonl")},
		`an assistant message with "tool_calls"`},
	{"openai gateway", "openai-messages", []string{filepath.Join("testdata", "gateway", "sessions.jsonl")},
		`a message with role system`},
	{"anthropic conversations", "anthropic-messages", []string{filepath.Join("anthropicmsg", "testdata", "conversations.jsonl")},
		`a content block of type tool_use`},
	{"otel export", "otel", []string{filepath.Join("otel", "testdata", "export.json")},
		`an OTLP export with "resourceSpans"`},
	{"claude-code session", "claude-code", []string{filepath.Join("claudecode", "testdata", "session.jsonl")},
		`a summary record with "leafUuid"`},
	{"swe-agent thought-action", "swe-agent", []string{filepath.Join("sweagent", "testdata",
		"tinymodel__demo-set__default__t-0.00__p-0.95__c-1.00__install-1", "demo__widget-1.traj")},
		`an object with "trajectory" and "history"`},
	{"swe-agent function-calling", "swe-agent", []string{filepath.Join("sweagent", "testdata", "fc-run", "demo__widget-2.traj")},
		`an object with "trajectory" and "history"`},
	{"toolbench answers", "toolbench", []string{filepath.Join("toolbench", "testdata", "G9_answer", "1_Demo_DFS_w2.json"),
		filepath.Join("toolbench", "testdata", "G9_answer", "2_Demo_DFS_w2.json")},
		`an object with "answer_generation"`},
}

// TestOtherFormatsRefused pins that no format's sample imports under
// another --from: every pair stops (exit status 2) naming the input and
// writes nothing. openai-messages and anthropic-messages used to read each
// other's files with exit status 0 and no tool call (the calls, results
// and system prompt only counted as not mapped); they now name the format
// the input looks like. Every other pair's error used to say only what
// the importer missed ("line 1: want a JSON object: unexpected end of JSON
// input", "invalid character '{' after top-level value"); each now ends
// with the format package sniff finds ("; it looks like claude-code (…);
// use --from claude-code"). Formats do genuinely overlap in one case, a
// conversation of text messages only, which either importer reads
// faithfully (TestOtherFormatOverlap).
func TestOtherFormatsRefused(t *testing.T) {
	// looksLike: the importer itself says which format the input looks
	// like, for the pairs whose shapes are close enough to be read at all;
	// every other pair's error ends with what the sniffer found.
	looksLike := map[[2]string]string{
		{"openai conversations", "anthropic-messages"}: "looks like openai-messages (message with role system",
		{"openai chat", "anthropic-messages"}:          "looks like openai-messages (assistant message with tool_calls, 1 tool call",
		{"openai gateway", "anthropic-messages"}:       "looks like openai-messages (message with role system",
		{"anthropic conversations", "openai-messages"}: `looks like anthropic-messages (top-level "system" member`,
	}
	dir := t.TempDir()
	for _, s := range formatSamples {
		for _, from := range importers.Names() {
			if from == s.format {
				continue
			}
			t.Run(s.name+" as "+from, func(t *testing.T) {
				out := filepath.Join(dir, strings.ReplaceAll(s.name+"-"+from, " ", "-"), "out.jsonl")
				rep, err := importers.Run(importers.Request{Format: from, Inputs: s.inputs, Out: out})
				if err == nil {
					t.Fatalf("imported with exit status 0: %d session(s), %d tool call(s); not mapped: %v",
						rep.Sessions, rep.ToolCalls, rep.Unmapped)
				}
				if base := filepath.Base(s.inputs[0]); !strings.Contains(err.Error(), base) {
					t.Errorf("error %q does not name the input %s", err, base)
				}
				want, suffix := looksLike[[2]string{s.name, from}], "; use --from "+s.format
				if want == "" {
					want = "; it looks like " + s.format + " (" + s.like + ")"
				}
				if !strings.Contains(err.Error(), want) || !strings.HasSuffix(err.Error(), suffix) ||
					strings.Count(err.Error(), "use --from") != 1 {
					t.Errorf("error = %q\nwant it to contain %q and end with %q, once", err, want, suffix)
				}
				if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) > 0 {
					t.Errorf("the refused import left %d file(s)", len(entries))
				}
			})
		}
	}
}

// TestOtherFormatStructures pins each structure by which openai-messages
// and anthropic-messages recognise the other's file, and the message
// naming it: what would be lost, where, and the --from to use.
func TestOtherFormatStructures(t *testing.T) {
	tests := []struct {
		name, from, data, want string
	}{
		{"openai tool_calls", "anthropic-messages",
			`{"messages":[{"role":"user","content":"q"},{"role":"assistant","tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}},{"id":"b","type":"function","function":{"name":"g","arguments":"{}"}}]}]}`,
			`in.json: conversation.messages[1]: not anthropic-messages: looks like openai-messages (assistant message with tool_calls, 2 tool calls anthropic-messages would drop); use --from openai-messages`},
		{"openai legacy function_call", "anthropic-messages",
			`[{"role":"user","content":"q"},{"role":"assistant","content":null,"function_call":{"name":"f","arguments":"{}"}}]`,
			`in.json: conversation.messages[1]: not anthropic-messages: looks like openai-messages (assistant message with function_call, a tool call anthropic-messages would drop); use --from openai-messages`},
		{"openai tool result", "anthropic-messages",
			`{"messages":[{"role":"user","content":"q"},{"role":"tool","tool_call_id":"a","content":"r"}]}`,
			`in.json: conversation.messages[1]: not anthropic-messages: looks like openai-messages (message with role tool, a tool result anthropic-messages would drop); use --from openai-messages`},
		{"openai developer message", "anthropic-messages",
			`{"messages":[{"role":"developer","content":"be brief"},{"role":"user","content":"q"}]}`,
			`in.json: conversation.messages[0]: not anthropic-messages: looks like openai-messages (message with role developer, a system prompt anthropic-messages would drop: it reads the top-level "system" member); use --from openai-messages`},
		{"anthropic tool_use", "openai-messages",
			`{"messages":[{"role":"user","content":"q"},{"role":"assistant","content":[{"type":"text","text":"t"},{"type":"tool_use","id":"a","name":"f","input":{}}]}]}`,
			`in.json: conversation.messages[1].content[1]: not openai-messages: looks like anthropic-messages (content block of type tool_use, a tool call openai-messages would drop); use --from anthropic-messages`},
		{"anthropic mcp_tool_result", "openai-messages",
			`{"messages":[{"role":"user","content":[{"type":"mcp_tool_result","tool_use_id":"a","content":"r"}]}]}`,
			`in.json: conversation.messages[0].content[0]: not openai-messages: looks like anthropic-messages (content block of type mcp_tool_result, a tool result openai-messages would drop); use --from anthropic-messages`},
		{"openai usage", "anthropic-messages",
			`{"messages":[{"role":"user","content":"q"},{"role":"assistant","content":"a","usage":{"prompt_tokens":90,"completion_tokens":3}}]}`,
			`in.json: conversation.messages[1].usage: not anthropic-messages: looks like openai-messages (usage with prompt_tokens and no input_tokens, token counts anthropic-messages would drop); use --from openai-messages`},
		{"anthropic usage", "openai-messages",
			`{"messages":[{"role":"user","content":"q"},{"role":"assistant","content":"a","usage":{"input_tokens":9,"cache_read_input_tokens":80,"output_tokens":3}}]}`,
			`in.json: conversation.messages[1].usage: not openai-messages: looks like anthropic-messages (usage with cache_read_input_tokens and no prompt_tokens, cached prompt tokens openai-messages would drop); use --from anthropic-messages`},
		{"anthropic system", "openai-messages",
			`{"system":"be brief","messages":[{"role":"user","content":"q"}]}`,
			`in.json: top level: not openai-messages: looks like anthropic-messages (top-level "system" member, a system prompt openai-messages would drop: it reads messages with role system); use --from anthropic-messages`},
	}
	dir := t.TempDir()
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sub := filepath.Join(dir, string(rune('a'+i)))
			in := filepath.Join(sub, "in.json")
			if err := os.MkdirAll(sub, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(in, []byte(tt.data), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := importers.Run(importers.Request{Format: tt.from, Inputs: []string{in}, Out: filepath.Join(sub, "out.jsonl")})
			if err == nil || err.Error() != tt.want {
				t.Fatalf("error = %v\nwant      %s", err, tt.want)
			}
		})
	}
}

// TestOtherFormatOverlap pins what the two message formats share and
// therefore import alike, without a refusal: text messages (string
// content, or text parts) with usage in input_tokens/output_tokens; and
// what stays openai-messages: a conversation whose stray top-level
// "system" sits beside a system message that carries the prompt (the
// member is counted as not mapped, as before), a chat-completions usage
// that also names Anthropic's cache members (as proxies write it).
func TestOtherFormatOverlap(t *testing.T) {
	text := `{"id":"s","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"text","text":"hello"}],"usage":{"input_tokens":10,"output_tokens":2}},{"role":"assistant","content":"bye","tool_calls":[]}]}`
	both := `{"id":"s","system":"ignored","messages":[{"role":"system","content":"be brief"},{"role":"user","content":"hi"}]}`
	proxy := `{"id":"s","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"yo","usage":{"prompt_tokens":100,"completion_tokens":5,"cache_read_input_tokens":80,"prompt_tokens_details":{"cached_tokens":80}}}]}`
	dir := t.TempDir()
	for _, tc := range []struct {
		name, from, data string
		want             []string
	}{
		{"text as openai-messages", "openai-messages", text, []string{"user hi", "usage 10+0 2", "assistant hello", "usage 0+0 0", "assistant bye"}},
		{"text as anthropic-messages", "anthropic-messages", text, []string{"user hi", "usage 10+0 2", "assistant hello", "usage 0+0 0", "assistant bye"}},
		{"system member beside a system message", "openai-messages", both, []string{"system_prompt be brief", "user hi"}},
		{"chat usage naming cache members", "openai-messages", proxy, []string{"user hi", "usage 20+80 5", "assistant yo"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sub := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"))
			in, out := filepath.Join(sub, "in.json"), filepath.Join(sub, "out.jsonl")
			if err := os.MkdirAll(sub, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(in, []byte(tc.data), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := importers.Run(importers.Request{Format: tc.from, Inputs: []string{in}, Out: out}); err != nil {
				t.Fatal(err)
			}
			r, err := traces.Open(out, traces.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			var got []string
			for s, err := range r.Sessions() {
				if err != nil {
					t.Fatal(err)
				}
				for _, ev := range s.Events {
					switch {
					case ev.Type == traces.SessionStart && ev.SystemPrompt() != "":
						got = append(got, "system_prompt "+ev.SystemPrompt())
					case ev.Type == traces.ModelRequest:
						u := traces.Usage{}
						if ev.Usage != nil {
							u = *ev.Usage
						}
						got = append(got, fmt.Sprintf("usage %d+%d %d", u.Input, u.CacheRead, u.Output))
					case ev.Type == traces.UserMessage || ev.Type == traces.AssistantMessage:
						got = append(got, string(ev.Type)+" "+ev.Text)
					}
				}
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("events = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestLookalikeHint pins when an import's error, or the note of an input
// without a session, names the format the input looks like: an import
// that finds no session says it for one input and for several that look
// alike, not for inputs that look like different formats; an error of the
// --fallback-tools pass says it too; an input of the requested format
// that fails, and a conversation of text messages (both message formats
// read it), get no hint.
func TestLookalikeHint(t *testing.T) {
	files := map[string]string{
		"openai.jsonl":    `{"messages":[{"role":"user","content":"q"},{"role":"assistant","tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}}]}]}`,
		"openai2.jsonl":   `{"messages":[{"role":"system","content":"s"},{"role":"user","content":"q"}]}`,
		"anthropic.jsonl": `{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"f","input":{}}]}]}`,
		"text.json":       `{"messages":[{"role":"user","content":"q"},{"role":"assistant","content":"a"}]}`,
		"tau2.json":       `{"info":{},"tasks":[],"simulations":[3]}`,
	}
	dir := t.TempDir()
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	session := filepath.Join("claudecode", "testdata", "session.jsonl")
	in := func(name string) string { return filepath.Join(dir, name) }
	const noSession = "0 sessions to import (is --from claude-code the format of the input%s?); not mapped: line without sessionId before any session"
	tests := []struct {
		name, from string
		inputs     []string
		want       string // the error; "" for an import that succeeds
		note       string // with want "": a note the report must hold
		fallback   []string
	}{
		{"no session in one input", "claude-code", []string{in("openai.jsonl")},
			in("openai.jsonl") + ": no claude-code session in it: " + fmt.Sprintf(noSession, "") +
				`; it looks like openai-messages (an assistant message with "tool_calls"); use --from openai-messages`, "", nil},
		{"no session in inputs that look alike", "claude-code", []string{in("openai.jsonl"), in("openai2.jsonl")},
			"no claude-code session in any of the 2 inputs: " + fmt.Sprintf(noSession, "s") +
				`; it looks like openai-messages (an assistant message with "tool_calls"); use --from openai-messages`, "", nil},
		{"no session in inputs that look different", "claude-code", []string{in("openai.jsonl"), in("anthropic.jsonl")},
			"no claude-code session in any of the 2 inputs: " + fmt.Sprintf(noSession, "s"), "", nil},
		{"an input without a session beside one with sessions", "claude-code", []string{session, in("openai.jsonl")},
			"", `openai.jsonl: no session found in it; it looks like openai-messages (an assistant message with "tool_calls"); use --from openai-messages`, nil},
		{"an input of the requested format that fails", "tau2", []string{in("tau2.json")},
			"tau2.json: simulations[0]: want a JSON object: json: cannot unmarshal number into Go value of type map[string]json.RawMessage", "", nil},
		{"a conversation of text messages", "tau-bench", []string{in("text.json")},
			`text.json: [0]: run without "traj"`, "", nil},
		{"an input that fails in the --fallback-tools pass", "tau-bench", []string{in("openai.jsonl")},
			`openai.jsonl: [0]: run without "traj"; it looks like openai-messages (an assistant message with "tool_calls"); use --from openai-messages`, "",
			[]string{filepath.Join("taubench", "testdata", "tools_airline.json")}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(dir, fmt.Sprintf("out%d", i), "out.jsonl")
			rep, err := importers.Run(importers.Request{Format: tt.from, Inputs: tt.inputs, Out: out, FallbackToolFiles: tt.fallback})
			if tt.want != "" {
				if err == nil || err.Error() != tt.want {
					t.Fatalf("error = %v\nwant      %s", err, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(rep.Notes, tt.note) {
				t.Errorf("notes = %q, want %q among them", rep.Notes, tt.note)
			}
		})
	}
}

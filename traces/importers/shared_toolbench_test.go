package importers_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers"
)

// TestSharedToolBenchErrors pins that failed tool results of real sessions
// keep status error (issue 15: openai-messages imported them as ok). The
// shared ToolBench answers hold OpenAI messages (the last train_messages
// chain, with legacy function calls); their function results are JSON
// {"error": …, "response": …}. Each answer becomes one openai-messages
// conversation; the calls with status error must be exactly the results
// whose error is non-empty, counted here straight from the source.
func TestSharedToolBenchErrors(t *testing.T) {
	dir := shareddata.Path(t, "sessions", "toolbench", "data_example", "answer")
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	sort.Strings(files)
	var lines []string
	calls, failed := 0, 0
	for _, f := range files {
		var answer struct {
			AnswerGeneration struct {
				Function      []json.RawMessage   `json:"function"`
				TrainMessages [][]json.RawMessage `json:"train_messages"`
			} `json:"answer_generation"`
		}
		readJSON(t, f, &answer)
		ag := answer.AnswerGeneration
		if len(ag.TrainMessages) == 0 {
			continue
		}
		msgs := ag.TrainMessages[len(ag.TrainMessages)-1]
		for _, raw := range msgs {
			var m struct {
				Role         string          `json:"role"`
				Content      string          `json:"content"`
				FunctionCall json.RawMessage `json:"function_call"`
			}
			_ = json.Unmarshal(raw, &m)
			if m.Role == "assistant" && len(m.FunctionCall) > 0 && string(m.FunctionCall) != "null" {
				calls++
			}
			var result struct {
				Error string `json:"error"`
			}
			if m.Role == "function" && json.Unmarshal([]byte(m.Content), &result) == nil && strings.TrimSpace(result.Error) != "" {
				failed++
			}
		}
		var tools []map[string]json.RawMessage
		for _, fn := range ag.Function {
			tools = append(tools, map[string]json.RawMessage{"type": json.RawMessage(`"function"`), "function": fn})
		}
		conv, err := json.Marshal(map[string]any{"id": filepath.Base(filepath.Dir(f)) + "/" + filepath.Base(f), "tools": tools, "messages": msgs})
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(conv))
	}
	if len(lines) == 0 {
		t.Skip("no ToolBench answers with train_messages in shared data")
	}
	tmp := t.TempDir()
	in := filepath.Join(tmp, "toolbench.jsonl")
	if err := os.WriteFile(in, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(tmp, "toolbench.trace.jsonl")
	rep, err := importers.Run(importers.Request{Format: "openai-messages", Inputs: []string{in}, Out: out})
	if err != nil {
		t.Fatal(err)
	}
	sessions, _, err := traces.ReadAll(out)
	if err != nil {
		t.Fatal(err)
	}
	gotCalls, gotFailed := 0, 0
	for _, s := range sessions {
		for _, ev := range s.Events {
			if ev.Type == traces.ToolCall {
				gotCalls++
				if ev.Status == traces.StatusError {
					gotFailed++
				}
			}
		}
	}
	t.Logf("toolbench: %d sessions, %d tool calls, %d with status error", len(sessions), gotCalls, gotFailed)
	if gotCalls != calls || gotFailed != failed || failed == 0 {
		t.Errorf("tool calls %d (source %d), with status error %d (source: %d results with a non-empty error)",
			gotCalls, calls, gotFailed, failed)
	}
	if n := rep.ErrorResults["result content (isError, is_error or a non-empty error member)"]; n != failed {
		t.Errorf("report counts %d results failed by their content, want %d", n, failed)
	}
}

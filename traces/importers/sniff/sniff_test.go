package sniff_test

import (
	"bytes"
	"compress/gzip"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/traces/importers"
	"github.com/defersim/defersim/traces/importers/sniff"
)

// TestSniff pins each format's rule (what it recognises and says) and
// that the rules stay quiet where formats share a structure or an input
// shows the structures of two formats: a wrong hint is worse than none.
func TestSniff(t *testing.T) {
	tests := []struct {
		name, data, format, why string
	}{
		{"tau-bench runs", `[{"task_id":1,"trial":0,"reward":1,"info":{},"traj":[{"role":"user","content":"q"}]}]`,
			"tau-bench", `runs with "task_id" and "traj"`},
		{"tau-bench run object", `{"task_id":1,"traj":[]}`, "tau-bench", `runs with "task_id" and "traj"`},
		{"tau2 results", `{"timestamp":"t","info":{},"tasks":[],"simulations":[]}`, "tau2", `an object with "tasks" and "simulations"`},
		{"tau2 results without tasks", `{"info":{},"simulations":[]}`, "tau2", `an object with "info" and "simulations"`},
		{"openai tool_calls", `{"messages":[{"role":"assistant","tool_calls":[{"id":"a"}]}]}`,
			"openai-messages", `an assistant message with "tool_calls"`},
		{"openai function_call, bare array", `[{"role":"user","content":"q"},{"role":"assistant","function_call":{"name":"f"}}]`,
			"openai-messages", `an assistant message with "function_call"`},
		{"openai tool result, JSON Lines", "{\"messages\":[{\"role\":\"user\",\"content\":\"q\"}]}\n{\"messages\":[{\"role\":\"tool\",\"content\":\"r\"}]}\n",
			"openai-messages", "a message with role tool"},
		{"openai array of conversations", `[{"messages":[{"role":"developer","content":"d"}]}]`, "openai-messages", "a message with role developer"},
		{"anthropic tool_use", `{"messages":[{"role":"assistant","content":[{"type":"text","text":"t"},{"type":"tool_use","id":"a","name":"f","input":{}}]}]}`,
			"anthropic-messages", "a content block of type tool_use"},
		{"anthropic mcp tool result", `{"messages":[{"role":"user","content":[{"type":"mcp_tool_result","tool_use_id":"a"}]}]}`,
			"anthropic-messages", "a content block of type tool_result"},
		{"anthropic system", `{"system":"be brief","messages":[{"role":"user","content":"q"}]}`,
			"anthropic-messages", `a conversation with a top-level "system" and no system message`},
		{"otel export", `{"resourceSpans":[]}`, "otel", `an OTLP export with "resourceSpans"`},
		{"otel JSON Lines", "{\"resourceSpans\":[]}\n{\"resourceSpans\":[]}", "otel", `an OTLP export with "resourceSpans"`},
		{"claude-code records", "{\"type\":\"user\",\"sessionId\":\"s\",\"uuid\":\"u\",\"message\":{}}\n",
			"claude-code", `records with "type", "sessionId" and "uuid"`},
		{"claude-code summary first", "{\"type\":\"summary\",\"summary\":\"x\",\"leafUuid\":\"l\"}\n{\"type\":\"user\",\"sessionId\":\"s\",\"uuid\":\"u\"}\n",
			"claude-code", `a summary record with "leafUuid"`},
		{"swe-agent trajectory", `{"environment":"e","trajectory":[],"history":[],"info":{}}`, "swe-agent", `an object with "trajectory" and "history"`},
		{"swe-agent without history", `{"trajectory":[],"info":{}}`, "swe-agent", `an object with "trajectory" and "info"`},
		{"swe-agent history only", `{"history":[{"role":"system","content":"c","agent":"main"}]}`, "swe-agent", `an object with "history" of messages with "agent"`},
		{"history without agent", `{"history":[{"role":"system","content":"c"}]}`, "", ""},
		{"toolbench answer", `{"answer_generation":{},"tree":{}}`, "toolbench", `an object with "answer_generation"`},
		{"byte order mark", "\xef\xbb\xbf{\"resourceSpans\":[]}", "otel", `an OTLP export with "resourceSpans"`},
		{"broken line after a record", "{\"resourceSpans\":[]}\n{\"resource", "otel", `an OTLP export with "resourceSpans"`},

		{"text conversation (both message formats)", `{"messages":[{"role":"user","content":"q"},{"role":"assistant","content":[{"type":"text","text":"a"}]}]}`, "", ""},
		{"openai and anthropic structures", "{\"messages\":[{\"role\":\"tool\",\"content\":\"r\"}]}\n{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\"}]}]}", "", ""},
		{"anthropic system beside a system message", `{"system":"x","messages":[{"role":"system","content":"s"}]}`, "openai-messages", "a message with role system"},
		{"empty system member", `{"system":"","messages":[{"role":"user","content":"q"}]}`, "", ""},
		{"two formats' top levels", `{"resourceSpans":[],"answer_generation":{}}`, "", ""},
		{"toolbench query file", `[{"query":"q","query_id":1,"api_list":[]}]`, "", ""},
		{"trace v1", "{\"v\":1,\"type\":\"session_start\",\"session\":\"s\",\"t\":\"2025-01-01T00:00:00Z\"}\n", "", ""},
		{"tau2 simulations alone", `{"simulations":[]}`, "", ""},
		{"traj that is not an array", `[{"task_id":1,"traj":"x"}]`, "", ""},
		{"claude-code record without uuid", `{"type":"user","sessionId":"s"}`, "", ""},
		{"truncated object", `{"resourceSpans":[`, "", ""},
		{"empty", "", "", ""},
		{"scalar", "42", "", ""},
		{"empty array", "[]", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			format, why := sniff.Sniff([]byte(tt.data))
			if format != tt.format || why != tt.why {
				t.Errorf("Sniff = %q, %q; want %q, %q", format, why, tt.format, tt.why)
			}
		})
	}
}

// TestSniffFile pins that File reads gzip inputs (whatever their name)
// and that an input it cannot read looks like none.
func TestSniffFile(t *testing.T) {
	dir := t.TempDir()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write([]byte(`{"answer_generation":{}}`)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	gz := filepath.Join(dir, "answer.json")
	if err := os.WriteFile(gz, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if format, _ := sniff.File(gz); format != "toolbench" {
		t.Errorf("gzip input: format %q, want toolbench", format)
	}
	if format, why := sniff.File(filepath.Join(dir, "missing.json")); format != "" || why != "" {
		t.Errorf("missing input: %q, %q; want none", format, why)
	}
}

// TestSniffSharedData pins the rules against the real data: every session
// file of a format looks like that format, and every other file (tool
// definitions, task and query files, policies) like none; no file is
// taken for a defersim trace.
func TestSniffSharedData(t *testing.T) {
	root := shareddata.Path(t, "sessions")
	want := func(rel string) string {
		switch {
		case strings.HasSuffix(rel, ".traj"):
			return "swe-agent"
		case strings.HasPrefix(rel, "tau-bench/historical_trajectories/"):
			return "tau-bench"
		case strings.HasPrefix(rel, "tau2-bench/data/simulations/"),
			strings.HasPrefix(rel, "tau2-bench/web/leaderboard/public/submissions/") && strings.Contains(rel, "/trajectories/"):
			return "tau2"
		case strings.HasPrefix(rel, "toolbench/data_example/answer/"):
			return "toolbench"
		}
		return ""
	}
	seen := map[string]int{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if why := sniff.TraceFile(path); why != "" {
			t.Errorf("%s: taken for a defersim trace (%s)", rel, why)
		}
		format, why := sniff.File(path)
		if w := want(rel); format != w {
			t.Errorf("%s: looks like %q (%s), want %q", rel, format, why, w)
		}
		seen[format]++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"", "swe-agent", "tau-bench", "tau2", "toolbench"} {
		if seen[f] == 0 {
			t.Errorf("no file of the real data looks like %q: %v", f, seen)
		}
	}
}

// FuzzSniff pins that Sniff never panics and returns one of the import
// formats with a reason, or none without one.
func FuzzSniff(f *testing.F) {
	for _, p := range []string{
		filepath.Join("..", "tau2", "testdata", "shop-run.json"),
		filepath.Join("..", "claudecode", "testdata", "session.jsonl"),
		filepath.Join("..", "anthropicmsg", "testdata", "conversations.jsonl"),
	} {
		seed, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(seed)
	}
	f.Add([]byte(`[{"task_id":1,"traj":[]}]`))
	f.Add([]byte(`[{"role":"assistant","tool_calls":[{}]}]`))
	f.Add([]byte("{\"resourceSpans\":[]}\n{\"trajectory\":[],\"info\":{}}"))
	names := importers.Names()
	f.Fuzz(func(t *testing.T, data []byte) {
		format, why := sniff.Sniff(data)
		if format == "" && why != "" || format != "" && (why == "" || !slices.Contains(names, format)) {
			t.Fatalf("Sniff = %q, %q: want one of %v with a reason, or none", format, why, names)
		}
	})
}

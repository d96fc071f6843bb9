package sweagent

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers/ingest"
	"github.com/defersim/defersim/traces/importers/internal/importtest"
	"github.com/defersim/defersim/traces/importers/toolschema"
)

var update = flag.Bool("update", false, "rewrite golden files")

// The fixtures in testdata are hand-written in the SWE-agent trajectory
// shape (they copy no recorded trajectory): a thought-action run whose
// system prompt documents its commands, and a function-calling run whose
// replay_config carries the command documentation.
var fixtures = []string{
	filepath.Join("testdata", "tinymodel__demo-set__default__t-0.00__p-0.95__c-1.00__install-1", "demo__widget-1.traj"),
	filepath.Join("testdata", "fc-run", "demo__widget-2.traj"),
}

func importFixtures(t *testing.T) ([]*ingest.Session, *ingest.Report) {
	t.Helper()
	return importtest.ImportFiles(t, New(), Format, fixtures...)
}

func TestImportGolden(t *testing.T) {
	sessions, rep := importFixtures(t)
	trace := importtest.Encode(t, sessions)
	importtest.Validate(t, trace)
	importtest.Golden(t, *update, filepath.Join("testdata", "demo.golden.jsonl"), trace)
	importtest.Golden(t, *update, filepath.Join("testdata", "demo.report.golden.json"), importtest.ReportJSON(t, rep))
	var tools bytes.Buffer
	for _, s := range sessions {
		for _, set := range s.Schemas {
			b, err := toolschema.Encode(set.Tools)
			if err != nil {
				t.Fatal(err)
			}
			tools.WriteString("# " + s.ID + " (" + set.Note + ")\n")
			tools.Write(b)
		}
	}
	importtest.Golden(t, *update, filepath.Join("testdata", "demo.tools.golden.json"), tools.Bytes())
}

// TestThoughtAction pins the mapping of a thought-action run: the COMMANDS
// block leaves the system prompt for the catalog, actions become calls of
// documented commands (arguments from the signature) or of bash, the
// observations that follow are their results, execution times come from
// the trajectory, and the last observation, absent from history, too.
func TestThoughtAction(t *testing.T) {
	sessions, _ := importFixtures(t)
	s := sessions[0]
	st := s.Start()
	if strings.Contains(st.SystemPrompt(), "COMMANDS:") || strings.Contains(st.SystemPrompt(), "docstring") ||
		!strings.HasPrefix(st.SystemPrompt(), "SETTING:") || !strings.HasSuffix(st.SystemPrompt(), "Answer with one thought and one command.") {
		t.Errorf("system prompt keeps the command block or lost its text: %q", st.SystemPrompt())
	}
	if st.Model() != "tinymodel" || st.Meta()["mode"] != ModeThoughtAction || st.Meta()["model_stats.tokens_sent"] != "4000" {
		t.Errorf("model %q, meta %v", st.Model(), st.Meta())
	}
	if len(st.Servers()) != 1 || st.Servers()[0].Name != Server {
		t.Errorf("servers %+v, want the %s server listed", st.Servers(), Server)
	}
	type call struct {
		tool, args, result string
		ms                 int64
	}
	var got []call
	for _, ev := range s.Events {
		if ev.Type == traces.ToolCall {
			got = append(got, call{ev.Tool, string(ev.Args), ev.Result, ev.DurationMs})
		}
	}
	want := []call{
		{"open", `{"line_number":4,"path":"src/widget.py"}`, "[File: src/widget.py (6 lines)]\n4:def widget():\n5:    return 2\n(Open file: src/widget.py)\nbash-$", 250},
		{"replace", `{"from":5,"text":"    return 3","to":5}`, "File updated.\n(Open file: src/widget.py)\nbash-$", 0},
		{"bash", `{"command":"python -m pytest -q tests"}`, "1 passed\n(Open file: src/widget.py)\nbash-$", 1500},
		{"submit", `"submit now please"`, "diff --git a/src/widget.py b/src/widget.py", 100},
	}
	if d := cmp.Diff(want, got, cmp.AllowUnexported(call{})); d != "" {
		t.Errorf("calls (-want +got):\n%s", d)
	}
	var users []string
	for _, ev := range s.Events {
		if ev.Type == traces.UserMessage {
			users = append(users, ev.Text[:12])
		}
	}
	if d := cmp.Diff([]string{"Here is how ", "ISSUE: widge"}, users); d != "" {
		t.Errorf("user turns (-want +got):\n%s", d)
	}
}

// TestFunctionCalling pins the mapping of a function-calling run: calls
// from tool_calls paired through tool_call_ids, the last step (absent from
// history) added from the trajectory, the model and settings from
// replay_config with its api_key dropped.
func TestFunctionCalling(t *testing.T) {
	sessions, rep := importFixtures(t)
	s := sessions[1]
	st := s.Start()
	if st.Model() != "demo-model" || st.Meta()["mode"] != ModeFunctionCalling || st.Meta()["config.parse_function"] != "function_calling" ||
		st.SystemPrompt() != "You fix bugs with the tools you are given." {
		t.Errorf("session_start %+v", st)
	}
	for k := range st.Meta() {
		if strings.Contains(k, "api_key") {
			t.Errorf("meta keeps %s", k)
		}
	}
	if rep.CredentialsDropped["replay_config.agent.model.api_key"] != 1 {
		t.Errorf("credentials dropped: %v", rep.CredentialsDropped)
	}
	got := importtest.Calls(s)
	want := []string{
		`call swe-agent/find {"name":"test_gadget.py"} ok`,
		`call swe-agent/bash {"command":"pytest tests/test_gadget.py"} ok`,
		`call swe-agent/submit {} ok`,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("calls (-want +got):\n%s", d)
	}
	reqs := 0
	for _, ev := range s.Events {
		if ev.Type == traces.ModelRequest {
			reqs++
		}
	}
	if reqs != 3 {
		t.Errorf("model requests = %d, want 3 (info.model_stats.api_calls)", reqs)
	}
}

func TestParseDocs(t *testing.T) {
	docs := "bash:\n  docstring: runs it\n  signature: <command>\n  arguments:\n    - command (string) [required]: what\n\n" +
		"edit:\n  docstring: first line\nexample:\n\n  more\n\n  signature: edit <a>:<b>\n<text>\nend_of_edit\n\n  arguments:\n" +
		"    - a (integer) [required]: from\n    - b (integer) [required]: to\n    - text (string) [required]: new text\n\n\n" +
		"Please note: this is prose after the block.\n"
	cmds, n := parseDocs(docs)
	if len(cmds) != 2 || cmds[1].name != "edit" || cmds[1].docstring != "first line\nexample:\n\n  more" ||
		cmds[1].signature != "edit <a>:<b>\n<text>\nend_of_edit" || len(cmds[1].args) != 3 || !cmds[1].args[0].required {
		t.Fatalf("commands = %+v", cmds)
	}
	if rest := docs[n:]; !strings.HasPrefix(strings.TrimLeft(rest, "\n"), "Please note") {
		t.Errorf("read %d bytes, rest %q", n, rest)
	}
	short := "open <path> [<line>] - shows a file\nedit <a>:<b>\n<text>\nend_of_edit - replaces lines\nsubmit - hands in\n\nRESPONSE FORMAT: …"
	cmds, n = parseShortDocs(short)
	if len(cmds) != 3 || cmds[1].signature != "edit <a>:<b>\n<text>\nend_of_edit" || cmds[0].args[1].required || !cmds[0].args[0].required ||
		!strings.HasPrefix(short[n:], "\nRESPONSE") {
		t.Errorf("short form = %+v, rest %q", cmds, short[n:])
	}
	prompt := "Intro.\n\nCOMMANDS:\n" + short
	cmds, stripped := promptCommands(prompt)
	if len(cmds) != 3 || stripped != "Intro.\n\n\nRESPONSE FORMAT: …" {
		t.Errorf("promptCommands: %d commands, prompt %q", len(cmds), stripped)
	}
	if cmds, same := promptCommands("no block here"); cmds != nil || same != "no block here" {
		t.Errorf("prompt without a block changed: %q", same)
	}
	tool, dropped := (&command{name: "f", docstring: "d", args: []argument{{name: "x", typ: "integer", required: true}, {name: "y", typ: "file path"}}}).tool()
	if string(tool.InputSchema) != `{"type":"object","properties":{"x":{"type":"integer"},"y":{}},"required":["x"]}` || len(dropped) != 1 {
		t.Errorf("tool schema %s, dropped %v", tool.InputSchema, dropped)
	}
}

func TestParseAction(t *testing.T) {
	cmds := map[string]*command{}
	for _, c := range []command{
		{name: "open", signature: `open "<path>" [<line_number>]`, args: []argument{{name: "path", typ: "string", required: true}, {name: "line_number", typ: "integer"}}},
		{name: "edit", signature: "edit <start>:<end>\n<text>\nend_of_edit", args: []argument{{name: "start", typ: "integer", required: true}, {name: "end", typ: "integer", required: true}, {name: "text", typ: "string", required: true}}},
		{name: "insert", signature: "insert <text> [--line <line>]", args: []argument{{name: "text", typ: "string", required: true}, {name: "line", typ: "integer"}}},
		{name: "submit", signature: "submit", args: []argument{{name: "flag", typ: "string", required: true}}},
		{name: "bash", signature: "<command>", args: []argument{{name: "command", typ: "string", required: true}}},
	} {
		cmds[c.name] = &c
	}
	tests := []struct{ in, tool, args, how string }{
		{"open src/a.py", "open", `{"path":"src/a.py"}`, actCommand},
		{`open "my file.py" 12` + "\n", "open", `{"line_number":12,"path":"my file.py"}`, actCommand},
		{"open a.py b.py c.py", "open", `"open a.py b.py c.py"`, actMismatch},
		{"edit 3:4\n  x = 1\nend_of_edit\n", "edit", `{"end":4,"start":3,"text":"  x = 1"}`, actCommand},
		{"edit 3:4\n  x = 1", "edit", `{"end":4,"start":3,"text":"  x = 1"}`, actNoEnd},
		{"edit 3:4\nx\nend_of_edit\nls", "edit", `"edit 3:4\nx\nend_of_edit\nls"`, actMismatch},
		{"insert 'a b' --line 7", "insert", `{"line":7,"text":"a b"}`, actCommand},
		{"insert hello", "insert", `{"text":"hello"}`, actCommand},
		{"submit 'flag{a b}'", "submit", `{"flag":"flag{a b}"}`, actCommand}, // the signature names no argument: SWE-agent's default form
		{"ls -la && cat x", "bash", `{"command":"ls -la \u0026\u0026 cat x"}`, actShell},
		{"bash run.sh", "bash", `{"command":"bash run.sh"}`, actShell},
		{"open\nsecond line", "open", `"open\nsecond line"`, actMismatch},
		{"  \n", "", "", actEmpty},
	}
	for _, tt := range tests {
		tool, args, how := parseAction(tt.in, cmds)
		if tool != tt.tool || string(args) != tt.args || how != tt.how {
			t.Errorf("parseAction(%q) = %q, %s, %q; want %q, %s, %q", tt.in, tool, args, how, tt.tool, tt.args, tt.how)
		}
		if args != nil && !json.Valid(args) {
			t.Errorf("parseAction(%q): invalid JSON %s", tt.in, args)
		}
	}
}

func TestShellWords(t *testing.T) {
	for in, want := range map[string][]string{
		`a "b c" 'd e' f\ g`: {"a", "b c", "d e", "f g"},
		`x "q\"uote" 'raw\'`: {"x", `q"uote`, `raw\`},
		`open 'unterminated`: {"open", "unterminated"},
		"  spaced \t  out  ": {"spaced", "out"},
	} {
		if d := cmp.Diff(want, shellWords(in)); d != "" {
			t.Errorf("shellWords(%q) (-want +got):\n%s", in, d)
		}
	}
}

func TestImportErrors(t *testing.T) {
	tests := []struct{ name, data, want string }{
		{"not json", "hello", "want a SWE-agent trajectory object"},
		{"array", "[]", "want a SWE-agent trajectory object"},
		{"syntax", `{"history": [}`, "line 1 col"},
		{"empty", `{"info": {}}`, `no "history" or "trajectory"`},
		{"history not array", `{"history": 3}`, "history: want an array"},
		{"message not object", `{"history": [3]}`, "history[0]: want a JSON object"},
		{"role not string", `{"history": [{"role": 1}]}`, "history[0].role: want a string"},
		{"ids not strings", `{"history": [{"role": "tool", "tool_call_ids": [1]}]}`, "tool_call_ids: want an array of strings"},
		{"time not number", `{"trajectory": [{"execution_time": "x"}]}`, "trajectory[0].execution_time: want a number"},
		{"bad config", `{"history": [], "replay_config": "{"}`, "replay_config"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var sink importtest.Sink
			err := New().Import("run/x.traj", strings.NewReader(tt.data), &ingest.Options{}, &sink, ingest.NewReport(Format))
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "run/x.traj: ") {
				t.Fatalf("error = %v, want one naming the file and containing %q", err, tt.want)
			}
		})
	}
}

func FuzzImportSWEAgent(f *testing.F) {
	for _, p := range fixtures {
		seed, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(seed)
	}
	f.Add([]byte(`{"history":[{"role":"assistant","action":"edit 1:2\nx"}],"trajectory":[{"action":"edit 1:2\nx","execution_time":1}]}`))
	f.Add([]byte(`{"history":[{"role":"system","content":"COMMANDS:\na:\n  docstring: x\n  signature: a <b>\n"}],"replay_config":"{\"agent\":{}}"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		importtest.Fuzz(t, data, func(sink ingest.Sink, rep *ingest.Report) error {
			return New().Import("fuzz/x.traj", bytes.NewReader(data), &ingest.Options{}, sink, rep)
		})
	})
}

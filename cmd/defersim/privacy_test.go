package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/privacytest"
)

// The canary tests pin the privacy guarantee of docs/reliability.md: what a
// command writes or prints holds counts, sizes, hashes, tool and server
// names, never the content of a session (message text, system prompt,
// arguments, results, errors, search queries, metadata) nor a credential
// found in it. Session ids, tool, server and model names are names, not
// content: no canary is planted there.

// canaryTrace plants a distinct canary in every content-bearing field of a
// few sessions that exercise every event type, credentials of the usual
// shapes included. bad adds malformed lines that carry canaries too.
func canaryTrace(cs *privacytest.Set, bad bool) []byte {
	var lines []string
	add := func(v map[string]any) {
		b, err := json.Marshal(v)
		if err != nil {
			panic(err)
		}
		lines = append(lines, string(b))
	}
	c := func(field string) string { return cs.Add(field) }
	for i, id := range []string{"sess-a", "sess-b", "sess-c"} {
		f := func(field string) string { return c(fmt.Sprintf("%s[%d]", field, i)) }
		ts := func(sec int) string { return fmt.Sprintf("2026-03-0%dT10:00:%02dZ", i+1, sec) }
		add(map[string]any{"v": 1, "type": "session_start", "session": id, "t": ts(0), "model": "claude-sonnet-4.5",
			"system_prompt": "You are a helpful agent. " + f("system_prompt"),
			"servers":       []map[string]string{{"name": "files", "version": "1.0.0"}, {"name": "tickets", "version": "2.0.0"}, {"name": "browser", "version": "0.9.0"}},
			"meta": map[string]string{
				"team":           f("meta.team"),
				"api_key":        "sk-proj-" + f("meta.api_key") + "AbCdEf0123456789",
				"anthropic_key":  "sk-ant-api03-" + f("meta.anthropic_key") + "xyzXYZ0123456789-_",
				"authorization":  "Bearer " + f("meta.bearer"),
				"database_url":   "postgres://admin:" + f("meta.url_password") + "@db.internal.example:5432/prod",
				f("meta.key"):    "value",
				"github_token":   "ghp_" + f("meta.github_token") + "0123456789abcdef",
				"ssh_key":        "-----BEGIN OPENSSH PRIVATE KEY-----\n" + f("meta.private_key") + "\n-----END OPENSSH PRIVATE KEY-----",
				"customer_email": f("meta.email") + "@customer.example",
			},
			"x_vendor_notes": f("extension.field"),
		})
		add(map[string]any{"type": "user", "session": id, "t": ts(1),
			"text": "Please open ticket and read the file report for " + f("user.text") + " using my key sk-" + f("user.api_key") + "0123456789abcdefABCDEF"})
		add(map[string]any{"type": "model_request", "session": id, "t": ts(2), "id": "r1", "ttft_ms": 700, "duration_ms": 1500,
			"usage": map[string]int{"input": 2400, "cache_write": 2000, "output": 40}})
		add(map[string]any{"type": "tool_search", "session": id, "t": ts(3), "request": "r1", "call_id": "s1",
			"query": "ticket " + f("tool_search.query"), "returned": []string{"search_tickets", "create_ticket"}, "duration_ms": 4})
		add(map[string]any{"type": "model_request", "session": id, "t": ts(4), "id": "r2", "ttft_ms": 500, "duration_ms": 900,
			"usage": map[string]int{"input": 300, "cache_read": 2400, "output": 30}})
		add(map[string]any{"type": "tool_call", "session": id, "t": ts(5), "request": "r2", "call_id": "c1",
			"tool": "search_tickets", "server": "tickets", "status": "ok", "duration_ms": 120,
			"args": map[string]any{
				"query": f("args.query"),
				"filters": map[string]any{
					f("args.nested_key"): map[string]any{"deep": []any{f("args.deep_value"), 3, true}},
					"owner":              f("args.owner"),
				},
				"api_key":  "sk-" + f("args.api_key") + "0123456789abcdefABCDEF",
				"endpoint": "https://svc:" + f("args.url_password") + "@api.internal.example/v1",
				"headers":  map[string]string{"Authorization": "Bearer " + f("args.bearer")},
			},
			"result": "found 2 tickets: " + f("tool_call.result"), "result_tokens": 40})
		add(map[string]any{"type": "tool_call", "session": id, "t": ts(6), "request": "r2", "call_id": "c2",
			"tool": "read_file", "server": "files", "status": "error", "duration_ms": 5,
			"args":  `{"path":"/home/` + f("args.string_form") + `/notes.txt"}`,
			"error": "permission denied: " + f("tool_call.error")})
		add(map[string]any{"type": "catalog_change", "session": id, "t": ts(7), "server": "browser", "version": "0.9.1"})
		add(map[string]any{"type": "deferral_change", "session": id, "t": ts(7), "added": []string{"browser_navigate"}})
		add(map[string]any{"type": "model_request", "session": id, "t": ts(8), "id": "r3", "ttft_ms": 400, "duration_ms": 800,
			"usage": map[string]int{"input": 200, "cache_read": 2700, "output": 60}})
		add(map[string]any{"type": "tool_call", "session": id, "t": ts(9), "request": "r3", "call_id": "c3",
			"tool": "browser_navigate", "server": "browser", "status": "rejected",
			"args": map[string]any{"url": "https://user:" + f("args.nav_password") + "@intranet.example/page"}})
		add(map[string]any{"type": "assistant", "session": id, "t": ts(10), "request": "r3",
			"text": "Here is what I found: " + f("assistant.text")})
		add(map[string]any{"type": "session_end", "session": id, "t": ts(11)})
	}
	if bad {
		// Lines the reader rejects (skipped under --skip-bad), each carrying
		// content the error message must not echo.
		lines = append(lines,
			`{"type":"user","session":"sess-a","t":"2026-03-01T10:00:30Z","text":"`+c("bad.truncated")+` and then the line ends`,
			`{"type":"user","session":"sess-a","t":"2026-03-01T10:00:30Z","text":"`+c("bad.invalid_utf8")+"\xff\xfe"+`"}`,
			`{"type":"user","session":"sess-a","t":"2026-03-01T10:00:30Z","text":"`+c("bad.nul")+"\x00"+`"}`,
			`{"type":"user","session":"sess-a","t":"2026-03-01T10:00:30Z","text":{"k":"`+c("bad.wrong_type")+`"}}`,
			`{"type":"tool_call","session":"sess-a","t":"2026-03-01T10:00:30Z","call_id":"c9","tool":"read_file","server":"files","args":["`+c("bad.args_array")+`"]}`,
			`{"type":"user","session":"sess-z","t":"2026-03-01T10:00:30Z","text":"`+c("bad.not_open")+`"}`,
			`{"type":"user","session":"sess-a","t":"2026-03-01T10:00:30Z","text":"`+c("bad.garbage")+`"} trailing `+c("bad.trailing"),
			`{"type":"user","session":"sess-a","t":"2026-03-01T10:00:30Z","meta":{"k":"`+c("bad.unknown_field_value")+`"},"text_tokens":-3}`,
		)
	}
	return []byte(strings.Join(lines, "\n") + "\n")
}

// canaryCatalog writes catalog files whose descriptions, titles, enums,
// defaults and examples carry canaries: a private MCP server's schemas are
// not for the report either.
func canaryCatalog(t *testing.T, cs *privacytest.Set, dir string) {
	t.Helper()
	tool := func(name string) map[string]any {
		return map[string]any{"name": name, "title": cs.Add("catalog." + name + ".title"),
			"description": "Tool " + name + " " + cs.Add("catalog."+name+".description"),
			"inputSchema": map[string]any{"type": "object",
				"properties": map[string]any{
					"query": map[string]any{"type": "string", "description": cs.Add("catalog." + name + ".param_description"),
						"default": cs.Add("catalog." + name + ".default"), "examples": []string{cs.Add("catalog." + name + ".example")}},
					"mode": map[string]any{"type": "string", "enum": []string{cs.Add("catalog." + name + ".enum"), "fast"}},
				},
				"required": []string{"query"}}}
	}
	files := map[string][]string{
		"files@1.0.0.json":   {"read_file", "write_file", "list_dir"},
		"tickets@2.0.0.json": {"search_tickets", "create_ticket", "close_ticket"},
		"browser@0.9.0.json": {"browser_navigate", "browser_snapshot"},
		"browser@0.9.1.json": {"browser_navigate", "browser_snapshot", "browser_click"},
	}
	for i := range 30 {
		files["tickets@2.0.0.json"] = append(files["tickets@2.0.0.json"], fmt.Sprintf("ticket_op_%02d", i))
	}
	for file, names := range files {
		var tools []map[string]any
		for _, n := range names {
			tools = append(tools, tool(n))
		}
		data, err := json.Marshal(map[string]any{"tools": tools})
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, file), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// canaryScenario lists strategies that defer (so recorded queries, user text
// and schemas go through search, directories and validation), with a query
// model that reads the user's text.
const canaryScenario = `name: canary
seed: 3
traces: [trace.jsonl]
catalogs: [catalogs/]
model: claude-sonnet-4.5
params:
  query_model: user-text
  cold_call_prob: 0.5
strategies:
  - eager
  - claude-code-default
  - anchor-e7-per-tool
  - anthropic-api-inline
  - name: bm25-desc
    trigger: {mode: always}
    search: {mode: bm25, k: 3}
    directory: {format: names-desc}
    echo_schema: true
  - name: regex-by-server
    trigger: {mode: always}
    search: {mode: regex, k: 2}
    directory: {format: by-server}
    rejected: execute
    warm: {key: fingerprint}
baseline: eager
`

// cliRun runs the CLI with args, returning stdout, stderr and the exit status.
func cliRun(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	root := newRootCmd()
	var out, errb bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errb)
	root.SetArgs(args)
	err := root.Execute()
	var ex exitError
	switch {
	case err == nil:
	case errors.As(err, &ex):
		code = ex.code
		errb.WriteString(ex.msg + "\n")
	default:
		code = 2
		errb.WriteString(err.Error() + "\n")
	}
	return out.String(), errb.String(), code
}

// assertNoLeak fails for every canary of cs found in the files under dirs or
// in the printed outputs.
func assertNoLeak(t *testing.T, cs *privacytest.Set, dirs []string, printed map[string]string) {
	t.Helper()
	var leaks []privacytest.Leak
	for _, d := range dirs {
		l, err := cs.ScanDir(d)
		if err != nil {
			t.Fatal(err)
		}
		leaks = append(leaks, l...)
	}
	for where, s := range printed {
		leaks = append(leaks, cs.Scan(where, []byte(s))...)
	}
	for _, l := range leaks {
		t.Errorf("leak: %s", l)
	}
}

// TestRunReportWriteNoSessionContent pins that a full run (every output:
// results.json, report.html/.md, PNG and SVG plots, sessions.csv, the
// per-request CSV) and a re-rendered report carry no canary from a trace
// that has one in every content field, and that nothing printed does.
func TestRunReportWriteNoSessionContent(t *testing.T) {
	cs := privacytest.NewSet("ca")
	in := t.TempDir()
	if err := os.Mkdir(filepath.Join(in, "catalogs"), 0o755); err != nil {
		t.Fatal(err)
	}
	canaryCatalog(t, cs, filepath.Join(in, "catalogs"))
	if err := os.WriteFile(filepath.Join(in, "trace.jsonl"), canaryTrace(cs, true), 0o644); err != nil {
		t.Fatal(err)
	}
	scen := filepath.Join(in, "scenario.yaml")
	if err := os.WriteFile(scen, []byte(canaryScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	// The scan must see every canary in the input, or it proves nothing.
	found, err := cs.ScanDir(in)
	fields := map[string]bool{}
	for _, l := range found {
		fields[l.Field] = true
	}
	if err != nil || len(fields) != len(cs.Fields()) {
		t.Fatalf("the inputs hold %d of %d canaries (%v)", len(fields), len(cs.Fields()), err)
	}
	out, out2 := t.TempDir(), t.TempDir()
	printed := map[string]string{}
	stdout, stderr, code := cliRun(t, "run", scen, "-o", out, "--skip-bad", "--sessions-csv",
		"--per-request", filepath.Join(out, "per-request.csv"), "--bootstrap", "50")
	printed["run stdout"], printed["run stderr"] = stdout, stderr
	if code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "replayed 3 of 3 sessions") || !strings.Contains(stdout, "8 skipped") {
		t.Errorf("run summary does not show 3 sessions and 8 skipped lines:\n%s", stdout)
	}
	stdout, stderr, code = cliRun(t, "run", scen, "-o", t.TempDir(), "--skip-bad", "--format", "json", "--no-report", "--bootstrap", "-1")
	printed["run --json stdout"], printed["run --json stderr"] = stdout, stderr
	if code != 0 {
		t.Fatalf("run --json: exit %d\n%s%s", code, stdout, stderr)
	}
	// Without --skip-bad the first bad line stops the run: its message names
	// the line and the reason only.
	stdout, stderr, code = cliRun(t, "run", scen, "-o", t.TempDir(), "--strict")
	printed["run (stops) stdout"], printed["run (stops) stderr"] = stdout, stderr
	if code == 0 || !strings.Contains(stderr, "trace.jsonl:40: invalid JSON") {
		t.Errorf("run over a bad line: exit %d, stderr %q", code, stderr)
	}
	stdout, stderr, code = cliRun(t, "report", filepath.Join(out, "results.json"), "-o", out2)
	printed["report stdout"], printed["report stderr"] = stdout, stderr
	if code != 0 {
		t.Fatalf("report: exit %d\n%s%s", code, stdout, stderr)
	}
	files, err := privacytest.Files(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"results.json", "report.html", "report.md", "sessions.csv", "per-request.csv",
		"plots/first-reply-cdf.png", "plots/first-reply-cdf.svg"} {
		if !strings.Contains(","+strings.Join(files, ",")+",", ","+want+",") {
			t.Errorf("output lacks %s (has %v): the scan would not cover it", want, files)
		}
	}
	if data, err := os.ReadFile(filepath.Join(out, "per-request.csv")); err != nil || strings.Count(string(data), "\n") < 4 {
		t.Errorf("per-request.csv has no rows (%v):\n%s", err, data)
	}
	assertNoLeak(t, cs, []string{out, out2}, printed)
}

// TestTraceCmdsPrintNoSessionContent pins that trace stats and trace
// validate (text and JSON, on a clean and on a broken file) print problems
// and counts without echoing the content of a line.
func TestTraceCmdsPrintNoSessionContent(t *testing.T) {
	cs := privacytest.NewSet("ca")
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "catalogs"), 0o755); err != nil {
		t.Fatal(err)
	}
	canaryCatalog(t, cs, filepath.Join(dir, "catalogs"))
	clean, bad := filepath.Join(dir, "clean.jsonl"), filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(clean, canaryTrace(cs, false), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, canaryTrace(cs, true), 0o644); err != nil {
		t.Fatal(err)
	}
	printed := map[string]string{}
	for _, args := range [][]string{
		{"trace", "stats", clean},
		{"trace", "stats", "--format", "json", "--top", "0", clean},
		{"trace", "stats", bad},
		{"trace", "stats", "--skip-bad", "--format", "json", bad},
		{"trace", "validate", clean, bad},
		{"trace", "validate", "--format", "json", "--catalogs", filepath.Join(dir, "catalogs"), clean, bad},
	} {
		stdout, stderr, code := cliRun(t, args...)
		name := strings.Join(args, " ")
		printed[name+" stdout"], printed[name+" stderr"] = stdout, stderr
		if stdout+stderr == "" || code > 1 {
			t.Errorf("%s: exit %d, output %q", name, code, stdout+stderr)
		}
	}
	if v := printed["trace validate "+clean+" "+bad+" stdout"]; !strings.Contains(v, "bad.jsonl:") {
		t.Errorf("validate reports no problem of bad.jsonl:\n%s", v)
	}
	if testing.Verbose() {
		for k, v := range printed {
			t.Logf("%s:\n%s", k, v)
		}
	}
	assertNoLeak(t, cs, nil, printed)
}

// importerCredentials returns a source conversation object of format, with a
// credential canary of creds in its provider settings, headers, environment
// and metadata, and content canaries of content in its messages.
func importerCredentials(format string, creds, content *privacytest.Set) map[string]any {
	k := func(field string) string { return creds.Add(format + "." + field) }
	meta := map[string]any{
		"team":        "payments",
		"api_key":     "sk-proj-" + k("metadata.api_key") + "0123456789",
		"note":        "sk-" + k("metadata.value_shaped_key") + "0123456789abcdefXYZ",
		"upstream":    "Bearer " + k("metadata.bearer"),
		"database":    "postgres://admin:" + k("metadata.url_password") + "@db.internal.example:5432/prod",
		"deploy":      "-----BEGIN RSA PRIVATE KEY-----\n" + k("metadata.private_key") + "\n-----END RSA PRIVATE KEY-----",
		"github_pat":  "ghp_" + k("metadata.github_token") + "0123456789abcdefgh",
		"aws":         map[string]any{"access_key_id": "AKIA" + strings.ToUpper(k("metadata.aws_key")) + "X", "secret_access_key": k("metadata.aws_secret")},
		"provider":    map[string]any{"apiKey": k("metadata.provider.apiKey"), "baseURL": "https://proxy:" + k("metadata.provider.url_password") + "@llm.internal.example/v1"},
		"session_tok": map[string]any{"session_token": k("metadata.session_token")},
	}
	conv := map[string]any{
		"id": "conv-" + format, "model": "test-model", "metadata": meta,
		"headers":           map[string]any{"Authorization": "Bearer " + k("headers.authorization"), "X-Api-Key": k("headers.x_api_key")},
		"env":               map[string]any{"OPENAI_API_KEY": "sk-" + k("env.openai") + "0123456789abcdef", "HOME": "/home/" + k("env.home")},
		"provider_settings": map[string]any{"api_key": k("provider_settings.api_key"), "organization": k("provider_settings.org"), "password": k("provider_settings.password")},
	}
	user := "Look up the order for " + content.Add(format+".user.text")
	switch format {
	case "openai-messages":
		conv["messages"] = []any{
			map[string]any{"role": "system", "content": "Be brief."},
			map[string]any{"role": "user", "content": user},
			map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": "t1", "type": "function",
				"function": map[string]any{"name": "get_order", "arguments": `{"order":"` + content.Add(format+".args") + `"}`}}}},
			map[string]any{"role": "tool", "tool_call_id": "t1", "content": "shipped"},
			map[string]any{"role": "assistant", "content": "It shipped."},
		}
		conv["tools"] = []any{map[string]any{"type": "function", "function": map[string]any{"name": "get_order", "description": "Order status.",
			"parameters": map[string]any{"type": "object", "properties": map[string]any{"order": map[string]any{"type": "string"}}}}}}
	case "anthropic-messages":
		conv["mcp_servers"] = []any{map[string]any{"type": "url", "url": "https://u:" + k("mcp_servers.url_password") + "@mcp.internal.example/sse",
			"name": "orders", "authorization_token": k("mcp_servers.authorization_token")}}
		conv["messages"] = []any{
			map[string]any{"role": "user", "content": user},
			map[string]any{"role": "assistant", "id": "msg_1", "content": []any{map[string]any{"type": "tool_use", "id": "tu_1", "name": "get_order",
				"input": map[string]any{"order": content.Add(format + ".args")}}}},
			map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": "tu_1", "content": "shipped"}}},
			map[string]any{"role": "assistant", "id": "msg_2", "content": "It shipped."},
		}
		conv["tools"] = []any{map[string]any{"name": "get_order", "description": "Order status.",
			"input_schema": map[string]any{"type": "object", "properties": map[string]any{"order": map[string]any{"type": "string"}}}}}
	}
	return conv
}

// TestImportDropsCredentials pins that trace import keeps the content of a
// session (it is the trace) but drops every credential in provider settings,
// headers, environment blocks and metadata, whatever its shape (API key,
// bearer token, password in a URL, private key), and reports the dropped
// fields by name, never by value.
func TestImportDropsCredentials(t *testing.T) {
	for _, format := range []string{"openai-messages", "anthropic-messages"} {
		t.Run(format, func(t *testing.T) {
			creds, content := privacytest.NewSet("cr"), privacytest.NewSet("co")
			dir := t.TempDir()
			src := filepath.Join(dir, "in.json")
			data, err := json.Marshal(importerCredentials(format, creds, content))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(src, data, 0o644); err != nil {
				t.Fatal(err)
			}
			outDir := filepath.Join(dir, "out")
			printed := map[string]string{}
			for _, args := range [][]string{
				{"trace", "import", "--from", format, "-o", filepath.Join(outDir, "trace.jsonl"), src},
				{"trace", "import", "--from", format, "--format", "json", "-o", filepath.Join(outDir, "trace2.jsonl.gz"), src},
			} {
				stdout, stderr, code := cliRun(t, args...)
				if code != 0 {
					t.Fatalf("%v: exit %d\n%s%s", args, code, stdout, stderr)
				}
				printed[strings.Join(args, " ")] = stdout + stderr
			}
			if !strings.Contains(printed[strings.Join([]string{"trace", "import", "--from", format, "-o", filepath.Join(outDir, "trace.jsonl"), src}, " ")], "metadata.api_key") {
				t.Errorf("the report does not name the dropped metadata.api_key:\n%v", printed)
			}
			assertNoLeak(t, creds, []string{outDir}, printed)
			trace, err := os.ReadFile(filepath.Join(outDir, "trace.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			if got := len(content.Scan("trace", trace)); got != len(content.Fields()) {
				t.Errorf("the imported trace holds %d of the %d content canaries: the import lost the session", got, len(content.Fields()))
			}
		})
	}
}

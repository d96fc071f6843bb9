package ingest

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/traces"
)

func TestCredentialKeys(t *testing.T) {
	tests := []struct {
		key  string
		want bool
	}{
		{"api_key", true}, {"apiKey", true}, {"X-Api-Key", true}, {"OPENAI_API_KEY", true},
		{"authorization", true}, {"Authorization", true}, {"access_token", true}, {"token", true},
		{"GITHUB_PERSONAL_ACCESS_TOKEN", true}, {"client_secret", true}, {"password", true}, {"auth", true},
		{"prompt_tokens", false}, {"max_tokens", false}, {"input_tokens", false}, {"temperature", false},
		{"base_url", false}, {"key", false}, {"llm", false}, {"author", false}, {"keyword", false},
	}
	for _, tt := range tests {
		if got := IsCredentialKey(tt.key); got != tt.want {
			t.Errorf("IsCredentialKey(%q) = %v, want %v", tt.key, got, tt.want)
		}
	}
	for _, k := range []string{"headers", "extra_headers", "env", "ENV"} {
		if !IsCredentialBlock(k) {
			t.Errorf("IsCredentialBlock(%q) = false", k)
		}
	}
	if IsCredentialBlock("environment_info") {
		t.Error("environment_info is not a credential block")
	}
	for s, want := range map[string]bool{"sk-abcdefghijklmnopqrstu": true, "Bearer abc": true, "sk-short": false, "a normal sentence": false} {
		if LooksLikeSecret(s) != want {
			t.Errorf("LooksLikeSecret(%q) = %v", s, !want)
		}
	}
}

func TestFlattenMetaAndScan(t *testing.T) {
	rep := NewReport("x")
	meta := map[string]string{}
	raw := json.RawMessage(`{"temperature":0,"api_key":"k","nested":{"base_url":"u","headers":{"a":"b"}},"list":[1,2],"empty":"","t":"sk-abcdefghijklmnopqrstuv"}`)
	FlattenMeta(meta, "llm", "info.llm", raw, rep)
	want := map[string]string{"llm.temperature": "0", "llm.nested.base_url": "u", "llm.list": "[1,2]"}
	if d := cmp.Diff(want, meta); d != "" {
		t.Errorf("meta (-want +got):\n%s", d)
	}
	wantDropped := map[string]int{"info.llm.api_key": 1, "info.llm.nested.headers": 1, "info.llm.t": 1}
	if d := cmp.Diff(wantDropped, rep.CredentialsDropped); d != "" {
		t.Errorf("dropped (-want +got):\n%s", d)
	}

	rep = NewReport("x")
	o, err := NewObject("", "", json.RawMessage(`{"keep":1,"settings":{"deep":[{"password":"p"}]},"env":{"A":"1"},"blank":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	o.Take("keep")
	o.Rest(rep)
	if d := cmp.Diff(map[string]int{"settings": 1}, rep.Unmapped); d != "" {
		t.Errorf("unmapped (-want +got):\n%s", d)
	}
	if d := cmp.Diff(map[string]int{"settings.deep[].password": 1, "env": 1}, rep.CredentialsDropped); d != "" {
		t.Errorf("dropped (-want +got):\n%s", d)
	}
}

func TestObjectTakers(t *testing.T) {
	o, err := NewObject("x[1]", "x[]", json.RawMessage(`{"s":"a","n":"42","f":3.0,"b":true,"bad":"z","arr":[1],"obj":{"k":1},"nul":null}`))
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := o.TakeString("s"); s != "a" {
		t.Errorf("s = %q", s)
	}
	if n, ok, _ := o.TakeInt("n"); n != 42 || !ok {
		t.Errorf("n = %d %v", n, ok)
	}
	if n, ok, _ := o.TakeInt("f"); n != 3 || !ok {
		t.Errorf("f = %d %v", n, ok)
	}
	if _, _, err := o.TakeInt("bad"); err == nil || !strings.Contains(err.Error(), "x[1].bad") {
		t.Errorf("bad int error = %v", err)
	}
	if b, ok, _ := o.TakeBool("b"); !b || !ok {
		t.Error("b")
	}
	if _, ok, _ := o.TakeInt("nul"); ok {
		t.Error("null taken as a value")
	}
	if _, err := o.TakeString("arr"); err == nil {
		t.Error("array taken as a string")
	}
	inner, err := o.TakeObject("obj")
	if err != nil || inner.Pos != "x[1].obj" || inner.Field != "x[].obj" {
		t.Errorf("inner = %+v, %v", inner, err)
	}
	if _, err := NewObject("p", "", json.RawMessage(`[1]`)); err == nil || !strings.HasPrefix(err.Error(), "p: ") {
		t.Errorf("NewObject error = %v", err)
	}
}

func TestArgs(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{`{"a": 1}`, `{"a":1}`, true},
		{`"{\"a\": 1}"`, `{"a":1}`, true},
		{`""`, `{}`, true},
		{`"not json"`, `"not json"`, false},
		{`"[1,2]"`, `"[1,2]"`, false},
		{`[1, 2]`, `"[1,2]"`, false},
		{`7`, `"7"`, false},
		{`null`, ``, true},
		// Arguments with a key twice (FuzzImportAnthropicMessages found
		// {"":"","":{}}) are kept as a string: a trace line holding them as
		// an object is refused by the reader, so the import would write a
		// trace it cannot read back.
		{`{"":"","":{}}`, `"{\"\":\"\",\"\":{}}"`, false},
		{`{"a":{"k":1,"k":2}}`, `"{\"a\":{\"k\":1,\"k\":2}}"`, false},
		{`"{\"a\":1,\"a\":2}"`, `"{\"a\":1,\"a\":2}"`, false},
		{`{"a":1,"A":2}`, `{"a":1,"A":2}`, true},
	}
	for _, tt := range tests {
		got, ok := Args(json.RawMessage(tt.in))
		if string(got) != tt.want || ok != tt.ok {
			t.Errorf("Args(%s) = %s, %v; want %s, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestParseTime(t *testing.T) {
	want := time.Date(2025, 8, 10, 2, 44, 6, 547392000, time.UTC)
	for _, s := range []string{"2025-08-10T02:44:06.547392", "2025-08-10T02:44:06.547392Z", "2025-08-10T04:44:06.547392+02:00", "2025-08-10 02:44:06.547392"} {
		got, err := ParseTime(s)
		if err != nil || !got.Equal(want) {
			t.Errorf("ParseTime(%q) = %v, %v", s, got, err)
		}
	}
	if _, err := ParseTime("yesterday"); err == nil {
		t.Error("ParseTime accepted garbage")
	}
	if Millis(want, want.Add(1500*time.Microsecond)) != 2 || Millis(want, want.Add(-time.Second)) != 0 || Millis(time.Time{}, want) != 0 {
		t.Error("Millis")
	}
}

func TestBuilderTimesAndPairing(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	rep := NewReport("x")
	b := NewBuilder("s", "", "srv")
	b.Add(traces.Event{Type: traces.SessionStart})
	b.Add(traces.Event{Type: traces.UserMessage, T: t0.Add(2 * time.Second), Text: "hi"})
	r := b.Request("", t0.Add(time.Second), 0, nil) // earlier than the user message: raised
	b.Call(traces.Event{CallID: "a", Tool: "x", Request: b.At(r).ID})
	b.Call(traces.Event{CallID: "a", Tool: "y", Request: b.At(r).ID})
	b.Call(traces.Event{Tool: "z", Request: b.At(r).ID})
	if i := b.Answer("a"); i < 0 || b.At(i).Tool != "x" {
		t.Errorf("first answer of a went to %d", i)
	}
	if i := b.Answer("nope"); i != -1 {
		t.Errorf("answer without call = %d", i)
	}
	s := b.End(time.Time{}, rep)
	if err := CheckSession(&s.Session); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ev := range s.Events {
		got = append(got, string(ev.Type)+"@"+ev.T.Format("05")+"/"+ev.CallID)
	}
	want := []string{"session_start@02/", "user@02/", "model_request@02/", "tool_call@02/a", "tool_call@02/a", "tool_call@02/c3", "session_end@02/"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("events (-want +got):\n%s", d)
	}
	if s.Events[0].Meta()["timing"] != TimingPartial {
		t.Errorf("timing = %q", s.Events[0].Meta()["timing"])
	}
	wantUnmapped := map[string]int{
		"timestamp earlier than the previous event (raised to it)":        1,
		"tool call without a result (status left empty)":                  2,
		"tool call without a call id (ids c1, c2, … generated)":           1,
		"event without a recorded time (given the previous event's time)": 3,
	}
	if d := cmp.Diff(wantUnmapped, rep.Unmapped); d != "" {
		t.Errorf("unmapped (-want +got):\n%s", d)
	}
}

func TestBuilderSynthetic(t *testing.T) {
	rep := NewReport("x")
	b := NewBuilder("s", "", "srv")
	b.Add(traces.Event{Type: traces.SessionStart})
	b.Add(traces.Event{Type: traces.UserMessage, Text: "hi"})
	s := b.End(time.Time{}, rep)
	for _, ev := range s.Events {
		if !ev.T.Equal(SyntheticTime()) {
			t.Errorf("%s at %v", ev.Type, ev.T)
		}
	}
	if s.Events[0].Meta()["timing"] != TimingSynthetic || len(rep.Notes) != 1 {
		t.Errorf("timing %q, notes %v", s.Events[0].Meta()["timing"], rep.Notes)
	}
}

func TestCheckSession(t *testing.T) {
	t0 := time.Unix(100, 0).UTC()
	ok := func() *traces.Session {
		return &traces.Session{ID: "s", Events: []traces.Event{
			{V: 1, Type: traces.SessionStart, Session: "s", T: t0},
			{Type: traces.ModelRequest, Session: "s", T: t0, ID: "r1"},
			{Type: traces.ToolCall, Session: "s", T: t0, Request: "r1", Tool: "x", Args: json.RawMessage(`{}`)},
			{Type: traces.SessionEnd, Session: "s", T: t0.Add(time.Second)},
		}}
	}
	if err := CheckSession(ok()); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		break_ func(s *traces.Session)
		want   string
	}{
		{"no end", func(s *traces.Session) { s.Events = s.Events[:3] }, "close with session_end"},
		{"other session", func(s *traces.Session) { s.Events[1].Session = "t" }, "differs"},
		{"unknown request", func(s *traces.Session) { s.Events[2].Request = "r9" }, "not recorded before"},
		{"repeated request", func(s *traces.Session) { s.Events[2] = s.Events[1] }, "empty or repeated"},
		{"no tool", func(s *traces.Session) { s.Events[2].Tool = "" }, "without tool name"},
		{"bad args", func(s *traces.Session) { s.Events[2].Args = json.RawMessage(`{`) }, "not valid JSON"},
		{"backwards", func(s *traces.Session) { s.Events[3].T = t0.Add(-time.Second) }, "before the previous"},
		{"negative", func(s *traces.Session) { s.Events[1].Usage = &traces.Usage{Input: -1} }, "negative"},
		{"no version", func(s *traces.Session) { s.Events[0].V = 0 }, "format version"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := ok()
			tt.break_(s)
			if err := CheckSession(s); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("CheckSession = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestConversations(t *testing.T) {
	tests := []struct {
		name string
		data string
		want []string
		err  string
	}{
		{"object", ` {"messages":[]} `, []string{""}, ""},
		{"message array", `[{"role":"user"}]`, []string{""}, ""},
		{"conversation array", `[{"messages":[]},[]]`, []string{"[0]", "[1]"}, ""},
		{"jsonl", "{\"a\":1}\n\n{\"b\":2}\n", []string{"line 1", "line 3"}, ""},
		{"broken line", "{\"a\":1}\n{\"b\":\n", nil, "line 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			err := Conversations([]byte(tt.data), nil, func(pos string, raw json.RawMessage) error {
				got = append(got, pos)
				return nil
			})
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("positions (-want +got):\n%s", d)
			}
		})
	}
	stop := errors.New("stop")
	if err := Conversations([]byte("{}\n{}\n"), nil, func(string, json.RawMessage) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("callback error not returned: %v", err)
	}
}

func TestJSONError(t *testing.T) {
	data := []byte("{\n  \"a\": [1,\n  }")
	var v any
	err := JSONError(data, json.Unmarshal(data, &v))
	if err == nil || !strings.HasPrefix(err.Error(), "line 3 col") {
		t.Errorf("JSONError = %v", err)
	}
}

// TestMetaDropsEmbeddedSecrets pins the fix for a leak the privacy canary
// test found: a metadata value holding a password in a URL or a PEM private
// key was copied into the imported trace, because only values *starting*
// with a key prefix counted as secrets. Now any value holding a secret of a
// shape internal/redact knows is dropped and reported.
func TestMetaDropsEmbeddedSecrets(t *testing.T) {
	rep := NewReport("x")
	meta := map[string]string{}
	raw := json.RawMessage(`{"db":"postgres://admin:pw-example@db.example/x","deploy":"-----BEGIN RSA PRIVATE KEY-----\nEXAMPLE\n-----END RSA PRIVATE KEY-----",` +
		`"provider":{"base":"https://proxy:pw@llm.example/v1","plain":"https://llm.example/v1"},"note":"uses key sk-EXAMPLEexampleEXAMPLE0 daily","team":"ops"}`)
	FlattenMeta(meta, "m", "metadata", raw, rep)
	want := map[string]string{"m.provider.plain": "https://llm.example/v1", "m.team": "ops"}
	if d := cmp.Diff(want, meta); d != "" {
		t.Errorf("meta (-want +got):\n%s", d)
	}
	wantDropped := map[string]int{"metadata.db": 1, "metadata.deploy": 1, "metadata.provider.base": 1, "metadata.note": 1}
	if d := cmp.Diff(wantDropped, rep.CredentialsDropped); d != "" {
		t.Errorf("dropped (-want +got):\n%s", d)
	}
}

// TestArgsInvalidUTF8 pins a bug found by FuzzImportTauBench in CI: call
// arguments holding invalid UTF-8 bytes were copied raw into the trace,
// which the trace format (and its reader) rejects.
func TestArgsInvalidUTF8(t *testing.T) {
	for _, raw := range []string{"\"\x80\xff\xffhought\"", "{\"a\":\"x\xefy\"}", "\"{\\\"k\\\":\\\"\xff\\\"}\""} {
		got, _ := Args(json.RawMessage(raw))
		if !utf8.Valid(got) || !json.Valid(got) {
			t.Errorf("Args(%q) = %q: want valid UTF-8 JSON", raw, got)
		}
	}
}

func TestSplitMCPName(t *testing.T) {
	tests := []struct{ in, tool, server string }{
		{"mcp__github__list_repos", "list_repos", "github"},
		{"mcp__claude_ai_Mail__search__all", "search__all", "claude_ai_Mail"},
		{"mcp__broken", "mcp__broken", ""},
		{"mcp____x", "mcp____x", ""},
		{"github__list_repos", "github__list_repos", ""},
		{"Read", "Read", ""},
	}
	for _, tt := range tests {
		tool, server := SplitMCPName(tt.in)
		if tool != tt.tool || server != tt.server {
			t.Errorf("SplitMCPName(%q) = %q, %q; want %q, %q", tt.in, tool, server, tt.tool, tt.server)
		}
	}
}

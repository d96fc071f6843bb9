package mcpsnap

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseConfig(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    []Target
		wantErr string
	}{
		{
			name: "stdio and http, sorted, env sorted, disabled skipped",
			in: `{"globalShortcut":"x","mcpServers":{
				"zeta":{"command":"node","args":["z.js","--flag"],"env":{"B":"2","A":"1"}},
				"alpha":{"type":"http","url":"http://127.0.0.1:9/mcp"},
				"off":{"command":"nope","disabled":true}}}`,
			want: []Target{
				{Name: "alpha", URL: "http://127.0.0.1:9/mcp"},
				{Name: "zeta", Command: "node", Args: []string{"z.js", "--flag"}, Env: []string{"A=1", "B=2"}},
			},
		},
		{name: "cwd", in: `{"mcpServers":{"a":{"command":"x","cwd":"/tmp"}}}`, want: []Target{{Name: "a", Command: "x", Dir: "/tmp"}}},
		{name: "not json", in: `{`, wantErr: "invalid JSON"},
		{name: "trailing", in: `{"mcpServers":{"a":{"command":"x"}}} {}`, wantErr: "trailing data"},
		{name: "no servers key", in: `{"servers":{}}`, wantErr: `no "mcpServers"`},
		{name: "all disabled", in: `{"mcpServers":{"a":{"command":"x","disabled":true}}}`, wantErr: "no enabled servers"},
		{name: "neither", in: `{"mcpServers":{"a":{}}}`, wantErr: `server "a": no command and no URL`},
		{name: "both", in: `{"mcpServers":{"a":{"command":"x","url":"http://h/"}}}`, wantErr: "both a command and a URL"},
		{name: "sse", in: `{"mcpServers":{"a":{"type":"sse","url":"http://h/"}}}`, wantErr: `"sse" is not supported`},
		{name: "bad url", in: `{"mcpServers":{"a":{"url":"ftp://h/"}}}`, wantErr: "want an http or https URL"},
		{name: "args not strings", in: `{"mcpServers":{"a":{"command":"x","args":[1]}}}`, wantErr: `server "a"`},
		{name: "empty name", in: `{"mcpServers":{"":{"command":"x"}}}`, wantErr: "empty name"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseConfig([]byte(tc.in))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Error(d)
			}
		})
	}
}

func TestLoadConfig(t *testing.T) {
	path := filepath.Join(t.TempDir(), "claude_desktop_config.json")
	if err := os.WriteFile(path, []byte(`{"mcpServers":{"a":{"command":"x"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	ts, err := LoadConfig(path)
	if err != nil || len(ts) != 1 || ts[0].Name != "a" {
		t.Fatalf("LoadConfig = %v, %v", ts, err)
	}
	if _, err := LoadConfig(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("no error for a missing file")
	}
}

func TestTargetValidateEnv(t *testing.T) {
	for _, env := range []string{"NOEQUALS", "=v"} {
		if err := (Target{Command: "x", Env: []string{env}}).Validate(); err == nil {
			t.Errorf("env %q accepted", env)
		}
	}
	if got := (Target{Env: []string{"A=1", "B=x=y"}}).EnvKeys(); !cmp.Equal(got, []string{"A", "B"}) {
		t.Errorf("EnvKeys = %v", got)
	}
}

func FuzzParseConfig(f *testing.F) {
	f.Add([]byte(`{"mcpServers":{"a":{"command":"node","args":["x"],"env":{"K":"V"}}}}`))
	f.Add([]byte(`{"mcpServers":{"b":{"type":"http","url":"http://127.0.0.1:1/mcp"}}}`))
	f.Add([]byte(`{"mcpServers":{"c":{"disabled":true}}}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ts, err := ParseConfig(data)
		if err != nil {
			return
		}
		if len(ts) == 0 {
			t.Fatal("no targets and no error")
		}
		for _, tg := range ts {
			if err := tg.Validate(); err != nil {
				t.Fatalf("ParseConfig returned an invalid target %+v: %v", tg, err)
			}
			if tg.Name == "" {
				t.Fatal("target without a name")
			}
		}
	})
}

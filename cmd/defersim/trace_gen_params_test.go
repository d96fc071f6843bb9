package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
)

// TestTraceGenParamsErrorsNameTheFile pins that every error about trace
// gen's parameters says where the key was set: the --params file and the
// line that writes the key (idle keys, an over: block without --catalogs,
// over.servers naming no server, a value out of range — these named no
// file before), or the flag that set it.
func TestTraceGenParamsErrorsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	cat := writeOverCatalog(t)
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	idle := write("idle.yaml", "sessions: 5\nlong_pause_prob: 0\nlong_pause_sec: {median: 100, sigma: 1, min: 1, max: 1000}\n")
	rng := write("range.yaml", "sessions: 5\ndrift:\n  servers: 2\n  changed_fraction: 2\n")
	over := write("over.yaml", "sessions: 5\nover: {schedule: latest}\n")
	unknown := write("unknown.yaml", "sessions: 5\nover:\n  servers: [notes, nope]\n")
	overIdle := write("overidle.yaml", "sessions: 5\nover:\n  schedule: latest\n  mid_session: 0.5\n")
	planted := write("planted.yaml", "planted:\n  - {server: web, tool: web_search, open: 0.3}\n  - {server: nowhere, tool: x}\n")
	ok := write("ok.yaml", "sessions: 5\n")
	out := filepath.Join(dir, "out")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"idle key", []string{"--params", idle}, idle + ":3: invalid generator parameters: long_pause_sec: not used"},
		{"out of range", []string{"--params", rng}, rng + ":4: invalid generator parameters: drift.changed_fraction: must be in [0, 1]"},
		{"over without catalogs", []string{"--params", over}, over + ":2: invalid generator parameters: over: set, but no catalog"},
		{"unknown over server", []string{"--params", unknown, "--catalogs", cat}, unknown + `:3: over.servers: "nope" is not a server`},
		{"idle over key", []string{"--params", overIdle, "--catalogs", cat}, overIdle + ":4: "},
		{"list item", []string{"--params", planted}, planted + `:3: invalid generator parameters: planted[1].server: "nowhere"`},
		{"flag", []string{"--params", ok, "--sessions", "-3"}, "--sessions: invalid generator parameters: sessions: must be in"},
		{"drift flag", []string{"--params", ok, "--drift", "servers=2,changed=3"}, "--drift: invalid generator parameters: drift.changed_fraction"},
		{"no file", []string{"--sessions", "-3"}, "--sessions: invalid generator parameters: sessions:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, code := runTraceCmdErr(t, append([]string{"gen", "-o", out}, tc.args...)...)
			if code != 2 || !strings.Contains(got, tc.want) {
				t.Errorf("exit %d, want 2 and %q in:\n%s", code, tc.want, got)
			}
		})
	}
}

// TestTraceGenUnknownServerSuggests pins that --servers (and over.servers)
// naming no server of the catalog suggests the closest served names, as
// run does for a trace's unknown server: it listed the first eight
// servers only.
func TestTraceGenUnknownServerSuggests(t *testing.T) {
	cat := writeOverCatalog(t)
	out := filepath.Join(t.TempDir(), "out")
	got, code := runTraceCmdErr(t, "gen", "-o", out, "--catalogs", cat, "--servers", "notes,clocks")
	want := `--servers: over.servers: "clocks" is not a server of the catalog (it has 2: clock, notes); did you mean "clock"?`
	if code != 2 || !strings.Contains(got, want) {
		t.Errorf("exit %d, want 2 and %q in:\n%s", code, want, got)
	}
}

// TestTraceGenServerPartSuggests pins that --servers github over the
// shared catalogs is offered modelcontextprotocol__server-github (a served
// name holding it as a part): it was offered nothing.
func TestTraceGenServerPartSuggests(t *testing.T) {
	cat := shareddata.Path(t, "catalogs")
	out := filepath.Join(t.TempDir(), "out")
	got, code := runTraceCmdErr(t, "gen", "-o", out, "--catalogs", cat, "--servers", "github")
	want := `; did you mean "modelcontextprotocol__server-github" (a name holding "github" as a part)?`
	if code != 2 || !strings.Contains(got, want) {
		t.Errorf("exit %d, want 2 and %q in:\n%s", code, want, got)
	}
}

package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestTraceGenOverSaysWhichServersAreLeftOut pins that `trace gen
// --catalogs` names on stderr the servers its default leaves out (those
// with one version: the default draws sessions over servers with two or
// more, whose upgrades it replays) and the --servers value that includes
// every server. Before, a directory of three servers, one of them in two
// versions, gave "sessions over 1 servers" and no word of the other two;
// with one version each it failed with "name the servers to use" without
// naming them; and counts of one were plural ("1 servers", "1 tools",
// "1 fleet upgrades"). Named servers leave none out and need no warning.
func TestTraceGenOverSaysWhichServersAreLeftOut(t *testing.T) {
	cat := writeOverCatalog(t) // notes in two versions, clock in one
	if err := os.WriteFile(filepath.Join(cat, "maps@3.1.json"), []byte(`{"tools":[{"name":"route","inputSchema":{"type":"object"}}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	single := t.TempDir()
	for _, name := range []string{"clock@1.0.0.json", "maps@3.1.json"} {
		data, err := os.ReadFile(filepath.Join(cat, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(single, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "out")
	for _, tc := range []struct {
		name       string
		args       []string
		code       int
		wantOut    []string
		wantErr    []string
		notWantErr []string
	}{
		{"default leaves out one-version servers", []string{"--catalogs", cat}, 0,
			[]string{"sessions over 1 server of ", "(2 server versions, 1 tool)", "1 fleet upgrade (upgrades.yaml)"},
			[]string{
				"warning: left out: clock@1.0.0 (one version)\n",
				"warning: left out: maps@3.1 (one version)\n",
				"warning: 2 of 3 servers left out: by default sessions are drawn only over the servers with two or more versions, whose upgrades they replay; to draw sessions over every server: --servers clock,maps,notes\n",
			}, nil},
		{"json names them", []string{"--catalogs", cat, "--format", "json"}, 0,
			[]string{`"left_out": [
    "clock",
    "maps"
  ]`}, []string{"2 of 3 servers left out"}, nil},
		{"named servers", []string{"--catalogs", cat, "--servers", "clock,maps,notes"}, 0,
			[]string{"sessions over 3 servers of "}, nil, []string{"left out"}},
		{"one version each", []string{"--catalogs", single}, 2, nil,
			[]string{"no server of " + single + " has two or more versions", "--servers clock,maps"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := cliRun(t, append([]string{"trace", "gen", "-o", out, "--sessions", "8"}, tc.args...)...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, stderr)
			}
			checkOutput(t, "stdout", stdout, tc.wantOut, nil)
			checkOutput(t, "stderr", stderr, tc.wantErr, tc.notWantErr)
		})
	}
}

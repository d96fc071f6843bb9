package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunStopsOnSessionsNamingMissingServers pins that a run whose
// sessions name, in session_start, a server no catalog holds (or a version
// of one no catalog holds) stops with exit status 2 naming the server
// version, the versions the catalogs hold and what to do, or, replayed
// anyway, says so in its summary, results.json and report: it printed
// "all 149 tool calls resolved against the catalogs, exact definitions"
// and a clean report, with that server's tools in no prompt.
func TestRunStopsOnSessionsNamingMissingServers(t *testing.T) {
	if testing.Short() {
		t.Skip("replays generated sessions")
	}
	dir := t.TempDir()
	if out, code := runCLI(t, "trace", "gen", "--sessions", "20", "--seed", "3", "-o", dir); code != 0 {
		t.Fatalf("trace gen: exit %d\n%s", code, out)
	}
	raw := gunzip(t, filepath.Join(dir, "trace.jsonl.gz"))
	const web = `"servers":[{"name":"web","version":"1.10.7"}`
	if n := strings.Count(string(raw), web); n != 20 {
		t.Fatalf("%d session_start lines list web 1.10.7 first, want 20", n)
	}
	write := func(name, old, new string, n int) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(strings.Replace(string(raw), old, new, n)), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ghost := `"servers":[{"name":"ghost","version":"1.0.0"},{"name":"web","version":"1.10.7"}`
	cat := filepath.Join(dir, "catalog")
	tests := []struct {
		name  string
		trace string
		args  []string
		code  int
		want  []string // in the output
		json  int64    // run.resolution.sessions_missing_servers (with a results.json)
	}{
		{"unknown server in every session", write("all.jsonl", web, ghost, -1), nil, 2,
			[]string{"20 of 20 sessions (100.0%) name", "ghost@1.0.0 (20 sessions; no catalog holds the server; they hold 10 servers, none with a close name)", "--allow-unresolved", "nothing was written"}, 0},
		// A typo of a held server's name gets the held name; a name
		// close to none, the count of servers held.
		{"a typo of a held server", write("typo.jsonl", web, `"servers":[{"name":"wep","version":"1.10.7"}`, 1), nil, 2,
			[]string{"wep@1.10.7 (1 session; no catalog holds the server; did you mean \"web\"?)"}, 0},
		{"a version no catalog holds, in one session", write("ver.jsonl", web, `"servers":[{"name":"web","version":"9.9.9"}`, 1), nil, 2,
			[]string{"1 of 20 sessions (5.0%)", "web@9.9.9 (1 session; the catalogs hold web 1.10.7)"}, 0},
		{"one session, under a raised limit", write("one.jsonl", web, ghost, 1), []string{"--max-unresolved", "0.1"}, 0,
			[]string{"1 of 20 sessions (5.0%) name, in session_start or a catalog_change, a server or version no catalog holds: ghost@1.0.0 (1 session"}, 1},
		{"replayed anyway", filepath.Join(dir, "all.jsonl"), []string{"--allow-unresolved"}, 0,
			[]string{"this one was allowed to go on", "ghost@1.0.0 (20 sessions"}, 20},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			outDir := filepath.Join(t.TempDir(), "o")
			args := append([]string{"run", "--traces", tc.trace, "--catalogs", cat, "--strategies", "eager", "--bootstrap", "-1", "-o", outDir}, tc.args...)
			out, code := runCLI(t, args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\n%s", code, tc.code, out)
			}
			if strings.Contains(out, "tool calls resolved against the catalogs, exact definitions") {
				t.Errorf("the summary says every input resolved:\n%s", out)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("lacks %q:\n%s", w, out)
				}
			}
			data, err := os.ReadFile(filepath.Join(outDir, "results.json"))
			if tc.code != 0 {
				if err == nil {
					t.Errorf("a stopped run wrote results.json")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var res struct {
				Run struct {
					Resolution struct {
						Sessions int64 `json:"sessions_missing_servers"`
						Top      []struct {
							Server, Version string
						} `json:"top_missing_servers"`
					} `json:"resolution"`
				} `json:"run"`
			}
			if err := json.Unmarshal(data, &res); err != nil {
				t.Fatal(err)
			}
			if r := res.Run.Resolution; r.Sessions != tc.json || len(r.Top) != 1 || r.Top[0].Server != "ghost" || r.Top[0].Version != "1.0.0" {
				t.Errorf("results.json resolution: %+v, want %d sessions of ghost 1.0.0", r, tc.json)
			}
			md, err := os.ReadFile(filepath.Join(outDir, "report.md"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(md), "a server or version no catalog holds: ghost@1.0.0") {
				t.Errorf("report.md does not name ghost@1.0.0")
			}
		})
	}
}

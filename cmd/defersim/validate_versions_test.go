package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestValidateAgreesWithRunOnCatalogChanges pins that `trace validate`
// resolves each tool_call against the server version its session holds at
// that call, as `run` does: a call of a tool that only a later (or an
// earlier) version serves is a problem at the call's line, naming the
// version in force and the versions that serve it, where run counts it as
// an unknown tool. validate accepted such a call when any version served
// the tool (a BFCL trace calling `tail` one turn before its catalog_change
// gives it: validate "valid … 0 problems", run "GorillaFileSystem/tail
// (unknown tool, 1 call)").
func TestValidateAgreesWithRunOnCatalogChanges(t *testing.T) {
	catalogs := map[string]string{
		"files@1.0.0.json": `{"tools":[{"name":"read_file","description":"Read a file.","inputSchema":{"type":"object","properties":{"path":{"type":"string"}}}}]}`,
		"files@2.0.0.json": `{"tools":[{"name":"read_file","description":"Read a file.","inputSchema":{"type":"object","properties":{"path":{"type":"string"}}}},` +
			`{"name":"stat","description":"Stat a file.","inputSchema":{"type":"object","properties":{"path":{"type":"string"}}}}]}`,
	}
	// The session starts at version from, changes to version to at line 4
	// (before the call) or line 6 (after it); line 5 calls stat.
	session := func(from, to string, changeFirst bool) string {
		change := `{"type":"catalog_change","session":"s1","t":"2026-01-01T10:00:07Z","server":"files","version":"` + to + `"}` + "\n"
		call := `{"type":"tool_call","session":"s1","t":"2026-01-01T10:00:07Z","request":"r1","call_id":"c1","tool":"stat","server":"files","status":"ok","args":{"path":"a"}}` + "\n"
		middle := change + call
		if !changeFirst {
			middle = call + change
		}
		return `{"v":1,"type":"session_start","session":"s1","t":"2026-01-01T10:00:00Z","servers":[{"name":"files","version":"` + from + `"}]}
{"type":"user","session":"s1","t":"2026-01-01T10:00:05Z","text":"stat the file"}
{"type":"model_request","session":"s1","t":"2026-01-01T10:00:06Z","id":"r1","usage":{"input":100,"output":10}}
` + middle + `{"type":"tool_call","session":"s1","t":"2026-01-01T10:00:08Z","request":"r1","call_id":"c2","tool":"read_file","server":"files","status":"ok","args":{"path":"a"}}
{"type":"session_end","session":"s1","t":"2026-01-01T10:00:10Z"}
`
	}
	tests := []struct {
		name  string
		trace string
		// problem is what validate's problems say (nil: valid, and run
		// replays); problems counts them; run names the calls in run's
		// output.
		problem  []string
		problems string
		run      string
	}{
		{name: "only a later version serves it", trace: session("1.0.0", "2.0.0", false),
			problem:  []string{`trace.jsonl:4: session "s1": tool_call of tool "stat" of server "files", not served at version "1.0.0", the session's version of the server here (session_start at line 1); version "2.0.0" serves it`},
			problems: "1 problem", run: "files/stat (unknown tool, 1 call)"},
		{name: "only an earlier version serves it", trace: session("2.0.0", "1.0.0", true),
			problem:  []string{`trace.jsonl:5: session "s1": tool_call of tool "stat" of server "files", not served at version "1.0.0", the session's version of the server here (catalog_change at line 4); version "2.0.0" serves it`},
			problems: "1 problem", run: "files/stat (unknown tool, 1 call)"},
		// The call is on a version no catalog holds until the change: run
		// resolves it against the latest and counts it apart. The
		// session_start naming that version is a problem of its own
		// (TestValidateChecksTheVersionInForce).
		{name: "a version no catalog holds", trace: session("3.0.0", "2.0.0", false),
			problem: []string{`trace.jsonl:1: session "s1": session_start names server "files" at version "3.0.0", which no catalog holds (they have "1.0.0", "2.0.0")`,
				`trace.jsonl:4: session "s1": tool_call of tool "stat" of server "files" at version "3.0.0" (session_start at line 1), which no catalog holds (they have "1.0.0", "2.0.0"): a run resolves it against "2.0.0" and counts it as version missing`},
			problems: "2 problems", run: "files/stat (version missing, 1 call)"},
		{name: "the version in force serves it", trace: session("1.0.0", "2.0.0", true)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			cats := filepath.Join(dir, "catalogs")
			if err := os.Mkdir(cats, 0o755); err != nil {
				t.Fatal(err)
			}
			for name, content := range catalogs {
				if err := os.WriteFile(filepath.Join(cats, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			trace := filepath.Join(dir, "trace.jsonl")
			if err := os.WriteFile(trace, []byte(tc.trace), 0o644); err != nil {
				t.Fatal(err)
			}
			vout, verr, vcode := cliRun(t, "trace", "validate", "--catalogs", cats, trace)
			rout, rerr, rcode := cliRun(t, "run", "--traces", trace, "--catalogs", cats, "--strategies", "eager,claude-code-default",
				"-o", filepath.Join(dir, "out"), "--no-report", "--bootstrap", "-1")
			if tc.problem == nil {
				if vcode != 0 || rcode != 0 {
					t.Fatalf("validate exit %d, run exit %d, want 0 and 0\n%s%s\n%s%s", vcode, rcode, vout, verr, rout, rerr)
				}
				return
			}
			if vcode != 1 || !strings.Contains(vout, tc.problems) {
				t.Errorf("validate: exit %d, want 1 with %s:\n%s%s", vcode, tc.problems, vout, verr)
			}
			for _, want := range tc.problem {
				if !strings.Contains(vout, want) {
					t.Errorf("validate lacks %q:\n%s", want, vout)
				}
			}
			// run stops (1 of 2 calls unresolved, over its 1% limit) and
			// names the same call.
			if rcode != 2 || !strings.Contains(rout+rerr, tc.run) {
				t.Errorf("run: exit %d, want 2 naming %s:\n%s%s", rcode, tc.run, rout, rerr)
			}
		})
	}
}

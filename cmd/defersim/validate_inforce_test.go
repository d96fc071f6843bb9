package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
)

// inForceCatalogs are two versions of a server "files": stat is served by
// 2.0.0 only.
var inForceCatalogs = map[string]string{
	"files@1.0.0.json": `{"tools":[{"name":"read_file","description":"Read a file.","inputSchema":{"type":"object","properties":{"path":{"type":"string"}}}}]}`,
	"files@2.0.0.json": `{"tools":[{"name":"read_file","description":"Read a file.","inputSchema":{"type":"object","properties":{"path":{"type":"string"}}}},` +
		`{"name":"stat","description":"Stat a file.","inputSchema":{"type":"object","properties":{"path":{"type":"string"}}}}]}`,
}

// inForceTrace is a session s1 holding servers (a session_start
// "servers" value) at line 1, a user turn at line 2, a model_request r1
// at line 3, then middle from line 4, then its session_end.
func inForceTrace(servers string, middle ...string) string {
	const t = `"session":"s1","t":"2026-01-01T10:00:05Z"`
	var b strings.Builder
	b.WriteString(`{"v":1,"type":"session_start","session":"s1","t":"2026-01-01T10:00:00Z","servers":` + servers + "}\n")
	b.WriteString(`{"type":"user",` + t + `,"text":"stat the file"}` + "\n")
	b.WriteString(`{"type":"model_request",` + t + `,"id":"r1","usage":{"input":100,"output":10}}` + "\n")
	for _, m := range middle {
		b.WriteString("{" + m + "," + t + "}\n")
	}
	b.WriteString(`{"type":"session_end","session":"s1","t":"2026-01-01T10:00:10Z"}` + "\n")
	return b.String()
}

// Middle events of inForceTrace.
func filesAt(v string) string { return `[{"name":"files","version":"` + v + `"}]` }
func searchReturns(names ...string) string {
	q, _ := json.Marshal(names)
	return `"type":"tool_search","request":"r1","query":"stat","returned":` + string(q)
}
func callOf(tool, status string) string {
	return `"type":"tool_call","request":"r1","call_id":"c-` + tool + `","tool":"` + tool + `","server":"files","status":"` + status + `","args":{"path":"a"}`
}
func changeTo(server, version string) string {
	return `"type":"catalog_change","server":"` + server + `","version":"` + version + `"`
}

// TestValidateChecksTheVersionInForce pins that `trace validate` checks
// the names a tool_search returns, the calls a run does not replay
// (rejected), and every server version a session_start or catalog_change
// names, against the versions the session holds at that line, as a run
// resolves them — where it checked them against any version (a search
// returning a tool only a later version serves, or a rejected call of it,
// passed) and said nothing of a catalog_change to a version no catalog
// holds unless a call followed. Each case also runs the trace: the run's
// own counts (results.json run.resolution) agree with validate's problems,
// and `trace stats` counts as unserved the calls validate flags, and, as
// search_results_unknown, the search results the run counts (it counted
// none before).
func TestValidateChecksTheVersionInForce(t *testing.T) {
	tests := []struct {
		name  string
		trace string
		// problems are validate's, each "line kind: a part of its reason".
		problems []string
		// searchUnknown, changesMissing and unresolved are the run's
		// search_results_unknown, catalog_changes_version_missing and
		// unknown_tool + unknown_server + version_missing.
		searchUnknown, changesMissing, unresolved int
		// unserved is trace stats' unserved_calls.
		unserved int
	}{
		{name: "search returns a tool only a later version serves",
			trace:         inForceTrace(filesAt("1.0.0"), searchReturns("stat", "read_file")),
			problems:      []string{`4 unknown_tool: tool_search returned tool "stat", which no server the session holds here serves; server "files" serves it only at version "2.0.0", not at "1.0.0", the session's version of the server here (session_start at line 1)`},
			searchUnknown: 1},
		{name: "search after the change to the version serving it",
			trace: inForceTrace(filesAt("1.0.0"), changeTo("files", "2.0.0"), searchReturns("stat"))},
		{name: "search after the change to a version not serving it",
			trace:         inForceTrace(filesAt("2.0.0"), changeTo("files", "1.0.0"), searchReturns("stat")),
			problems:      []string{`5 unknown_tool: tool_search returned tool "stat", which no server the session holds here serves; server "files" serves it only at version "2.0.0", not at "1.0.0", the session's version of the server here (catalog_change at line 4)`},
			searchUnknown: 1},
		{name: "search returns a tool no catalog knows",
			trace:         inForceTrace(filesAt("2.0.0"), searchReturns("nothing")),
			problems:      []string{`4 unknown_tool: tool_search returned tool "nothing", which no catalog knows`},
			searchUnknown: 1},
		{name: "rejected call of a tool only a later version serves",
			trace:    inForceTrace(filesAt("1.0.0"), callOf("stat", "rejected")),
			problems: []string{`4 unknown_tool: rejected tool_call of tool "stat" of server "files", not served at version "1.0.0", the session's version of the server here (session_start at line 1); version "2.0.0" serves it`},
			unserved: 1},
		{name: "rejected call after the change to the version serving it",
			trace: inForceTrace(filesAt("1.0.0"), changeTo("files", "2.0.0"), callOf("stat", "rejected"))},
		{name: "change to a version no catalog holds, no call after it",
			trace:          inForceTrace(filesAt("1.0.0"), callOf("read_file", "ok"), changeTo("files", "3.0.0")),
			problems:       []string{`5 version_missing: catalog_change moves server "files" to version "3.0.0", which no catalog holds (they have "1.0.0", "2.0.0"): a run moves it to "2.0.0" instead`},
			changesMissing: 1},
		{name: "change to a version no catalog holds, a call after it",
			trace: inForceTrace(filesAt("1.0.0"), changeTo("files", "3.0.0"), callOf("read_file", "ok")),
			problems: []string{`4 version_missing: catalog_change moves server "files" to version "3.0.0", which no catalog holds (they have "1.0.0", "2.0.0")`,
				`5 version_missing: tool_call of tool "read_file" of server "files" at version "3.0.0" (catalog_change at line 4), which no catalog holds`},
			changesMissing: 1, unresolved: 1, unserved: 1},
		{name: "change of a server no catalog holds",
			trace:          inForceTrace(filesAt("1.0.0"), changeTo("nosuch", "1.0.0"), callOf("read_file", "ok")),
			problems:       []string{`4 version_missing: catalog_change names server "nosuch", which no catalog holds (the catalogs hold "files")`},
			changesMissing: 1},
		{name: "session_start at a version no catalog holds",
			trace: inForceTrace(filesAt("3.0.0"), callOf("read_file", "ok")),
			problems: []string{`1 version_missing: session_start names server "files" at version "3.0.0", which no catalog holds (they have "1.0.0", "2.0.0"): a run offers it at "2.0.0" instead`,
				`4 version_missing: tool_call of tool "read_file" of server "files" at version "3.0.0" (session_start at line 1), which no catalog holds`},
			unresolved: 1, unserved: 1},
		{name: "session_start names a server no catalog holds",
			trace:    inForceTrace(`[{"name":"files","version":"1.0.0"},{"name":"nosuch","version":"1.0.0"}]`, callOf("read_file", "ok")),
			problems: []string{`1 version_missing: session_start names server "nosuch", which no catalog holds (the catalogs hold "files")`}},
		{name: "stats counts a call unserved at the version in force",
			trace:      inForceTrace(filesAt("1.0.0"), callOf("stat", "ok"), changeTo("files", "2.0.0"), callOf("stat", "ok")),
			problems:   []string{`4 unknown_tool: tool_call of tool "stat" of server "files", not served at version "1.0.0"`},
			unresolved: 1, unserved: 1},
		{name: "every name served at the version in force",
			trace: inForceTrace(filesAt("1.0.0"), searchReturns("read_file"), callOf("read_file", "rejected"), changeTo("files", "2.0.0"),
				searchReturns("stat"), callOf("stat", "ok"))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			trace := filepath.Join(dir, "trace.jsonl")
			cats := trace + ".catalog" // the trace's own catalog, for validate, stats and run
			if err := os.Mkdir(cats, 0o755); err != nil {
				t.Fatal(err)
			}
			for name, content := range inForceCatalogs {
				if err := os.WriteFile(filepath.Join(cats, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(trace, []byte(tc.trace), 0o644); err != nil {
				t.Fatal(err)
			}

			vout, verr, vcode := cliRun(t, "trace", "validate", "--format", "json", trace)
			var rep validateReport
			if err := json.Unmarshal([]byte(vout), &rep); err != nil {
				t.Fatalf("validate exit %d: %v\n%s%s", vcode, err, vout, verr)
			}
			var got []string
			for _, p := range rep.Files[0].Problems {
				got = append(got, fmt.Sprintf("%d %s: %s", p.Line, p.Kind, strings.TrimPrefix(p.Reason, `session "s1": `)))
			}
			if len(got) != len(tc.problems) {
				t.Errorf("validate: %d problems, want %d:\n%s", len(got), len(tc.problems), strings.Join(got, "\n"))
			}
			for i, want := range tc.problems {
				if i < len(got) && !strings.HasPrefix(got[i], want) {
					t.Errorf("problem %d:\n got %s\nwant %s…", i, got[i], want)
				}
			}
			if wantCode := min(len(tc.problems), 1); vcode != wantCode {
				t.Errorf("validate exit %d, want %d", vcode, wantCode)
			}

			out := filepath.Join(dir, "out")
			if _, rerr, rcode := cliRun(t, "run", "--traces", trace, "--strategies", "eager", "-o", out, "--no-report",
				"--bootstrap", "-1", "--allow-unresolved"); rcode != 0 {
				t.Fatalf("run exit %d:\n%s", rcode, rerr)
			}
			var res struct {
				Run struct {
					Resolution struct {
						SearchUnknown  int `json:"search_results_unknown"`
						ChangesMissing int `json:"catalog_changes_version_missing"`
						UnknownTool    int `json:"unknown_tool"`
						UnknownServer  int `json:"unknown_server"`
						VersionMissing int `json:"version_missing"`
					} `json:"resolution"`
				} `json:"run"`
			}
			readJSON(t, filepath.Join(out, "results.json"), &res)
			r := res.Run.Resolution
			if r.SearchUnknown != tc.searchUnknown || r.ChangesMissing != tc.changesMissing ||
				r.UnknownTool+r.UnknownServer+r.VersionMissing != tc.unresolved {
				t.Errorf("run resolution %+v, want search_results_unknown %d, catalog_changes_version_missing %d, unresolved %d",
					r, tc.searchUnknown, tc.changesMissing, tc.unresolved)
			}

			sout, serr, scode := cliRun(t, "trace", "stats", "--format", "json", trace)
			var st statsReport
			if err := json.Unmarshal([]byte(sout), &st); scode != 0 || err != nil {
				t.Fatalf("stats exit %d: %v\n%s%s", scode, err, sout, serr)
			}
			if st.SearchResultsUnknown != tc.searchUnknown {
				t.Errorf("stats search_results_unknown %d, want the run's %d", st.SearchResultsUnknown, tc.searchUnknown)
			}
			if st.UnservedCalls != tc.unserved {
				t.Errorf("stats unserved_calls %d, want %d (%+v)", st.UnservedCalls, tc.unserved, st.Unserved)
			}
			if !slices.Equal(st.Catalogs, []string{cats}) {
				t.Errorf("stats catalogs %v, want [%s]", st.Catalogs, cats)
			}
		})
	}
}

// TestDocVersionInForceExample runs the example of docs/trace-format.md
// ("Example: the version in force") over the shared catalogs: validate
// prints the doc's output word for word, and run states the search result
// and the catalog change the doc says its report states.
func TestDocVersionInForceExample(t *testing.T) {
	cats, err := filepath.Abs(shareddata.Path(t, "catalogs"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "trace-format.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "### Example: the version in force")
	block := func(fence string) string {
		var b string
		_, rest, ok1 := strings.Cut(section, fence+"\n")
		b, section, ok = strings.Cut(rest, "```")
		if !ok1 || !ok {
			t.Fatalf("no %s block in the example", fence)
		}
		return b
	}
	if !ok {
		t.Fatal("docs/trace-format.md has no section \"Example: the version in force\"")
	}
	trace, want := block("```jsonl"), block("```text")
	t.Chdir(t.TempDir()) // the problems name the file as the doc's command does
	if err := os.WriteFile("versions.jsonl", []byte(trace), 0o644); err != nil {
		t.Fatal(err)
	}
	got, stderr, code := cliRun(t, "trace", "validate", "--catalogs", cats, "versions.jsonl")
	if code != 1 || got != want {
		t.Errorf("validate exit %d (want 1), output:\n%s%s\nwant:\n%s", code, got, stderr, want)
	}
	// The change to a version no catalog holds stops the run (its one
	// session of one names a missing version); replayed anyway, the run
	// states it.
	sout, serr, scode := cliRun(t, "run", "--traces", "versions.jsonl", "--catalogs", cats, "--strategies", "eager", "-o", "stopped",
		"--no-report", "--bootstrap", "-1")
	if w := "modelcontextprotocol__server-filesystem@9.9.9 (1 session; the catalogs hold"; scode != 2 || !strings.Contains(sout+serr, w) {
		t.Errorf("run exit %d (want 2), lacks %q:\n%s%s", scode, w, sout, serr)
	}
	rout, rerr, rcode := cliRun(t, "run", "--traces", "versions.jsonl", "--catalogs", cats, "--strategies", "eager", "-o", "out",
		"--no-report", "--bootstrap", "-1", "--allow-unresolved")
	for _, w := range []string{"1 of 2 tool names returned by recorded searches is served by no server of their session",
		"1 of 1 catalog change names a version no catalog holds", "resolved                                      1   100.0%"} {
		if !strings.Contains(rout, w) {
			t.Errorf("run (exit %d) lacks %q:\n%s%s", rcode, w, rout, rerr)
		}
	}
}

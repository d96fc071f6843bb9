package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/runner"
)

// predictTrace writes a trace of sessions over the default scenario's
// server web 1.8.0: session i calls calls[i] tools, the first bad[i] of
// them a tool web does not serve; extra names a server added to the first
// session's session_start ("" none), and meta its session_start meta
// (nil none).
func predictTrace(t *testing.T, path string, calls, bad []int, extra string, meta map[string]string) {
	t.Helper()
	var b strings.Builder
	for i := range calls {
		id := fmt.Sprintf("s%d", i)
		servers := []map[string]string{{"name": "web", "version": "1.8.0"}}
		if i == 0 && extra != "" {
			servers = append(servers, map[string]string{"name": extra, "version": "1.0.0"})
		}
		start := map[string]any{"v": 1, "type": "session_start", "session": id, "t": "2026-01-01T10:00:00Z", "servers": servers}
		if i == 0 && meta != nil {
			start["meta"] = meta
		}
		line, err := json.Marshal(start)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(append(line, '\n'))
		fmt.Fprintf(&b, `{"type":"user","session":%q,"t":"2026-01-01T10:00:01Z","text":"look it up"}`+"\n", id)
		fmt.Fprintf(&b, `{"type":"model_request","session":%q,"t":"2026-01-01T10:00:02Z","id":"r1","usage":{"input":100,"output":10}}`+"\n", id)
		for c := range calls[i] {
			tool := "web_search"
			if c < bad[i] {
				tool = "no_such_tool"
			}
			fmt.Fprintf(&b, `{"type":"tool_call","session":%q,"t":"2026-01-01T10:00:03Z","request":"r1","call_id":"c%d","tool":%q,"server":"web","status":"ok","args":{"query":"q"}}`+"\n", id, c, tool)
		}
		fmt.Fprintf(&b, `{"type":"session_end","session":%q,"t":"2026-01-01T10:00:04Z"}`+"\n", id)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestValidatePredictsRun pins that `trace validate` says what `run
// --traces FILE` does with the same file and the same --catalogs: it
// checks the tools against the catalogs the run loads (validate once
// checked nothing and said "valid … 0 problems" of a trace run refused
// with 100% of its calls unresolved), reports run's unresolved and
// missing-server shares, and says "run would stop" exactly when run
// stops, with run's reason: also when the trace has no catalog and none
// is given (runner.NoCatalogError). The traces name the default
// scenario's tools and are given its catalog, --catalogs
// embedded:catalog, unless bare.
func TestValidatePredictsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("replays sessions")
	}
	dir := t.TempDir()
	tests := []struct {
		name        string
		calls, bad  []int
		extra       string
		meta        map[string]string
		bare        bool // no --catalogs
		validate    int  // exit status
		stops       bool
		unresolved  int64
		missingSess int64
		want        string // in validate's text
	}{
		{name: "all resolved", calls: []int{100, 100}, bad: []int{0, 0}, stops: false,
			want: "run: 0 of 200 tool calls (0.0%) would not resolve, 0 of 2 sessions (0.0%) name a server or version missing from the catalogs; run stops above 1% of either"},
		{name: "0.5% unresolved", calls: []int{100, 100}, bad: []int{1, 0}, validate: 1, stops: false, unresolved: 1,
			want: "run: 1 of 200 tool calls (0.5%) would not resolve"},
		{name: "100% unresolved", calls: []int{1}, bad: []int{1}, validate: 1, stops: true, unresolved: 1,
			want: "run would stop: 1 of 1 tool call (100.0%) did not resolve against the catalogs, more than the 1% allowed"},
		{name: "a server no catalog holds", calls: []int{10, 10}, bad: []int{0, 0}, extra: "ghost", validate: 1, stops: true, missingSess: 1,
			want: "run would stop: 1 of 2 sessions (50.0%) name, in session_start or a catalog_change, a server or version no catalog holds"},
		{name: "its own catalog dir is missing", calls: []int{1}, bad: []int{0}, meta: map[string]string{"catalog": "nope"}, validate: 2, stops: true,
			want: `its catalog "nope" (session_start meta catalog)`},
		{name: "no catalog", calls: []int{1}, bad: []int{0}, bare: true, validate: 2, stops: true,
			want: runner.NoCatalogError{Sample: []string{"embedded:catalog"}}.Error()},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			trace := filepath.Join(dir, fmt.Sprintf("t%d.jsonl", i))
			predictTrace(t, trace, tc.calls, tc.bad, tc.extra, tc.meta)
			var flag []string
			if tc.meta == nil && !tc.bare {
				flag = []string{"--catalogs", "embedded:catalog"}
			}
			text, code := runCLI(t, append([]string{"trace", "validate", trace}, flag...)...)
			if code != tc.validate {
				t.Fatalf("validate: exit %d, want %d\n%s", code, tc.validate, text)
			}
			if !strings.Contains(text, tc.want) {
				t.Errorf("validate lacks %q:\n%s", tc.want, text)
			}
			js, _ := runCLI(t, append([]string{"trace", "validate", "--format", "json", trace}, flag...)...)
			var rep validateReport
			if err := json.Unmarshal([]byte(js[:strings.LastIndex(js, "}")+1]), &rep); err != nil {
				t.Fatalf("validate json: %v\n%s", err, js)
			}
			out := filepath.Join(dir, fmt.Sprintf("out%d", i))
			runOut, runCode := runCLI(t, append([]string{"run", "--traces", trace, "--strategies", "eager", "--bootstrap", "-1", "-q", "-o", out}, flag...)...)
			if tc.validate == 2 {
				if runCode != 2 || !rep.Run.Stops || !strings.Contains(runOut, tc.want) {
					t.Errorf("an unreadable input: run exit %d (want 2, saying %q), validate predicts a stop: %v\n%s", runCode, tc.want, rep.Run.Stops, runOut)
				}
				return
			}
			stopped := runCode == 2 && strings.Contains(runOut, "nothing was written")
			if stopped != tc.stops || rep.Run.Stops != tc.stops {
				t.Fatalf("run stopped %v, validate predicts %v, want %v\nrun: %s\nvalidate: %s", stopped, rep.Run.Stops, tc.stops, runOut, text)
			}
			r := rep.Run.Resolution
			if r.Unresolved != tc.unresolved || r.SessionsMissingServers != tc.missingSess {
				t.Errorf("validate: %d unresolved calls, %d sessions naming missing servers; want %d, %d", r.Unresolved, r.SessionsMissingServers, tc.unresolved, tc.missingSess)
			}
			if tc.stops {
				if !strings.Contains(runOut, rep.Run.Reason) {
					t.Errorf("run's error does not say validate's reason %q:\n%s", rep.Run.Reason, runOut)
				}
				return
			}
			if runCode != 0 {
				t.Fatalf("run: exit %d\n%s", runCode, runOut)
			}
			data, err := os.ReadFile(filepath.Join(out, "results.json"))
			if err != nil {
				t.Fatal(err)
			}
			var res struct {
				Run struct {
					Resolution struct {
						Calls, Unresolved, Sessions int64
						Share                       float64 `json:"unresolved_share"`
						Missing                     int64   `json:"sessions_missing_servers"`
					} `json:"resolution"`
				} `json:"run"`
			}
			if err := json.Unmarshal(data, &res); err != nil {
				t.Fatal(err)
			}
			got := res.Run.Resolution
			if got.Calls != r.Calls || got.Unresolved != r.Unresolved || got.Share != r.UnresolvedShare || got.Sessions != r.Sessions || got.Missing != r.SessionsMissingServers {
				t.Errorf("run's resolution %+v, validate's calls %d unresolved %d share %v sessions %d missing %d",
					got, r.Calls, r.Unresolved, r.UnresolvedShare, r.Sessions, r.SessionsMissingServers)
			}
		})
	}
}

package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/internal/plan"
)

// panicky is a stale-call validator with a bug: it panics on the
// arguments of the sessions whose id holds "boom" (sim's
// TestWorkerPanicSkipsSession plants the same).
type panicky struct{}

func (panicky) Check(seen, served, args json.RawMessage) string {
	if bytes.Contains(args, []byte("boom")) {
		panic("validator bug")
	}
	return ""
}

// failingFixture writes a catalog of one server, people, at versions 1
// and 2 (its one tool's schema changes), a trace of three sessions each
// of which calls the tool, moves the server to version 2 and calls it
// again (the validator is asked about that call), and a scenario over
// them; under panicky the session s2-boom fails to replay. It returns
// the scenario's path.
func failingFixture(t *testing.T) string {
	t.Helper()
	return failingFixtureOf(t, "s1", "s2-boom", "s3")
}

// failingFixtureOf is failingFixture with the sessions ids; under
// panicky those whose id holds "boom" fail to replay.
func failingFixtureOf(t *testing.T, ids ...string) string {
	t.Helper()
	dir := t.TempDir()
	cat := filepath.Join(dir, "catalog")
	if err := os.MkdirAll(cat, 0o755); err != nil {
		t.Fatal(err)
	}
	for v, schema := range map[string]string{
		"1": `{"type":"object","properties":{"who":{"type":"string"}}}`,
		"2": `{"type":"object","properties":{"who":{"type":"string"},"why":{"type":"string"}},"required":["who","why"]}`,
	} {
		data := `{"tools":[{"name":"lookup","description":"Look someone up.","inputSchema":` + schema + `}]}`
		if err := os.WriteFile(filepath.Join(cat, "people@"+v+".json"), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var b strings.Builder
	for _, id := range ids {
		line := func(sec int, typ, extra string) {
			v := ""
			if typ == "session_start" {
				v = `"v":1,`
			}
			fmt.Fprintf(&b, `{%s"type":%q,"session":%q,"t":"2026-01-01T00:00:%02dZ"%s}`+"\n", v, typ, id, sec, extra)
		}
		args := fmt.Sprintf(`"args":{"who":%q}`, id)
		line(0, "session_start", `,"servers":[{"name":"people","version":"1"}]`)
		line(1, "user", `,"text":"find someone"`)
		line(2, "model_request", `,"id":"r1"`)
		line(3, "tool_call", `,"request":"r1","call_id":"c1","tool":"lookup","server":"people","status":"ok",`+args)
		line(4, "catalog_change", `,"server":"people","version":"2"`)
		line(5, "model_request", `,"id":"r2"`)
		line(6, "tool_call", `,"request":"r2","call_id":"c2","tool":"lookup","server":"people","status":"ok",`+args)
		line(7, "session_end", "")
	}
	if err := os.WriteFile(filepath.Join(dir, "trace.jsonl"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "fail.yaml")
	yaml := "name: fail\nseed: 3\ntraces: [trace.jsonl]\ncatalogs: [catalog]\nmodel: claude-sonnet-4.5\nstrategies: [eager, claude-code-default]\n"
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// cliRunFailing is cliRun with panicky planted for the replays of run,
// sweep and plan --growth (withValidator).
func cliRunFailing(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	root := newRootCmd()
	var out, errb bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errb)
	root.SetArgs(args)
	err := root.ExecuteContext(withValidator(context.Background(), panicky{}))
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

const skippedLine = "defersim: skipped session s2-boom: internal error (please report): validator bug"

// mdSkippedLine is skippedLine as the Markdown of sweep and plan --growth
// warns of it.
const mdSkippedLine = "skipped session s2-boom: internal error (please report): validator bug"

// TestSweepExitsOnSkippedSessions pins that sweep lists the sessions a
// value failed to replay and exits 1, as run does: it exited 0 and said
// nothing, its points keeping only a count (sweep.json
// points[].results' run.counts.sessions_skipped). A session that fails at
// every value is listed once ("at every value"), in every format; the
// JSON holds it in skipped_sessions and each point's sessions_skipped,
// the CSV ends each row with sessions_skipped and warnings
// (skipped_sessions), and the Markdown warns of it with the table (it
// said it only on stderr).
func TestSweepExitsOnSkippedSessions(t *testing.T) {
	if testing.Short() {
		t.Skip("replays a sweep three times")
	}
	sc := failingFixture(t)
	for _, format := range []string{"text", "json", "csv", "markdown"} {
		t.Run(format, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "sw")
			stdout, stderr, code := cliRunFailing(t, "sweep", sc, "--param", "strategy.warm.max_tools=2:4:2", "--bootstrap", "-1",
				"--format", format, "-o", dir)
			if code != 1 {
				t.Fatalf("exit %d, want 1\n%s%s", code, stdout, stderr)
			}
			want := skippedLine + " (at every value)\n"
			if strings.Count(stderr, "defersim: skipped ") != 1 || !strings.Contains(stderr, want) {
				t.Errorf("stderr does not list the session once as %q:\n%s", want, stderr)
			}
			if !strings.Contains(stderr, "1 session failed to replay and was skipped (see above); each value's results cover the rest") {
				t.Errorf("stderr lacks the exit message:\n%s", stderr)
			}
			if strings.Contains(stderr, "goroutine") {
				t.Errorf("stderr carries more than the failure's first line:\n%s", stderr)
			}
			data, err := os.ReadFile(filepath.Join(dir, "sweep.json"))
			if err != nil {
				t.Fatal(err)
			}
			var doc struct {
				Points []struct {
					Label   string `json:"label"`
					Skipped int64  `json:"sessions_skipped"`
				} `json:"points"`
				Skipped []struct {
					Session string `json:"session"`
					Reasons []struct {
						Reason string   `json:"reason"`
						Points []string `json:"points"`
						Every  bool     `json:"every_point"`
					} `json:"reasons"`
				} `json:"skipped_sessions"`
			}
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatal(err)
			}
			if len(doc.Skipped) != 1 || doc.Skipped[0].Session != "s2-boom" || len(doc.Skipped[0].Reasons) != 1 ||
				!doc.Skipped[0].Reasons[0].Every || doc.Skipped[0].Reasons[0].Reason != "internal error (please report): validator bug" ||
				!cmp.Equal(doc.Skipped[0].Reasons[0].Points, []string{"strategy.warm.max_tools=2", "strategy.warm.max_tools=4"}) {
				t.Errorf("sweep.json skipped_sessions %+v", doc.Skipped)
			}
			for _, p := range doc.Points {
				if p.Skipped != 1 {
					t.Errorf("sweep.json point %s: sessions_skipped %d, want 1", p.Label, p.Skipped)
				}
			}
			switch format {
			case "markdown":
				for _, want := range []string{"> **Warning:** " + mdSkippedLine + " (at every value).\n\n",
					"> **Warning:** 1 session failed to replay and was skipped; each value's results cover the rest.\n\n"} {
					if !strings.Contains(stdout, want) {
						t.Errorf("--format markdown lacks %q:\n%s", want, stdout)
					}
				}
			case "json":
				if !strings.Contains(stdout, `"skipped_sessions"`) {
					t.Errorf("--format json lacks skipped_sessions:\n%s", stdout)
				}
			case "csv":
				recs, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
				if err != nil {
					t.Fatal(err)
				}
				head := recs[0]
				if n := len(head); n < 2 || head[n-2] != "sessions_skipped" || head[n-1] != "warnings" {
					t.Fatalf("header %q does not end with sessions_skipped, warnings", head)
				}
				for _, r := range recs[1:] {
					if r[len(r)-2] != "1" || !strings.Contains(r[len(r)-1], "skipped_sessions") {
						t.Errorf("row %q: want sessions_skipped 1 and warnings holding skipped_sessions", r)
					}
				}
			}
		})
	}
}

// TestPlanGrowthExitsOnSkippedSessions pins the same for plan --growth,
// whose sizes are replays too: it exited 0 and said nothing of a session
// every size failed to replay. It now lists it once ("at every size"),
// records it in plan.json growth_skipped_sessions, and exits 1; with
// --format markdown the Markdown warns of it too (it said it only on
// stderr).
func TestPlanGrowthExitsOnSkippedSessions(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the catalog at two sizes")
	}
	sc := failingFixture(t)
	dir := t.TempDir()
	base := filepath.Join(dir, "base")
	if stdout, stderr, code := cliRun(t, "run", sc, "-q", "--no-report", "--bootstrap", "-1", "-o", base); code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, stdout, stderr)
	}
	out := filepath.Join(dir, "plan")
	stdout, stderr, code := cliRunFailing(t, "plan", filepath.Join(base, "results.json"), "--sessions-per-day", "1000",
		"--growth", "1,3", "--scenario", sc, "--bootstrap", "-1", "-o", out)
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", code, stdout, stderr)
	}
	want := skippedLine + " (at every size)\n"
	if strings.Count(stderr, "defersim: skipped ") != 1 || !strings.Contains(stderr, want) {
		t.Errorf("stderr does not list the session once as %q:\n%s", want, stderr)
	}
	if !strings.Contains(stderr, "1 session failed to replay and was skipped (see above); each size's results cover the rest") {
		t.Errorf("stderr lacks the exit message:\n%s", stderr)
	}
	data, err := os.ReadFile(filepath.Join(out, "plan.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Skipped []struct {
			Session string `json:"session"`
			Reasons []struct {
				Every bool `json:"every_point"`
			} `json:"reasons"`
		} `json:"growth_skipped_sessions"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Skipped) != 1 || doc.Skipped[0].Session != "s2-boom" || len(doc.Skipped[0].Reasons) != 1 || !doc.Skipped[0].Reasons[0].Every {
		t.Errorf("plan.json growth_skipped_sessions %+v, want the one session at every size", doc.Skipped)
	}

	stdout, stderr, code = cliRunFailing(t, "plan", filepath.Join(base, "results.json"), "--sessions-per-day", "1000",
		"--growth", "1,3", "--scenario", sc, "--bootstrap", "-1", "--format", "markdown", "-o", filepath.Join(dir, "plan-md"))
	if code != 1 || !strings.Contains(stderr, want) {
		t.Fatalf("--format markdown: exit %d, want 1 and the stderr line\n%s%s", code, stdout, stderr)
	}
	for _, want := range []string{"> **Warning:** " + mdSkippedLine + " (at every size).\n\n",
		"> **Warning:** 1 session failed to replay and was skipped; each size's results cover the rest.\n\n"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("--format markdown lacks %q:\n%s", want, stdout)
		}
	}
}

// TestSkippedAtPointsCountsSessions pins that sweep and plan --growth
// count and list skipped sessions, not failure lines: a session failing
// with one message at one value and another at the next is one line
// naming both, and "1 session failed"; grouped by the whole line it was
// listed twice and counted as 2 sessions.
func TestSkippedAtPointsCountsSessions(t *testing.T) {
	pts := []plan.Point{
		{Label: "k=1", Skipped: 1, Failures: []plan.Failure{{Session: "x", Line: "session x: bug one"}}},
		{Label: "k=2", Skipped: 1, Failures: []plan.Failure{{Session: "x", Line: "session x: bug two"}}},
	}
	var stderr bytes.Buffer
	err := skippedAtPoints(&stderr, "value", pts)
	var ex exitError
	if !errors.As(err, &ex) || ex.code != 1 {
		t.Fatalf("err %v, want exit 1", err)
	}
	if want := "defersim: skipped session x: bug one (at k=1); bug two (at k=2)\n"; stderr.String() != want {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
	if !strings.HasPrefix(ex.msg, "1 session failed to replay and was skipped") {
		t.Errorf("exit message %q, want it to count 1 session", ex.msg)
	}
}

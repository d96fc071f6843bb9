package plan

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/scenarios"
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

// failingScenario writes a catalog of one server, people, at versions 1
// and 2 (its one tool's schema changes), and a trace of sessions each of
// which calls the tool at version 1, moves the server to version 2 and
// calls it again, so that the validator is asked about the second call;
// under panicky the session s2-boom fails to replay.
func failingScenario(t *testing.T) *scenarios.Scenario {
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
	for _, id := range []string{"s1", "s2-boom", "s3"} {
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
	sc, err := scenarios.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// TestSweepListsSkippedSessions pins that a sweep keeps, per point, the
// sessions its replay failed to replay (Point.Failures, each session's id
// and the first line of its error as run lists it), and that
// SkippedSessions names a session
// that failed at every value once: a point kept only the count
// (run.counts.sessions_skipped), so sweep could neither list the sessions
// nor exit 1 as run does. Both a sweep replayed per value (model.*) and
// one replayed once for every value (strategy.*, runner.RunShared).
func TestSweepListsSkippedSessions(t *testing.T) {
	sc := failingScenario(t)
	const reason = "internal error (please report): validator bug"
	for _, param := range []string{"model.latency.overhead_ms=500:1500:1000", "strategy.warm.max_tools=2:4:2"} {
		t.Run(param, func(t *testing.T) {
			spec, err := ParseSweep(param)
			if err != nil {
				t.Fatal(err)
			}
			sw, err := Sweep(context.Background(), SweepConfig{Scenario: sc, Spec: spec, Dir: t.TempDir(), Bootstrap: -1, Validator: panicky{}})
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range sw.Points {
				if p.Skipped != 1 || p.Results.Run.Counts.SessionsReplayed != 2 {
					t.Errorf("%s: %d skipped, %d replayed; want 1 and 2", p.Label, p.Skipped, p.Results.Run.Counts.SessionsReplayed)
				}
			}
			want := []SkippedSession{{Session: "s2-boom", Reasons: []SkipReason{{Reason: reason, Points: []string{sw.Points[0].Label, sw.Points[1].Label}, Every: true}}}}
			if diff := cmp.Diff(want, SkippedSessions(sw.Points)); diff != "" {
				t.Errorf("skipped sessions (-want +got):\n%s", diff)
			}
			if n := SkippedUnlisted(sw.Points); n != 0 {
				t.Errorf("%d skipped sessions unlisted, want 0", n)
			}
		})
	}
}

// TestGrowthListsSkippedSessions pins the same for plan --growth: each
// size keeps the sessions it failed to replay, named once for every size.
func TestGrowthListsSkippedSessions(t *testing.T) {
	sc := failingScenario(t)
	rc, err := runner.FromScenario(sc, runner.Overrides{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rc.Bootstrap, rc.Validator = -1, panicky{}
	pts, _, err := Growth(context.Background(), GrowthConfig{Base: rc, Factors: []float64{1, 3}, Dir: t.TempDir(), Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	points := make([]Point, len(pts))
	for i, p := range pts {
		points[i] = p.Point
	}
	got := SkippedSessions(points)
	want := []SkippedSession{{Session: "s2-boom", Reasons: []SkipReason{{Reason: "internal error (please report): validator bug",
		Points: []string{points[0].Label, points[1].Label}, Every: true}}}}
	if !cmp.Equal(got, want) {
		t.Errorf("skipped sessions %+v, want s2-boom's failure at every size", got)
	}
}

// fail is the failure of session id with reason, as a replay gives it.
func fail(id, reason string) Failure {
	return Failure{Session: id, Line: "session " + id + ": " + reason}
}

// TestSkippedSessionsGroupsBySession pins the grouping: a failure at some
// points names them, one at every point says so, and the order is the
// points' (then the sessions').
func TestSkippedSessionsGroupsBySession(t *testing.T) {
	pts := []Point{
		{Label: "a=1", Skipped: 2, Failures: []Failure{fail("x", "bug"), fail("y", "bug")}},
		{Label: "a=2", Skipped: 3, Failures: []Failure{fail("x", "bug")}},
	}
	want := []SkippedSession{
		{Session: "x", Reasons: []SkipReason{{Reason: "bug", Points: []string{"a=1", "a=2"}, Every: true}}},
		{Session: "y", Reasons: []SkipReason{{Reason: "bug", Points: []string{"a=1"}}}},
	}
	got := SkippedSessions(pts)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if l := got[0].Line("value"); l != "session x: bug (at every value)" {
		t.Errorf("Line = %q", l)
	}
	if l := got[1].Line("value"); l != "session y: bug (at a=1)" {
		t.Errorf("Line = %q", l)
	}
	if n := SkippedUnlisted(pts); n != 2 {
		t.Errorf("unlisted %d, want 2 (a=2 skipped 3, listed 1)", n)
	}
}

// TestSkippedSessionsGroupsReasonsBySession pins that a session failing
// with different messages at different points is one entry, its distinct
// reasons each with their points: grouped by the whole failure line, it
// was listed and counted once per message (two "sessions" here, where
// one failed). A session id holding ": " is kept whole.
func TestSkippedSessionsGroupsReasonsBySession(t *testing.T) {
	pts := []Point{
		{Label: "a=1", Skipped: 2, Failures: []Failure{fail("x", "bug one"), fail("p: q", "bug")}},
		{Label: "a=2", Skipped: 1, Failures: []Failure{fail("x", "bug two")}},
		{Label: "a=3", Skipped: 2, Failures: []Failure{fail("x", "bug one"), fail("p: q", "bug")}},
	}
	want := []SkippedSession{
		{Session: "x", Reasons: []SkipReason{
			{Reason: "bug one", Points: []string{"a=1", "a=3"}},
			{Reason: "bug two", Points: []string{"a=2"}},
		}},
		{Session: "p: q", Reasons: []SkipReason{{Reason: "bug", Points: []string{"a=1", "a=3"}}}},
	}
	got := SkippedSessions(pts)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if l, w := got[0].Line("value"), "session x: bug one (at a=1, a=3); bug two (at a=2)"; l != w {
		t.Errorf("Line = %q, want %q", l, w)
	}
	if n := SkippedUnlisted(pts); n != 0 {
		t.Errorf("unlisted %d, want 0", n)
	}
}

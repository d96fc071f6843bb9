package sim_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
	"github.com/defersim/defersim/traces"
)

// panicky is an ArgValidator with a bug: it panics on the arguments of one
// session and counts the calls it answers.
type panicky struct {
	trigger string
	calls   atomic.Int64
}

func (p *panicky) Check(seen, served, args json.RawMessage) string {
	if bytes.Contains(args, []byte(p.trigger)) {
		panic("validator bug on " + p.trigger)
	}
	p.calls.Add(1)
	return ""
}

// upgradeCatalog has one server at two versions whose only tool changes
// its schema, so a name-keyed warm set serves a stale schema after the
// session's catalog_change, and the validator is asked about the call.
func upgradeCatalog(t *testing.T) *catalog.Catalog {
	t.Helper()
	var servers []*catalog.Server
	for _, v := range []struct{ version, schema string }{
		{"1", `{"type":"object","properties":{"who":{"type":"string"}}}`},
		{"2", `{"type":"object","properties":{"who":{"type":"string"},"why":{"type":"string"}},"required":["who","why"]}`},
	} {
		s, err := catalog.Parse([]byte(`{"tools":[{"name":"lookup","description":"Look someone up.","inputSchema":`+v.schema+`}]}`), "people", v.version, "")
		if err != nil {
			t.Fatal(err)
		}
		servers = append(servers, s)
	}
	return catalog.New(servers...)
}

// upgradeTrace has one session per id: the tool is loaded and called at
// version 1, the server moves to version 2, and the tool is called again.
func upgradeTrace(ids ...string) []byte {
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
	return []byte(b.String())
}

// TestWorkerPanicSkipsSession pins the worker-panic guarantee of
// docs/reliability.md: a panic while replaying one session (here, in the
// call validator) is turned into a skipped, counted session named by its id
// while the other sessions complete; with Strict the run stops with an error
// naming the session.
func TestWorkerPanicSkipsSession(t *testing.T) {
	model, err := presets.Model("claude-sonnet-4.5")
	if err != nil {
		t.Fatal(err)
	}
	var strategies []sim.Strategy
	for _, name := range []string{"eager", "claude-code-default"} {
		s, err := presets.Strategy(name)
		if err != nil {
			t.Fatal(err)
		}
		s.Name = name
		s.Search.Mode = "select" // the rankers live in sim/search; select is built in
		strategies = append(strategies, s)
	}
	ids := []string{"s1", "s2-boom", "s3", "s4"}
	for _, tc := range []struct {
		name    string
		strict  bool
		workers int
	}{
		{"one worker", false, 1},
		{"three workers", false, 3},
		{"strict", true, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			val := &panicky{trigger: "boom"}
			eng, err := sim.NewEngine(sim.Config{Strategies: strategies, Model: model, Params: presets.DefaultParams(),
				Catalog: upgradeCatalog(t), Seed: 1, Registry: sim.NewRegistry(), Validator: val})
			if err != nil {
				t.Fatal(err)
			}
			r, err := traces.NewReader(bytes.NewReader(upgradeTrace(ids...)), "mem.jsonl", traces.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			res, err := eng.Run(context.Background(), r.Sessions(), sim.RunOptions{Workers: tc.workers, Strict: tc.strict})
			const bug = "session s2-boom: internal error (please report): validator bug on boom"
			if tc.strict {
				if err == nil || !strings.HasPrefix(err.Error(), bug) {
					t.Fatalf("strict run: error %v, want one starting %q", err, bug)
				}
				return
			}
			if err != nil {
				t.Fatalf("run: %v", err)
			}
			if got := res.Counts; got.SessionsRead != 4 || got.SessionsReplayed != 3 || got.SessionsSkipped != 1 {
				t.Errorf("counts: read %d, replayed %d, skipped %d; want 4, 3, 1", got.SessionsRead, got.SessionsReplayed, got.SessionsSkipped)
			}
			if len(res.Failures) != 1 || !strings.HasPrefix(res.Failures[0], bug+"\n") || !strings.Contains(res.Failures[0], "panic_test.go") {
				t.Errorf("failures = %q, want one starting %q with the stack", res.Failures, bug)
			}
			if !cmp.Equal(res.FailedSessions, []string{"s2-boom"}) {
				t.Errorf("failed sessions = %q, want s2-boom (aligned with the failures)", res.FailedSessions)
			}
			if diff := cmp.Diff([]string{"s1", "s3", "s4"}, res.Outcomes.SessionIDs); diff != "" {
				t.Errorf("replayed sessions (-want +got):\n%s", diff)
			}
			for si := range res.Outcomes.Strategies {
				for m := range res.Outcomes.Values[si] {
					if n := len(res.Outcomes.Values[si][m]); n != 3 {
						t.Fatalf("strategy %d metric %d has %d values, want 3", si, m, n)
					}
				}
			}
			// The validator answered for the three good sessions: the stale
			// call was reached, so the panic was not a fluke of one session.
			if n := val.calls.Load(); n != 3 {
				t.Errorf("validator answered %d calls, want 3 (one per good session)", n)
			}
		})
	}
}

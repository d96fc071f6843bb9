package runner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// unreachedFixture writes catalogs (srv 1.0.0 and 2.0.0, which differ;
// oth 1.0.0; lone 1.0.0 and 2.0.0, which no session connects) and a trace
// of three sessions — s1 (srv, 09:00), s2 (srv, 10:00), s3 (oth, 11:00) —
// and returns the scenario's head naming them.
func unreachedFixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	cats := filepath.Join(dir, "catalogs")
	if err := os.Mkdir(cats, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, desc := range map[string]string{
		"srv@1.0.0.json": "Get a record", "srv@2.0.0.json": "Get one record by id",
		"oth@1.0.0.json":  "Get a record",
		"lone@1.0.0.json": "Get a record", "lone@2.0.0.json": "Get one record by id",
	} {
		body := `{"tools":[{"name":"get","description":"` + desc + `","inputSchema":{"type":"object","properties":{"id":{"type":"string"}}}}]}`
		if err := os.WriteFile(filepath.Join(cats, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var lines []string
	for i, s := range []struct{ id, server, hour string }{{"s1", "srv", "09"}, {"s2", "srv", "10"}, {"s3", "oth", "11"}} {
		at := func(sec int) string { return fmt.Sprintf(`"t":"2026-03-02T%s:00:%02dZ"`, s.hour, sec) }
		lines = append(lines,
			`{"v":1,"type":"session_start","session":"`+s.id+`",`+at(0)+`,"model":"m","system_prompt_tokens":2400,"servers":[{"name":"`+s.server+`","version":"1.0.0"}]}`,
			`{"type":"user","session":"`+s.id+`",`+at(1)+`,"text":"fetch the record","text_tokens":8}`,
			`{"type":"model_request","session":"`+s.id+`",`+at(2)+`,"id":"r1","usage":{"input":2460,"output":22}}`,
			`{"type":"tool_call","session":"`+s.id+`",`+at(3)+`,"request":"r1","call_id":"c`+fmt.Sprint(i)+`","tool":"get","server":"`+s.server+`","args":{"id":"x"},"status":"ok","result_bytes":40}`,
			`{"type":"model_request","session":"`+s.id+`",`+at(4)+`,"id":"r2","usage":{"input":2560,"output":30}}`,
			`{"type":"assistant","session":"`+s.id+`",`+at(5)+`,"request":"r2","text":"done","text_tokens":30}`,
			`{"type":"session_end","session":"`+s.id+`",`+at(6)+`}`)
	}
	trace := filepath.Join(dir, "trace.jsonl")
	if err := os.WriteFile(trace, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return "traces: [" + trace + "]\ncatalogs: [" + cats + "]\nmodel: claude-sonnet-4.5\nstrategies: [eager]\n"
}

// TestUnreachedUpgradeIsNoted pins that a scenario upgrade that applies to
// no replayed session — after_session beyond the trace's sessions, or at a
// session index from which no session connects the server; at after every
// session's start; a server no session connects — is recorded in
// results.json (run.upgrades_unreached) and said as a finding with the
// likely reason, since it changes nothing in the replay. Before, such an
// upgrade ran without a word, as if it had been measured.
func TestUnreachedUpgradeIsNoted(t *testing.T) {
	head := unreachedFixture(t)
	n := func(v int64) *int64 { return &v }
	for _, tc := range []struct {
		name, upgrades string
		want           []sim.UnreachedUpgrade
		reason         string // in the finding
	}{
		{"after_session reached", `srv: {upgrades: [{to: "2.0.0", after_session: 1}]}`, nil, ""},
		{"after_session beyond the trace", `srv: {upgrades: [{to: "2.0.0", after_session: 3}]}`,
			[]sim.UnreachedUpgrade{{Server: "srv", To: "2.0.0", AfterSession: n(3)}}, "the traces hold 3 sessions"},
		{"after_session past the server's sessions", `srv: {upgrades: [{to: "2.0.0", after_session: 2}]}`,
			[]sim.UnreachedUpgrade{{Server: "srv", To: "2.0.0", AfterSession: n(2)}}, "no replayed session from the 2-th on (counting from 0) connects srv"},
		{"at reached", `srv: {upgrades: [{to: "2.0.0", at: "2026-03-02T09:30:00Z"}]}`, nil, ""},
		{"at inside a session", `srv: {upgrades: [{to: "2.0.0", at: "2026-03-02T10:00:03Z"}]}`, nil, ""},
		{"at after every session", `srv: {upgrades: [{to: "2.0.0", at: "2026-03-02T12:00:00Z"}]}`,
			[]sim.UnreachedUpgrade{{Server: "srv", To: "2.0.0", At: "2026-03-02T12:00:00Z"}}, "no replayed session that connects srv starts at or runs past 2026-03-02T12:00:00Z"},
		{"server no session connects", `lone: {upgrades: [{to: "2.0.0", after_session: 0}]}`,
			[]sim.UnreachedUpgrade{{Server: "lone", To: "2.0.0", AfterSession: n(0)}}, "no replayed session from the 0-th on (counting from 0) connects lone"},
		{"one of two", `srv: {upgrades: [{to: "2.0.0", after_session: 1}]}, lone: {upgrades: [{to: "2.0.0", after_session: 0}]}`,
			[]sim.UnreachedUpgrade{{Server: "lone", To: "2.0.0", AfterSession: n(0)}}, "connects lone"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(t, head+"servers: {"+tc.upgrades+"}\n", Overrides{})
			cfg.Bootstrap = -1
			out, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, out.Results.Run.UnreachedUpgrades); d != "" {
				t.Errorf("upgrades_unreached (-want +got):\n%s", d)
			}
			var said []string
			for _, f := range report.Findings(out.Results) {
				if strings.Contains(f, "applied to no replayed session") {
					said = append(said, f)
				}
			}
			if len(said) != len(tc.want) || (tc.reason != "" && !strings.Contains(strings.Join(said, "\n"), tc.reason)) {
				t.Errorf("findings %q, want %d naming %q", said, len(tc.want), tc.reason)
			}
		})
	}
}

// TestUnreachedUpgradeExactOverShardsAndResume pins that the sessions each
// upgrade applied to are counted in the state (sim.RunState.Upgrades), so
// that a merge of shards and a resumed run say the same unreached upgrades
// as a single run — a shard whose sessions an upgrade misses does not make
// it unreached, and the sessions before a checkpoint still count.
func TestUnreachedUpgradeExactOverShardsAndResume(t *testing.T) {
	head := unreachedFixture(t)
	cfg := testConfig(t, head+`servers: {srv: {upgrades: [{to: "2.0.0", after_session: 1}, {to: "2.0.0", at: "2026-03-02T12:00:00Z"}]}}`+"\n", Overrides{})
	cfg.Bootstrap = -1
	single, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := single.Results.Run.UnreachedUpgrades; len(got) != 1 || got[0].At == "" {
		t.Fatalf("single run: upgrades_unreached = %+v, want the at upgrade alone", got)
	}
	want := resultsBytes(t, single)

	var files []*StateFile
	missed := false // a shard's sessions miss the after_session upgrade (shard 1 of 2 holds s1 and s3)
	for i := range 2 {
		c := cfg
		c.Shard = Shard{Index: i, Count: 2}
		out, err := Run(context.Background(), c)
		if err != nil {
			t.Fatalf("shard %d: %v", i, err)
		}
		if len(out.Results.Run.UnreachedUpgrades) == 2 {
			missed = true
		}
		files = append(files, throughFile(t, out.State))
	}
	merged, err := Merge(context.Background(), files, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := resultsBytes(t, merged); !bytes.Equal(want, got) {
		t.Fatalf("merged results differ from the single run:\n%s", cmp.Diff(string(want), string(got)))
	}
	if !missed {
		t.Fatal("no shard missed the after_session upgrade: the test does not test the merge")
	}

	cfg.Checkpoint = filepath.Join(t.TempDir(), CheckpointFile)
	ctx, cancel := context.WithCancel(context.Background())
	c := cfg
	c.AfterSession = func(n int64) {
		if n == 2 {
			cancel()
		}
	}
	_, err = Run(ctx, c)
	cancel()
	var ie *InterruptedError
	if !errors.As(err, &ie) {
		t.Fatalf("interrupted run returned %v, want an InterruptedError", err)
	}
	cfg.Resume = true
	resumed, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := resultsBytes(t, resumed); !bytes.Equal(want, got) {
		t.Fatalf("resumed results differ from the single run:\n%s", cmp.Diff(string(want), string(got)))
	}
	if !slices.ContainsFunc(report.Findings(resumed.Results), func(f string) bool { return strings.Contains(f, "applied to no replayed session") }) {
		t.Error("the resumed run does not say the unreached upgrade")
	}
}

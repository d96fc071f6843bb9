package runner

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// entriesFixture is unreachedFixture with tools only one version serves:
// srv 1.0.0 serves get and old, srv 2.0.0 get and put (old renamed put);
// lone 1.0.0, which no session connects, serves get and solo.
func entriesFixture(t *testing.T) string {
	t.Helper()
	head := unreachedFixture(t)
	cats := regexp.MustCompile(`catalogs: \[(.*)\]`).FindStringSubmatch(head)[1]
	tool := func(name string) string {
		return `{"name":"` + name + `","description":"Get a record","inputSchema":{"type":"object","properties":{"id":{"type":"string"}}}}`
	}
	for name, tools := range map[string][]string{
		"srv@1.0.0.json": {"get", "old"}, "srv@2.0.0.json": {"get", "put"}, "lone@1.0.0.json": {"get", "solo"},
	} {
		var ts []string
		for _, n := range tools {
			ts = append(ts, tool(n))
		}
		if err := os.WriteFile(filepath.Join(cats, name), []byte(`{"tools":[`+strings.Join(ts, ",")+`]}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return strings.Replace(head, "strategies: [eager]\n", "", 1)
}

// TestListEntryNoReplayedVersionServes pins that a never_defer or
// always_defer entry the scenario writes that some catalog version serves
// but no version a session replayed does — a tool removed or renamed
// since the sessions' version, added by a version they do not replay, or
// of a server no session connects — is recorded in results.json
// (run.scenario_entries_unreplayed) with the versions that serve it and
// said as a finding. Before, the scenario check accepted any name some
// catalog version serves, and such an entry changed nothing without a
// word.
func TestListEntryNoReplayedVersionServes(t *testing.T) {
	head := entriesFixture(t)
	for _, tc := range []struct {
		name, strategy, servers string
		want                    []sim.UnreplayedEntry
	}{
		{"served by the replayed version", `never_defer: [get, old], always_defer: ["srv:old"]`, "", nil},
		{"only the newer version serves it", `never_defer: [get, put]`, "",
			[]sim.UnreplayedEntry{{Strategy: "mine", Key: "never_defer", Index: 1, Entry: "put", Serving: []string{"srv@2.0.0"}, Replayed: []string{"srv@1.0.0"}}}},
		{"a prefix, scoped", `always_defer: ["srv:pu*"]`, "",
			[]sim.UnreplayedEntry{{Strategy: "mine", Key: "always_defer", Index: 0, Entry: "srv:pu*", Serving: []string{"srv@2.0.0"}, Replayed: []string{"srv@1.0.0"}}}},
		{"a server no session connects", `never_defer: [solo]`, "",
			[]sim.UnreplayedEntry{{Strategy: "mine", Key: "never_defer", Index: 0, Entry: "solo", Serving: []string{"lone@1.0.0"}}}},
		{"an upgrade replays the version that serves it", `never_defer: [put]`, `servers: {srv: {upgrades: [{to: "2.0.0", after_session: 1}]}}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(t, head+tc.servers+"\nstrategies:\n- eager\n- {name: mine, base: claude-code-default, "+tc.strategy+"}\n", Overrides{})
			cfg.Bootstrap = -1
			out, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, out.Results.Run.UnreplayedEntries); d != "" {
				t.Errorf("scenario_entries_unreplayed (-want +got):\n%s", d)
			}
			said := false
			for _, f := range report.Findings(out.Results) {
				said = said || strings.Contains(f, "no catalog version the sessions replayed serves")
			}
			if said != (len(tc.want) > 0) {
				t.Errorf("finding said: %v, want %v", said, len(tc.want) > 0)
			}
		})
	}
}

// TestUnreplayedEntriesExactOverShardsAndResume pins that the versions
// serving each list entry are carried in the state
// (sim.RunInfo.EntryVersions), so that a merge of shards and a resumed run
// flag the same entries as a single run: an entry served by a version only
// one shard's sessions replay (oth:get, shard 1 of 2 holding s1 and s3)
// is not flagged by the merge.
func TestUnreplayedEntriesExactOverShardsAndResume(t *testing.T) {
	head := entriesFixture(t)
	cfg := testConfig(t, head+"strategies:\n- eager\n- {name: mine, base: claude-code-default, never_defer: [put, \"oth:get\"]}\n", Overrides{})
	cfg.Bootstrap = -1
	single, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := single.Results.Run.UnreplayedEntries; len(got) != 1 || got[0].Entry != "put" {
		t.Fatalf("single run: scenario_entries_unreplayed = %+v, want put alone", got)
	}
	want := resultsBytes(t, single)

	var files []*StateFile
	missed := false
	for i := range 2 {
		c := cfg
		c.Shard = Shard{Index: i, Count: 2}
		out, err := Run(context.Background(), c)
		if err != nil {
			t.Fatalf("shard %d: %v", i, err)
		}
		missed = missed || len(out.Results.Run.UnreplayedEntries) == 2
		files = append(files, throughFile(t, out.State))
	}
	if !missed {
		t.Fatal("no shard missed oth's sessions: the test does not test the merge")
	}
	merged, err := Merge(context.Background(), files, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := resultsBytes(t, merged); !bytes.Equal(want, got) {
		t.Fatalf("merged results differ from the single run:\n%s", cmp.Diff(string(want), string(got)))
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
}

package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestUpgradeLeavesOtherSessionsAlone pins that a scenario upgrade of a
// server changes nothing for a session that does not name that server:
// its outcomes equal those of the run without the upgrade and no catalog
// change is replayed, whether the upgrade is by session index or by time,
// to the server's first version or a later one. (Before, the upgraded
// server was added to every session: eager sent its tools in every prompt,
// and an `at` upgrade to the first version added it mid-session.)
func TestUpgradeLeavesOtherSessionsAlone(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "kb-only.jsonl")
	lines := []string{
		`{"v":1,"type":"session_start","session":"s1","t":"2026-03-02T09:00:00Z","model":"m","system_prompt_tokens":2400,"servers":[{"name":"kb","version":"2.12.1"}]}`,
		`{"type":"user","session":"s1","t":"2026-03-02T09:00:03Z","text":"find the article on routes","text_tokens":8}`,
		`{"type":"model_request","session":"s1","t":"2026-03-02T09:00:03.100Z","id":"r1","duration_ms":1400,"usage":{"input":2460,"output":22}}`,
		`{"type":"model_request","session":"s1","t":"2026-03-02T09:00:05.840Z","id":"r2","duration_ms":2600,"usage":{"input":520,"output":140}}`,
		`{"type":"assistant","session":"s1","t":"2026-03-02T09:00:08.440Z","request":"r2","text":"done","text_tokens":140}`,
		`{"type":"session_end","session":"s1","t":"2026-03-02T09:00:10Z"}`,
	}
	if err := os.WriteFile(trace, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	head := "traces: [" + trace + "]\ncatalogs: [embedded:catalog]\nmodel: claude-sonnet-4.5\nstrategies: [eager, claude-code-default]\n"
	run := func(t *testing.T, servers string) *Output {
		t.Helper()
		cfg := testConfig(t, head+servers, Overrides{})
		cfg.Bootstrap = -1
		out, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	want := run(t, "")
	for _, tc := range []struct{ name, servers string }{
		{"after_session", `servers: {maps: {upgrades: [{to: "3.0.0", after_session: 0}]}}`},
		{"before after_session", `servers: {maps: {upgrades: [{to: "3.0.0", after_session: 5}]}}`},
		{"at before the session", `servers: {maps: {upgrades: [{to: "3.0.0", at: 2026-03-01T00:00:00Z}]}}`},
		{"at inside the session", `servers: {maps: {upgrades: [{to: "3.0.0", at: 2026-03-02T09:00:04Z}]}}`},
		{"at inside, to the first version", `servers: {maps: {upgrades: [{to: "2.2.3", at: 2026-03-02T09:00:04Z}]}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := run(t, tc.servers)
			if n := got.Results.Run.Resolution.VersionChanges; n != 0 {
				t.Errorf("version_changes_replayed = %d, want 0 (the session has no maps server)", n)
			}
			tokens := sim.Metrics[sim.MInputTokens].Name
			for i, s := range got.Results.Strategies {
				w := want.Results.Strategies[i]
				if s.OutcomeDigest != w.OutcomeDigest {
					t.Errorf("%s: input tokens %v, want %v as without the upgrade (outcome digest %s, want %s)",
						s.Name, s.Metrics[tokens].Sum, w.Metrics[tokens].Sum, s.OutcomeDigest, w.OutcomeDigest)
				}
			}
		})
	}
}

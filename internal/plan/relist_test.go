package plan

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/defersim/defersim/scenarios"
	defaultdata "github.com/defersim/defersim/scenarios/default"
)

// TestSweepRelistProb pins that params.relist_prob is sweepable and
// changes what it models: on a session whose kb server changes version
// after the first user message, 1 adds kb's list time (list_ms, 10 ms:
// the embedded catalog records no timings) to first_reply_list_ms,
// first_reply_ms and connect_ms of every strategy that listed kb, and
// nothing to its tokens; 0 (the default) adds nothing.
func TestSweepRelistProb(t *testing.T) {
	sw := sweepRelist(t, true)
	if len(sw.Unchanged) != 0 {
		t.Errorf("unchanged = %+v, want every strategy to change", sw.Unchanged)
	}
	off, on := sw.Points[0].Results, sw.Points[1].Results
	for _, s := range off.Strategies {
		for metric, add := range map[string]float64{"first_reply_list_ms": 10, "first_reply_ms": 10, "connect_ms": 10, "input_tokens": 0, "cost_usd": 0} {
			lo, hi := s.Metrics[metric].Mean, on.Strategy(s.Name).Metrics[metric].Mean
			if !(hi > lo+add-1e-9 && hi < lo+add+1e-9) {
				t.Errorf("%s: %s %v at relist_prob 0, %v at 1, want +%v", s.Name, metric, lo, hi, add)
			}
		}
	}
}

// TestSweepRelistProbWithoutChanges pins why a relist_prob sweep changes
// nothing on traces without a version change inside a session: every
// strategy is flagged with that reason (before, eager's read "nothing was
// deferred, so how tools are deferred never applied", the reason for a
// deferral key).
func TestSweepRelistProbWithoutChanges(t *testing.T) {
	sw := sweepRelist(t, false)
	const want = "no server changed version within a session, so there was nothing to list again"
	if len(sw.Unchanged) != 2 {
		t.Fatalf("unchanged = %+v, want both strategies", sw.Unchanged)
	}
	for _, u := range sw.Unchanged {
		if u.Reason != want {
			t.Errorf("%s: reason %q, want %q", u.Strategy, u.Reason, want)
		}
	}
}

// sweepRelist sweeps params.relist_prob over 0 and 1 on one session over
// the embedded kb and maps servers, kb changing version after the first
// user message when change is set.
func sweepRelist(t *testing.T, change bool) *SweepResult {
	t.Helper()
	dir := t.TempDir()
	lines := []string{
		`{"v":1,"type":"session_start","session":"s1","t":"2026-03-02T09:00:00Z","model":"m","system_prompt_tokens":2400,"servers":[{"name":"kb","version":"2.12.1"},{"name":"maps","version":"2.2.3"}]}`,
		`{"type":"user","session":"s1","t":"2026-03-02T09:00:03Z","text":"what changed in the knowledge base","text_tokens":8}`,
		`{"type":"model_request","session":"s1","t":"2026-03-02T09:00:03.100Z","id":"r1","duration_ms":1400,"usage":{"input":2460,"output":22}}`,
		`{"type":"assistant","session":"s1","t":"2026-03-02T09:00:04.500Z","request":"r1","text":"nothing yet","text_tokens":4}`,
		`{"type":"session_end","session":"s1","t":"2026-03-02T09:00:10Z"}`,
	}
	if change {
		lines = slices.Insert(lines, 2, `{"type":"catalog_change","session":"s1","t":"2026-03-02T09:00:03.050Z","server":"kb","version":"2.13.0"}`)
	}
	yaml := "name: relist\nseed: 3\ntraces: [trace.jsonl]\ncatalogs: [embedded:catalog]\nmodel: claude-sonnet-4.5\n" +
		"strategies: [eager, claude-code-default]\n"
	for name, body := range map[string]string{"trace.jsonl": strings.Join(lines, "\n") + "\n", "relist.yaml": yaml} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sc, err := scenarios.Load(filepath.Join(dir, "relist.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	sw, err := Sweep(context.Background(), SweepConfig{Scenario: sc,
		Spec:     SweepSpec{Param: "params.relist_prob", From: 0, To: 1, Step: 1},
		Embedded: defaultdata.FS(), Dir: t.TempDir(), Bootstrap: -1})
	if err != nil {
		t.Fatal(err)
	}
	return sw
}

package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// datedVersions is, per server the dated tests name, a version the
// embedded catalog holds: a session naming one it lacks stops the run.
var datedVersions = map[string]string{"maps": "2.2.3", "kb": "2.12.1"}

// datedTrace writes a one-session trace over server (at the version of it the embedded
// catalog holds first, datedVersions)
// starting at start, its session_start meta timing set to timing ("":
// none), and returns its path.
func datedTrace(t *testing.T, server, start, timing string) string {
	t.Helper()
	meta := ""
	if timing != "" {
		meta = `,"meta":{"timing":"` + timing + `"}`
	}
	lines := []string{
		`{"v":1,"type":"session_start","session":"s1","t":"` + start + `","model":"m","system_prompt_tokens":2400,"servers":[{"name":"` + server + `","version":"` + datedVersions[server] + `"}]` + meta + `}`,
		`{"type":"user","session":"s1","t":"` + start + `","text":"find the route","text_tokens":8}`,
		`{"type":"model_request","session":"s1","t":"` + start + `","id":"r1","usage":{"input":2460,"output":22}}`,
		`{"type":"assistant","session":"s1","t":"` + start + `","request":"r1","text":"done","text_tokens":22}`,
		`{"type":"session_end","session":"s1","t":"` + start + `"}`,
	}
	path := filepath.Join(t.TempDir(), "trace.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestDatedUpgradeNeedsRecordedTimes pins that an `at` upgrade over a
// session without recorded times (meta timing=synthetic: the importers'
// 1970 placeholders) stops the run with a *sim.DatedUpgradeError naming the
// session and after_session, instead of replaying it silently on the old
// version; and that sessions with recorded times, sessions without the
// server and `after_session` upgrades still run. (Before, every such
// session was placed before the upgrade and the run said nothing.) The
// error begins at the upgrade's scenario file, line and entry, as an
// upgrade's other errors do (it began "servers.maps.upgrades: ").
func TestDatedUpgradeNeedsRecordedTimes(t *testing.T) {
	const epoch, recent = "1970-01-01T00:00:00Z", "2026-03-02T09:00:00Z"
	for _, tc := range []struct {
		name, server, start, timing, upgrade string
		refused                              bool
	}{
		{"synthetic times, at", "maps", epoch, "synthetic", `at: 2026-01-01T00:00:00Z`, true},
		{"synthetic times, at before 1970", "maps", epoch, "synthetic", `at: 1960-01-01T00:00:00Z`, true},
		{"synthetic times, after_session", "maps", epoch, "synthetic", `after_session: 0`, false},
		{"synthetic times, no such server in the session", "kb", epoch, "synthetic", `at: 2026-01-01T00:00:00Z`, false},
		{"recorded times, at", "maps", recent, "recorded", `at: 2026-01-01T00:00:00Z`, false},
		{"unmarked times, at", "maps", recent, "", `at: 2026-01-01T00:00:00Z`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			yaml := "traces: [\"" + datedTrace(t, tc.server, tc.start, tc.timing) + "\"]\ncatalogs: [embedded:catalog]\nmodel: claude-sonnet-4.5\nstrategies: [eager]\n" +
				`servers: {maps: {upgrades: [{to: "3.0.0", ` + tc.upgrade + `}]}}` + "\n"
			cfg := testConfig(t, yaml, Overrides{})
			cfg.Bootstrap = -1
			_, err := Run(context.Background(), cfg)
			var de *sim.DatedUpgradeError
			switch {
			case !tc.refused && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.refused && !errors.As(err, &de):
				t.Fatalf("err = %v, want a *sim.DatedUpgradeError", err)
			case tc.refused:
				for _, w := range []string{`test.yaml:5: servers.maps.upgrades[0]: at `, `session "s1" has none`, `timing=synthetic`, `use after_session instead`} {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q does not say %q", err, w)
					}
				}
			}
		})
	}
}

// TestDatedUpgradeNotesEpochTimes pins that a session whose times are not
// marked synthetic but start in 1970 (placeholder-looking), placed before an
// `at` upgrade, is counted in the run's input notes and warned about, and
// that a session with a plausible start, or an upgrade by after_session, is
// not. (Before, nothing said such sessions all ran on the old versions;
// then only stderr said it: results.json run.counts.sessions_epoch_dated
// and the report's findings now do too.)
func TestDatedUpgradeNotesEpochTimes(t *testing.T) {
	for _, tc := range []struct {
		name, start, upgrade string
		want                 int64
	}{
		{"epoch start, at", "1970-01-01T00:00:00Z", `at: 2026-01-01T00:00:00Z`, 1},
		{"late-1970 start, at", "1970-12-31T23:00:00Z", `at: 2026-01-01T00:00:00Z`, 1},
		{"epoch start, at before it", "1970-01-01T00:00:00Z", `at: 1969-01-01T00:00:00Z`, 0},
		{"epoch start, after_session", "1970-01-01T00:00:00Z", `after_session: 0`, 0},
		{"2026 start, at", "2026-03-02T09:00:00Z", `at: 2026-06-01T00:00:00Z`, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			yaml := "traces: [\"" + datedTrace(t, "maps", tc.start, "") + "\"]\ncatalogs: [embedded:catalog]\nmodel: claude-sonnet-4.5\nstrategies: [eager]\n" +
				`servers: {maps: {upgrades: [{to: "3.0.0", ` + tc.upgrade + `}]}}` + "\n"
			cfg := testConfig(t, yaml, Overrides{})
			cfg.Bootstrap = -1
			out, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			n := out.InputNotes()
			if n.SessionsEpochDated != tc.want {
				t.Errorf("sessions_epoch_dated = %d, want %d", n.SessionsEpochDated, tc.want)
			}
			warned := strings.Contains(strings.Join(n.Warnings(""), "\n"), "in 1970 or earlier, before the scenario's dated upgrades")
			if warned != (tc.want > 0) {
				t.Errorf("warned = %v, want %v: %q", warned, tc.want > 0, n.Warnings(""))
			}
			// results.json and the report say it too, not stderr alone.
			if got := out.Results.Run.Counts.SessionsEpochDated; got != tc.want {
				t.Errorf("results run.counts.sessions_epoch_dated = %d, want %d", got, tc.want)
			}
			noted := strings.Contains(strings.Join(report.Findings(out.Results), "\n"), "in 1970 or earlier")
			if noted != (tc.want > 0) {
				t.Errorf("report finding = %v, want %v: %q", noted, tc.want > 0, report.Findings(out.Results))
			}
		})
	}
}

// TestEpochDatedCountMerges pins that run.counts.sessions_epoch_dated is
// exact under shards, merges and resumes: each shard counts its own
// sessions, the merged state counts them all, as the single run does, and
// so does a run resumed from a checkpoint. (The count was a warning of one
// process's replay, not in the state: a merge said 0, a resume counted
// only the sessions after the checkpoint.)
func TestEpochDatedCountMerges(t *testing.T) {
	// Sessions s0..s5: even ones start at the epoch, odd ones in 2026.
	var lines []string
	for i := range 6 {
		start := "2026-03-02T09:00:00Z"
		if i%2 == 0 {
			start = "1970-01-01T00:00:00Z"
		}
		id := fmt.Sprintf("s%d", i)
		for _, l := range strings.Split(strings.TrimSpace(readFile(t, datedTrace(t, "maps", start, ""))), "\n") {
			lines = append(lines, strings.ReplaceAll(l, `"session":"s1"`, `"session":"`+id+`"`))
		}
	}
	path := filepath.Join(t.TempDir(), "trace.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	yaml := "traces: [\"" + path + "\"]\ncatalogs: [embedded:catalog]\nmodel: claude-sonnet-4.5\nstrategies: [eager]\n" +
		`servers: {maps: {upgrades: [{to: "3.0.0", at: 2026-01-01T00:00:00Z}]}}` + "\n"
	cfg := testConfig(t, yaml, Overrides{})
	cfg.Bootstrap = -1
	single, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := single.Info.Counts.SessionsEpochDated; got != 3 {
		t.Fatalf("single run: sessions_epoch_dated = %d, want 3", got)
	}
	outs, files := runShards(t, cfg, 2)
	var sum int64
	for _, out := range outs {
		sum += out.Info.Counts.SessionsEpochDated
	}
	if sum != 3 {
		t.Errorf("shards count %d epoch-dated sessions, want 3", sum)
	}
	merged, err := Merge(context.Background(), files, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := merged.Info.Counts.SessionsEpochDated; got != 3 {
		t.Errorf("merged: sessions_epoch_dated = %d, want 3", got)
	}
	if got := merged.InputNotes().SessionsEpochDated; got != 3 {
		t.Errorf("merged input notes: sessions_epoch_dated = %d, want 3", got)
	}
	// Interrupted after the third session, then resumed: the checkpoint
	// keeps the count of the sessions before it.
	cfg.Workers = 1
	cfg.Checkpoint = filepath.Join(t.TempDir(), CheckpointFile)
	cfg.CheckpointEvery = 1
	if ie := interruptAt(t, cfg, 3); ie.Replayed == 0 || ie.Replayed == 6 {
		t.Fatalf("interrupted after %d sessions, want part-way", ie.Replayed)
	}
	cfg.Resume = true
	resumed, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := resumed.Info.Counts.SessionsEpochDated; got != 3 {
		t.Errorf("resumed: sessions_epoch_dated = %d, want 3", got)
	}
}

// readFile returns the content of path.
func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

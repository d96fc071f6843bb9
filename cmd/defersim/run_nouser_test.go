package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
)

// TestRunSaysSessionsWithoutUser pins that run, and merge over its
// shards, count the sessions without a user message in results.json
// (run.counts.sessions_without_user), that run warns of them on stderr
// with the first ones located, merge without, and the report says so: on
// tau-bench's airline sessions with the user lines removed, run gave
// eager's first reply p95 as 63.3 s (2.51 s on the whole trace) without a
// word. Over the whole trace, none of it appears.
func TestRunSaysSessionsWithoutUser(t *testing.T) {
	if testing.Short() {
		t.Skip("replays generated sessions")
	}
	trace, cat := genData(t, "20")
	// The user lines of two sessions removed.
	var kept []string
	for l := range strings.SplitSeq(strings.TrimSuffix(string(gunzip(t, trace)), "\n"), "\n") {
		if strings.Contains(l, `"type":"user"`) && (strings.Contains(l, `"session":"gen-000001"`) || strings.Contains(l, `"session":"gen-000004"`)) {
			continue
		}
		kept = append(kept, l)
	}
	cut := filepath.Join(t.TempDir(), "cut.jsonl")
	if err := os.WriteFile(cut, []byte(strings.Join(kept, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	firstLine := 0 // gen-000001's session_start
	for i, l := range kept {
		if strings.Contains(l, `"type":"session_start"`) && strings.Contains(l, `"session":"gen-000001"`) {
			firstLine = i + 1
			break
		}
	}
	const note = "2 of 20 sessions have no user message: their first_reply_ms runs from the session's start to its end, not to a first reply (docs/engine.md §5)"
	for _, tc := range []struct {
		name, trace string
		want        int64
	}{{"whole trace", trace, 0}, {"two sessions without user lines", cut, 2}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			args := []string{"--traces", tc.trace, "--catalogs", cat, "--strategies", "eager,claude-code-default", "--bootstrap", "-1"}
			outs := map[string]string{}
			for _, shard := range []string{"", "0/2", "1/2"} {
				out := filepath.Join(dir, "run"+strings.ReplaceAll(shard, "/", "-"))
				a := append([]string{"run", "-o", out}, args...)
				if shard != "" {
					a = append(a, "--shard", shard)
				}
				stdout, stderr, code := cliRun(t, a...)
				if code != 0 {
					t.Fatalf("run %s: exit %d\n%s%s", shard, code, stdout, stderr)
				}
				outs[shard] = out
				if shard != "" {
					continue
				}
				warned := strings.Contains(stderr, "defersim: warning: "+note)
				located := strings.Contains(stderr, "defersim: warning: "+cut+":"+strconv.Itoa(firstLine)+`: session "gen-000001" has no user message`)
				if want := tc.want > 0; warned != want || located != want {
					t.Errorf("stderr warns %v, locates gen-000001 at line %d %v; want %v:\n%s", warned, firstLine, located, want, stderr)
				}
			}
			merged := filepath.Join(dir, "merged")
			stdout, stderr, code := cliRun(t, "merge", merged, outs["0/2"], outs["1/2"])
			if code != 0 {
				t.Fatalf("merge: exit %d\n%s%s", code, stdout, stderr)
			}
			// merge warns as run does, without locations (a shard's run
			// gave them): it said nothing on stderr before.
			if got := strings.Contains(stderr, "defersim: warning: "+note); got != (tc.want > 0) {
				t.Errorf("merge's stderr warns %q: %v, want %v:\n%s", note, got, tc.want > 0, stderr)
			}
			for _, out := range []string{outs[""], merged} {
				res, err := report.ReadResults(filepath.Join(out, "results.json"))
				if err != nil {
					t.Fatal(err)
				}
				if got := res.Run.Counts.SessionsWithoutUser; got != tc.want {
					t.Errorf("%s: run.counts.sessions_without_user = %d, want %d", filepath.Base(out), got, tc.want)
				}
				md, err := os.ReadFile(filepath.Join(out, "report.md"))
				if err != nil {
					t.Fatal(err)
				}
				if got := strings.Contains(string(md), note); got != (tc.want > 0) {
					t.Errorf("%s: report.md says %q: %v, want %v", filepath.Base(out), note, got, tc.want > 0)
				}
			}
		})
	}
}

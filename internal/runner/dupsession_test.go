package runner

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/traces"
)

// writeSessions writes sessions as a plain trace at path and returns the
// number of lines of each.
func writeSessions(t *testing.T, path string, sessions ...*traces.Session) []int64 {
	t.Helper()
	var buf bytes.Buffer
	w := traces.NewWriter(&buf, false)
	var n []int64
	for _, s := range sessions {
		for _, ev := range s.Events {
			if err := w.Write(&ev); err != nil {
				t.Fatal(err)
			}
		}
		n = append(n, int64(len(s.Events)))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return n
}

// dupConfig is smallConfig over n sessions with its trace rewritten as
// files, each holding the sessions of the given indexes in that order.
// It returns the config and the lines of each file's sessions.
func dupConfig(t *testing.T, n int, files ...[]int) (Config, [][]int64) {
	t.Helper()
	cfg := smallConfig(t, []string{"eager"}, n)
	cfg.Bootstrap = -1
	sessions, _, err := traces.ReadAll(cfg.Traces[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var srcs []Source
	var lines [][]int64
	for i, idx := range files {
		var ss []*traces.Session
		for _, k := range idx {
			ss = append(ss, sessions[k])
		}
		p := filepath.Join(dir, string(rune('a'+i))+".jsonl")
		lines = append(lines, writeSessions(t, p, ss...))
		srcs = append(srcs, Source{Path: p})
	}
	cfg.Traces = srcs
	return cfg, lines
}

// TestRunRefusesRepeatedSession pins that a session id read twice in one
// run — a trace concatenated with itself, one file given twice, two files
// sharing a session, an id reused after another session — stops the run
// at the repeat's session_start with the place it first started (the
// command's exit 2), in every shard (each reads every line), instead of
// replaying the session twice.
func TestRunRefusesRepeatedSession(t *testing.T) {
	for _, tc := range []struct {
		name    string
		files   [][]int
		twice   bool // the first file given twice
		shard   Shard
		wantErr string // with the temporary directory as DIR
	}{
		{"a trace concatenated with itself", [][]int{{0, 1, 2, 0, 1, 2}}, false, Shard{},
			`DIR/a.jsonl:LINE3: session "gen-000001" starts again: already read at DIR/a.jsonl:1 (duplicate session id)` + dupAdvice},
		{"an id reused after another session", [][]int{{0, 1, 2, 1}}, false, Shard{},
			`DIR/a.jsonl:LINE3: session "gen-000002" starts again: already read at DIR/a.jsonl:LINE1 (duplicate session id)` + dupAdvice},
		{"one file given twice", [][]int{{0, 1, 2}}, true, Shard{},
			`DIR/a.jsonl:1: session "gen-000001" starts again: already read at DIR/a.jsonl:1 (duplicate session id: is the file given twice?)`},
		{"two files sharing a session", [][]int{{0, 1, 2}, {3, 2}}, false, Shard{},
			`DIR/b.jsonl:LINEB1: session "gen-000003" starts again: already read at DIR/a.jsonl:LINE2 (duplicate session id)` + dupAdvice},
		{"shard 0 of 2", [][]int{{0, 1, 2, 0, 1, 2}}, false, Shard{Index: 0, Count: 2},
			`DIR/a.jsonl:LINE3: session "gen-000001" starts again: already read at DIR/a.jsonl:1 (duplicate session id)` + dupAdvice},
		{"shard 1 of 2", [][]int{{0, 1, 2, 0, 1, 2}}, false, Shard{Index: 1, Count: 2},
			`DIR/a.jsonl:LINE3: session "gen-000001" starts again: already read at DIR/a.jsonl:1 (duplicate session id)` + dupAdvice},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, lines := dupConfig(t, 4, tc.files...)
			if tc.twice {
				cfg.Traces = append(cfg.Traces, cfg.Traces[0])
			}
			cfg.Shard = tc.shard
			// LINEk: the line of the (k+1)-th session of the first file.
			at := func(ls []int64, k int) string {
				n := int64(1)
				for _, l := range ls[:k] {
					n += l
				}
				return strconv.FormatInt(n, 10)
			}
			want := strings.NewReplacer("DIR", filepath.Dir(cfg.Traces[0].Path), "LINE1", at(lines[0], 1),
				"LINE2", at(lines[0], 2), "LINE3", at(lines[0], 3), "LINEB1", at(lines[len(lines)-1], 1)).Replace(tc.wantErr)
			_, err := Run(context.Background(), cfg)
			var le *traces.LineError
			if !errors.As(err, &le) || le.Kind != traces.KindDuplicateSession || err.Error() != want {
				t.Fatalf("run returned %v, want %s", err, want)
			}
		})
	}
}

// TestRunSkipsRepeatedSession pins that with SkipBad a session read
// before is skipped whole, every one of its lines counted in the run's
// lines_skipped and skip_reasons.duplicate_session, across files; that
// both shards of the run count it alike (each reads every line) and merge
// into the single run's results.
func TestRunSkipsRepeatedSession(t *testing.T) {
	cfg, lines := dupConfig(t, 6, []int{0, 1, 2, 3, 4, 5}, []int{4, 2})
	cfg.SkipBad = true
	single, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	dup := lines[1][0] + lines[1][1]
	c := single.Info.Counts
	if c.SessionsRead != 6 || c.SessionsReplayed != 6 || c.LinesSkipped != dup ||
		!cmp.Equal(c.SkipReasons, map[string]int{"duplicate_session": int(dup)}) || c.SessionsIncomplete != 0 {
		t.Fatalf("counts %+v, want 6 sessions read and replayed, %d lines skipped as duplicate_session", c, dup)
	}
	var files []*StateFile
	for i := range 2 {
		sc := cfg
		sc.Shard = Shard{Index: i, Count: 2}
		out, err := Run(context.Background(), sc)
		if err != nil {
			t.Fatalf("shard %d: %v", i, err)
		}
		if got := out.Info.Counts; got.LinesSkipped != dup || got.SkipReasons["duplicate_session"] != int(dup) {
			t.Fatalf("shard %d counts %+v, want %d lines skipped as duplicate_session", i, got, dup)
		}
		files = append(files, out.State)
	}
	merged, err := Merge(context.Background(), files, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if want, got := resultsBytes(t, single), resultsBytes(t, merged); !bytes.Equal(want, got) {
		t.Fatalf("merged shards differ from the single run:\n%s", cmp.Diff(string(want), string(got)))
	}
}

// TestResumeRefusesSessionRepeatedAfterCheckpoint pins that a resumed
// run, which reads its traces again from the start, still stops at a
// session repeating one replayed before the checkpoint: the checkpoint
// needs no list of sessions. The repeat is past what the interrupted run
// can have read ahead (a few 256 KiB batches), so the first run stops on
// the interruption.
func TestResumeRefusesSessionRepeatedAfterCheckpoint(t *testing.T) {
	if testing.Short() {
		t.Skip("generates 400 sessions")
	}
	order := make([]int, 400)
	for i := range order {
		order[i] = i
	}
	cfg, _ := dupConfig(t, 400, append(order, 0))
	if st, err := os.Stat(cfg.Traces[0].Path); err != nil || st.Size() < 2<<20 {
		t.Fatalf("trace of %v bytes (%v), want more than the reader's look-ahead", st.Size(), err)
	}
	cfg.Checkpoint = filepath.Join(t.TempDir(), CheckpointFile)
	ctx, cancel := context.WithCancel(context.Background())
	c := cfg
	c.AfterSession = func(n int64) {
		if n == 2 {
			cancel()
		}
	}
	_, err := Run(ctx, c)
	cancel()
	var ie *InterruptedError
	if !errors.As(err, &ie) || ie.Checkpoint == "" {
		t.Fatalf("interrupted run returned %v, want an InterruptedError with a checkpoint", err)
	}
	cfg.Resume = true
	_, err = Run(context.Background(), cfg)
	want := `session "gen-000001" starts again: already read at ` + cfg.Traces[0].Path + ":1 "
	var le *traces.LineError
	if !errors.As(err, &le) || le.Kind != traces.KindDuplicateSession || !strings.Contains(err.Error(), want) {
		t.Fatalf("resumed run returned %v, want an error saying %s", err, want)
	}
}

// dupAdvice is what the reason of a repeated session id that is not a
// file given twice adds after "(duplicate session id)": what to do.
const dupAdvice = "; the same session read twice (overlapping exports, a file concatenated with itself) is skipped with --skip-bad, " +
	"two sessions that share an id need distinct ids"

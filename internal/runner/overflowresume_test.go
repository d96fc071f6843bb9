package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestResumedRunCountsTheSameOverflow pins that a run interrupted and
// resumed from its checkpoint (run --checkpoint-every, --resume) counts
// the same requests over the model's context window as an uninterrupted
// run: requests, sessions, the largest input and its session (MaxSession)
// included, and writes the same results.json. The largest request is
// tied by a twin session after the interruption: the resumed run must
// keep the session first in stream order, which only the checkpointed
// stream index (ContextOverflow.MaxIndex) tells it. Both the checkpoint
// written at the interruption and the last one written every
// CheckpointEvery sessions (what a killed run leaves) are resumed.
func TestResumedRunCountsTheSameOverflow(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the default scenario several times")
	}
	const sessions, every = 40, 4
	cfg := smallConfig(t, shardStrategies[:2], sessions)
	// Every request over a window of one token: the largest is eager's
	// largest request of all, in session top.
	probe := cfg
	probe.Model.ContextWindow = 1
	out, err := Run(context.Background(), probe)
	if err != nil {
		t.Fatal(err)
	}
	top := out.Results.Strategies[0].ContextOverflow
	if top == nil || top.MaxSession == "" {
		t.Fatalf("eager's overflow over a window of one token: %+v", top)
	}
	// The twin of top, appended after the last session.
	twinID := top.MaxSession + "-twin"
	var twin [][]byte
	at := -1
	rewriteTrace(t, &cfg, func(line []byte, k int) [][]byte {
		var ev struct{ Type, Session string }
		if err := json.Unmarshal(line, &ev); err != nil {
			t.Fatal(err)
		}
		if ev.Session == top.MaxSession {
			at = k
			twin = append(twin, bytes.Replace(line, []byte(`"session":"`+top.MaxSession+`"`), []byte(`"session":"`+twinID+`"`), 1))
		}
		if k == sessions-1 && ev.Type == "session_end" {
			return append([][]byte{line}, twin...)
		}
		return [][]byte{line}
	})
	// Interrupted two checkpoints past top, and before the twin.
	stopAt := int64(at + 2*every)
	if at < 0 || stopAt >= sessions {
		t.Fatalf("the largest session %s is at index %d of %d: no interruption falls between it and its twin", top.MaxSession, at, sessions)
	}
	// A window of three quarters of the largest request: some requests
	// and sessions exceed it, not all.
	cfg.Model.ContextWindow = top.MaxInput * 3 / 4
	whole, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := whole.Results.Strategies[0].ContextOverflow
	if want == nil || want.MaxSession != top.MaxSession || want.MaxInput != top.MaxInput || want.MaxIndex != int64(at) ||
		want.Sessions < 2 || want.Sessions > sessions {
		t.Fatalf("eager's overflow over the whole run %+v: want the largest, %d tokens, in %s (index %d), tied by %s, in fewer sessions than all",
			want, top.MaxInput, top.MaxSession, at, twinID)
	}
	for _, tc := range []struct {
		name   string
		killed bool // resume from the last periodic checkpoint
	}{
		{"from the checkpoint written at the interruption", false},
		{"from the last periodic checkpoint, as a killed run leaves", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			c := cfg
			c.Checkpoint, c.CheckpointEvery = filepath.Join(dir, CheckpointFile), every
			periodic := filepath.Join(dir, "periodic")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			c.AfterSession = func(n int64) {
				if n != stopAt {
					return
				}
				if tc.killed {
					b, err := os.ReadFile(c.Checkpoint)
					if err != nil {
						t.Errorf("no periodic checkpoint after %d sessions: %v", n, err)
					}
					if err := os.WriteFile(periodic, b, 0o644); err != nil {
						t.Error(err)
					}
				}
				cancel()
			}
			var ie *InterruptedError
			if _, err := Run(ctx, c); !errors.As(err, &ie) {
				t.Fatalf("the run stopped after %d sessions: error %v, want an interruption", stopAt, err)
			}
			if tc.killed {
				if err := os.Rename(periodic, c.Checkpoint); err != nil {
					t.Fatal(err)
				}
			}
			saved, err := ReadState(c.Checkpoint)
			if err != nil {
				t.Fatal(err)
			}
			if o := saved.State.Overflow[0]; o.MaxSession != top.MaxSession || o.MaxIndex != int64(at) {
				t.Fatalf("the checkpoint (up to stream index %d) holds eager's largest request %+v, want %s's: the tie after it is not tested",
					saved.State.Next, o, top.MaxSession)
			}
			r := c
			r.Resume, r.AfterSession = true, nil
			resumed, err := Run(context.Background(), r)
			if err != nil {
				t.Fatalf("resume: %v", err)
			}
			for i, s := range resumed.Results.Strategies {
				if d := cmp.Diff(whole.Results.Strategies[i].ContextOverflow, s.ContextOverflow); d != "" {
					t.Errorf("%s's overflow (-uninterrupted +resumed):\n%s", s.Name, d)
				}
			}
			if a, b := resultsBytes(t, whole), resultsBytes(t, resumed); !bytes.Equal(a, b) {
				t.Errorf("resumed results differ from the uninterrupted run's:\n%s", cmp.Diff(string(a), string(b)))
			}
		})
	}
}

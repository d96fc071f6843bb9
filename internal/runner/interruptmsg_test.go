package runner

import (
	"errors"
	"testing"
)

// TestInterruptedMessageCountsSessions pins the words an interrupted run
// prints about its checkpoint: how many of the input's first sessions it
// covers, not the stream index of the next one, which counts from 0 and
// read as either ("sessions before #41251": 41250 sessions, or 41251?).
func TestInterruptedMessageCountsSessions(t *testing.T) {
	for _, tc := range []struct {
		name string
		e    InterruptedError
		want string
	}{
		{"mid-replay", InterruptedError{Replayed: 41250, Read: 41268, Next: 41251, Checkpoint: "out/checkpoint"},
			"interrupted after replaying 41250 sessions (41268 read); checkpoint saved to out/checkpoint: it covers the input's first 41251 sessions " +
				"(in input order: replayed, failed, or another shard's), and --resume replays the sessions after them"},
		{"one session", InterruptedError{Replayed: 1, Read: 3, Next: 1, Checkpoint: "out/checkpoint"},
			"interrupted after replaying 1 session (3 read); checkpoint saved to out/checkpoint: it covers the input's first 1 session " +
				"(in input order: replayed, failed, or another shard's), and --resume replays the sessions after them"},
		{"none yet", InterruptedError{Read: 2, Checkpoint: "out/checkpoint"},
			"interrupted after replaying 0 sessions (2 read); checkpoint saved to out/checkpoint: it covers no session of the input yet, and --resume replays from the first"},
		{"statistics", InterruptedError{Replayed: 350, Read: 350, Next: 350, Checkpoint: "out/checkpoint", Statistics: true},
			"interrupted while computing the statistics, after replaying all 350 sessions (350 read); checkpoint saved to out/checkpoint: it covers the input's first 350 sessions " +
				"(in input order: replayed, failed, or another shard's), and --resume replays the sessions after them"},
		{"no checkpoint", InterruptedError{Replayed: 5, Read: 6, Next: 6},
			"interrupted after replaying 5 sessions (6 read)"},
		{"checkpoint failed", InterruptedError{Replayed: 5, Read: 6, Next: 6, Checkpoint: "out/checkpoint", CheckpointErr: errors.New("disk full")},
			"interrupted after replaying 5 sessions (6 read); the checkpoint could not be written: disk full"},
	} {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

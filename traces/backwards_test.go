package traces

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReaderCountsTimeBackwards pins that the Reader, which accepts events
// whose time goes back within their session, counts each one and records
// where, with the very problems Validate reports (same lines, same
// reasons), in both read modes; equal times and other sessions' times do
// not count.
func TestReaderCountsTimeBackwards(t *testing.T) {
	trace := strings.Join([]string{
		`{"v":1,"type":"session_start","session":"a","t":"2026-01-01T10:00:00Z"}`,
		`{"v":1,"type":"session_start","session":"b","t":"2026-01-01T09:00:00Z"}`, // another session: earlier is fine
		`{"type":"user","session":"a","t":"2026-01-01T10:00:05Z","text":"x"}`,
		`{"type":"model_request","session":"a","t":"2026-01-01T10:00:01Z","id":"r1"}`, // before 10:00:05
		`{"type":"model_request","session":"a","t":"2026-01-01T10:00:01Z","id":"r2"}`, // equal: fine
		`{"type":"session_end","session":"b","t":"2026-01-01T08:59:59Z"}`,             // before b's start
		`{"type":"session_end","session":"a","t":"2026-01-01T10:00:02Z"}`,
	}, "\n") + "\n"
	probs, _, err := ValidateReader(strings.NewReader(trace), "t.jsonl", ValidateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var want []Problem
	for _, p := range probs {
		if p.Kind == KindTimeBackwards {
			want = append(want, p)
		}
	}
	if len(want) != 2 {
		t.Fatalf("validate reports %d times going backwards, want 2: %v", len(want), probs)
	}
	for _, mode := range []struct {
		name string
		opts ReadOptions
	}{
		{"sessions", ReadOptions{}},
		{"events", ReadOptions{OnEvent: func(*Session, *Event, int) {}}},
	} {
		r, err := NewReader(strings.NewReader(trace), "t.jsonl", mode.opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, err := range r.Sessions() {
			if err != nil {
				t.Fatal(err)
			}
		}
		c := r.Counts()
		if c.Backwards != int64(len(want)) {
			t.Errorf("%s: Counts.Backwards = %d, want %d", mode.name, c.Backwards, len(want))
		}
		if d := cmp.Diff(want, c.FirstBackwards); d != "" {
			t.Errorf("%s: FirstBackwards (-validate +reader):\n%s", mode.name, d)
		}
	}
}

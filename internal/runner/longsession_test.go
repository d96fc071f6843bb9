package runner

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/defersim/defersim/internal/bounded"
	"github.com/defersim/defersim/traces"
)

// TestRunOfAHugeSessionInBoundedMemory pins issue 18.8's run half: one
// session of a million events took 2.06 GB of RSS in run, because the
// reader held every event of the session and the replay read it only
// once complete. Run now builds each session's need as its events are
// read (allNeeds, sim.NeedBuilder) and lets its steps go as it makes
// them compact: replaying one session of 200,000 events (made as
// docs/performance.md makes its long session) keeps the live heap within
// 3 × the file + 64 MiB (81 MiB for a 35 MiB file; the whole-session path
// reached 274 MiB), and results.json is byte-identical to the
// whole-session path's.
func TestRunOfAHugeSessionInBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("replays a session of 200,000 events")
	}
	cfg := defaultConfig(t, nil, 1)
	var first *traces.Session
	for s, err := range Sessions(cfg) {
		if err != nil {
			t.Fatal(err)
		}
		first = s
		break
	}
	path := filepath.Join(t.TempDir(), "huge.jsonl")
	size := writeRepeated(t, path, first, 200000)
	cfg.Traces = PathSources(path)

	var streamed *Output
	res, err := bounded.Run(t, bounded.Scaled(size, 3), func() error {
		var err error
		streamed, err = Run(context.Background(), cfg)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("file %.1f MiB, peak live heap growth %.1f MiB", float64(size)/(1<<20), float64(res.PeakHeapGrowth)/(1<<20))
	if c := streamed.Info.Counts; c.SessionsReplayed != 1 {
		t.Fatalf("counts %+v, want one session replayed", c)
	}
	whole := cfg
	whole.Transform = func(*traces.Session) {} // a transform reads whole sessions
	held, err := Run(context.Background(), whole)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(resultsBytes(t, streamed), resultsBytes(t, held)) {
		t.Error("results.json of the session built as read differs from the whole session's")
	}
}

// writeRepeated writes s as one session of at least n events: its
// session_start, then its other events but session_end repeated with -K
// appended to every id, request and call_id of copy K, then its
// session_end (docs/performance.md, "One long session"). It returns the
// file's size.
func writeRepeated(t *testing.T, path string, s *traces.Session, n int) int64 {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := traces.NewWriter(f, false)
	body := s.Events[1:]
	var end []traces.Event
	if k := len(body); k > 0 && body[k-1].Type == traces.SessionEnd {
		body, end = body[:k-1], body[k-1:]
	}
	write := func(ev *traces.Event) {
		if err := w.Write(ev); err != nil {
			t.Fatal(err)
		}
	}
	write(&s.Events[0])
	for k, count := 0, 1; count < n; k++ {
		for _, ev := range body {
			for _, id := range []*string{&ev.ID, &ev.Request, &ev.CallID} {
				if *id != "" {
					*id = fmt.Sprintf("%s-%d", *id, k)
				}
			}
			write(&ev)
			count++
		}
	}
	for i := range end {
		write(&end[i])
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}

package pipeline

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/traces"
)

// TestWriteKeepsFailures pins that the Write stage writes, beside
// results.json, the first line of the error of each session that failed
// to replay (runner.FailuresFile), which the launcher reads back to list
// them as defersim run does. Before, only the stage's log had them. The
// state is a batch replayed by the run's engine with one more session
// counted as failed, as a worker panic leaves it (no input is known to
// make a session fail).
func TestWriteKeepsFailures(t *testing.T) {
	paths, catalog := twoTraces(t, 4, 4)
	out := filepath.Join(t.TempDir(), "out")
	spec := Spec{Traces: paths[:1], Catalogs: []string{catalog}, Strategies: []string{"eager"}, Bootstrap: -1, NoReport: true, Out: out}
	d, err := prepared.get(spec)
	if err != nil {
		t.Fatal(err)
	}
	sessions, _, err := traces.ReadAll(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	last := len(sessions) - 1
	st, err := d.ReplayBatch(context.Background(), 0, sessions[:last], 1)
	if err != nil {
		t.Fatal(err)
	}
	st.Next++
	st.Skipped++
	st.Failures = append(st.Failures, sim.IndexedFailure{Index: int64(last),
		Msg: "session " + sessions[last].ID + ": internal error (please report): a bug\ngoroutine 7 [running]:"})
	counts, err := json.Marshal(traces.Counts{})
	if err != nil {
		t.Fatal(err)
	}
	read := fileRead{Path: paths[0], Sessions: int64(len(sessions)), Counts: counts}
	states := func(p **sim.RunState) bool {
		if st == nil {
			return false
		}
		*p, st = st, nil
		return true
	}
	reads := func(p *fileRead) bool {
		if read.Path == "" {
			return false
		}
		*p, read = read, fileRead{}
		return true
	}
	none := func(*repeatedSession) bool { return false }
	if err := (&writeFn{Spec: spec}).ProcessElement(context.Background(), nil, states, reads, none); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(out, runner.FailuresFile))
	if want := "session " + sessions[last].ID + ": internal error (please report): a bug\n"; err != nil || string(data) != want {
		t.Errorf("%s: %q, %v; want %q", runner.FailuresFile, data, err, want)
	}
}

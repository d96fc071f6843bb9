package pipeline

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/defersim/defersim/traces"
)

// TestPipelineStopsAtSessionInTwoFiles pins that a session id read in two
// trace files (one file given twice, or two files sharing a session)
// stops the pipeline before it writes anything, with the error `defersim
// run` stops with (the id and both places), instead of replaying the
// session twice; and that with skip-bad, where run skips the later copy,
// the pipeline stops too and says why.
func TestPipelineStopsAtSessionInTwoFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Beam pipelines and defersim")
	}
	bin := defersimBinary(t)
	paths, catalog := twoTraces(t, 40, 20)
	first, _, err := traces.ReadAll(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	second, _, err := traces.ReadAll(paths[1])
	if err != nil {
		t.Fatal(err)
	}
	// shared holds the second file's sessions with one of the first's (the
	// 6th) among them: after 11 sessions, so not on its first lines.
	shared := filepath.Join(filepath.Dir(paths[0]), "shared.jsonl")
	writeSessions(t, shared, slices.Concat(second[:11], first[5:6], second[11:]))
	for _, tc := range []struct {
		name    string
		traces  []string
		skipBad bool
		id      string // the repeated session's id
	}{
		{name: "same file twice", traces: []string{paths[0], paths[0]}, id: first[0].ID},
		{name: "same file twice, skip-bad", traces: []string{paths[0], paths[0]}, skipBad: true, id: first[0].ID},
		{name: "two files sharing a session", traces: []string{paths[0], shared}, id: first[5].ID},
		{name: "two files sharing a session, skip-bad", traces: []string{paths[0], shared}, skipBad: true, id: first[5].ID},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"run", "-q", "-o", filepath.Join(t.TempDir(), "run"), "--traces", strings.Join(tc.traces, ","),
				"--catalogs", catalog, "--strategies", "eager", "--bootstrap", "-1", "--no-report"}
			if tc.skipBad {
				args = append(args, "--skip-bad")
			}
			runOut, runErr := exec.Command(bin, args...).CombinedOutput()
			var exit *exec.ExitError
			switch {
			case tc.skipBad && runErr != nil:
				t.Fatalf("defersim run --skip-bad: %v\n%s", runErr, runOut)
			case !tc.skipBad && (!errors.As(runErr, &exit) || exit.ExitCode() != 2):
				t.Fatalf("defersim run: %v, want exit status 2\n%s", runErr, runOut)
			}
			spec := Spec{Traces: tc.traces, Catalogs: []string{catalog}, Strategies: []string{"eager"}, Bootstrap: -1,
				NoReport: true, SkipBad: tc.skipBad, BatchSessions: 8, Out: filepath.Join(t.TempDir(), "beam")}
			p, s := beam.NewPipelineWithRoot()
			if err := Build(s, spec); err != nil {
				t.Fatal(err)
			}
			err := ptest.Run(p)
			if err == nil {
				t.Fatal("the pipeline succeeded; want it to stop at the session read in two files")
			}
			msg := err.Error()
			// The place of the repeat, as run names it (without skip-bad, run's
			// own message), and both files with their lines.
			want := repeatMessage(t, tc.traces, tc.id)
			if !strings.Contains(msg, want) {
				t.Errorf("the pipeline's error does not hold %q:\n%s", want, msg)
			}
			if !tc.skipBad && !strings.Contains(string(runOut), want) {
				t.Errorf("defersim run's error does not hold %q:\n%s", want, runOut)
			}
			if skip := "cannot skip a session repeated across files"; strings.Contains(msg, skip) != tc.skipBad {
				t.Errorf("the error says %q: %v, want %v:\n%s", skip, !tc.skipBad, tc.skipBad, msg)
			}
			if _, err := os.Stat(filepath.Join(spec.Out, "results.json")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("results.json: %v, want none written", err)
			}
		})
	}
}

// repeatMessage is the error of session id starting again, as a reader
// sharing a SessionSet over the files finds it (the first repeat of id).
func repeatMessage(t *testing.T, files []string, id string) string {
	t.Helper()
	seen := traces.NewSessionSet()
	for _, path := range files {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		r, err := traces.NewReader(f, path, traces.ReadOptions{Seen: seen, SkipBad: true})
		if err != nil {
			t.Fatal(err)
		}
		for range r.Sessions() {
		}
		c := r.Counts()
		r.Close()
		f.Close()
		for _, p := range c.FirstSkips {
			if p.Kind == traces.KindDuplicateSession && strings.Contains(p.Reason, `"`+id+`"`) {
				return p.File + ":" + strconv.Itoa(p.Line) + ": " + p.Reason
			}
		}
	}
	t.Fatalf("session %q is not repeated in %v", id, files)
	return ""
}

// writeSessions writes sessions as a trace file.
func writeSessions(t *testing.T, path string, sessions []*traces.Session) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := traces.NewWriter(f, false)
	for _, s := range sessions {
		if err := w.WriteSession(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestStartsMergeInAnyOrder pins that the CombineFns finding ids read in
// two files give the same answer whatever order Beam merges in: the
// earliest start and the earliest in another file, and the earliest
// repeat.
func TestStartsMergeInAnyOrder(t *testing.T) {
	at := func(file, line int) sessionStarts { return sessionStarts{First: sessionStart{File: file, Line: line}} }
	for _, tc := range []struct {
		name   string
		starts []sessionStarts
		want   sessionStarts
	}{
		{name: "one start", starts: []sessionStarts{at(2, 9)}, want: at(2, 9)},
		{name: "same file only", starts: []sessionStarts{at(1, 30), at(1, 4)}, want: at(1, 4)},
		{name: "two files", starts: []sessionStarts{at(3, 1), at(0, 50), at(3, 0)},
			want: sessionStarts{First: sessionStart{0, 50}, Other: sessionStart{3, 0}, HasOther: true}},
		{name: "earliest other file not the second start", starts: []sessionStarts{at(4, 2), at(0, 7), at(0, 3), at(1, 90)},
			want: sessionStarts{First: sessionStart{0, 3}, Other: sessionStart{1, 90}, HasOther: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, order := range permutations(len(tc.starts)) {
				// Left to right, and as two halves merged apart (a combiner
				// lifted onto two workers).
				var fn startsFn
				acc := tc.starts[order[0]]
				for _, i := range order[1:] {
					acc = fn.MergeAccumulators(acc, tc.starts[i])
				}
				if acc != tc.want {
					t.Errorf("order %v: %+v, want %+v", order, acc, tc.want)
				}
				if h := len(order) / 2; h > 0 {
					left, right := tc.starts[order[0]], tc.starts[order[h]]
					for _, i := range order[1:h] {
						left = fn.MergeAccumulators(left, tc.starts[i])
					}
					for _, i := range order[h+1:] {
						right = fn.MergeAccumulators(right, tc.starts[i])
					}
					if got := fn.MergeAccumulators(left, right); got != tc.want {
						t.Errorf("order %v in halves: %+v, want %+v", order, got, tc.want)
					}
				}
			}
		})
	}
	repeats := []repeatedSession{
		{ID: "b", First: sessionStart{0, 1}, Again: sessionStart{2, 5}},
		{ID: "a", First: sessionStart{1, 8}, Again: sessionStart{2, 5}}, // the same place cannot hold two ids; ties go by id
		{ID: "c", First: sessionStart{0, 9}, Again: sessionStart{3, 0}},
		{ID: "d", First: sessionStart{0, 2}, Again: sessionStart{2, 9}},
	}
	for _, order := range permutations(len(repeats)) {
		var fn earliestRepeatFn
		acc := repeats[order[0]]
		for _, i := range order[1:] {
			acc = fn.MergeAccumulators(acc, repeats[i])
		}
		if acc.ID != "a" {
			t.Errorf("order %v: earliest repeat %+v, want a", order, acc)
		}
	}
}

// permutations returns every order of 0..n-1.
func permutations(n int) [][]int {
	if n == 0 {
		return [][]int{{}}
	}
	var out [][]int
	for _, p := range permutations(n - 1) {
		for i := 0; i <= len(p); i++ {
			out = append(out, slices.Insert(slices.Clone(p), i, n-1))
		}
	}
	return out
}

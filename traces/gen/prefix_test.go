package gen

import (
	"bytes"
	"testing"

	"github.com/defersim/defersim/traces"
)

// TestSessionDependsOnCountOnlyThroughReleases pins what docs/generator.md
// says of determinism across --sessions: without releases (drift off; over
// a catalog on the latest schedule) session i is the same whatever the
// session count; with releases it is not, because they are spread over the
// run (the doc claimed session i depended only on the seed, i and the
// catalog, which was false with the default drift and the even schedule).
func TestSessionDependsOnCountOnlyThroughReleases(t *testing.T) {
	generated := func(drift int) func(n int) (*Generator, error) {
		return func(n int) (*Generator, error) {
			p := Defaults()
			p.Sessions, p.Drift.Servers = n, drift
			return New(p)
		}
	}
	over := func(schedule string) func(n int) (*Generator, error) {
		return func(n int) (*Generator, error) {
			p := overParams(n, 0.5, "notes", "clock")
			p.Over.Schedule = schedule
			if schedule == ScheduleLatest {
				p.Over.MidSession = DefaultOver().MidSession // idle there
			}
			return NewOver(testCatalog(t), p)
		}
	}
	for _, tc := range []struct {
		name     string
		mk       func(n int) (*Generator, error)
		samePref bool
	}{
		{"generated, drift off", generated(0), true},
		{"over, latest schedule", over(ScheduleLatest), true},
		{"generated, default drift", generated(3), false},
		{"over, even schedule", over(ScheduleEven), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			short, long := sessionsOf(t, tc.mk, 30), sessionsOf(t, tc.mk, 90)
			same := true
			for i := range short {
				if !bytes.Equal(short[i], long[i]) {
					same = false
				}
			}
			if same != tc.samePref {
				t.Errorf("the first 30 sessions of 90 equal the 30 of a 30-session run: %v, want %v", same, tc.samePref)
			}
		})
	}
}

// sessionsOf returns each session of a generation of n sessions as JSONL.
func sessionsOf(t *testing.T, mk func(n int) (*Generator, error), n int) [][]byte {
	t.Helper()
	g, err := mk(n)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for s := range g.Sessions() {
		var b bytes.Buffer
		w := traces.NewWriter(&b, false)
		if err := w.WriteSession(s); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		out = append(out, b.Bytes())
	}
	if len(out) != n {
		t.Fatalf("%d sessions, want %d", len(out), n)
	}
	return out
}

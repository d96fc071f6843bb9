package bounded

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// fakeTB records failures instead of stopping the test; Fatalf panics with
// a sentinel that the test recovers, like testing.T's Goexit.
type fakeTB struct{ msgs []string }

type fatal struct{}

func (f *fakeTB) Helper()                        {}
func (f *fakeTB) Errorf(format string, a ...any) { f.msgs = append(f.msgs, fmt.Sprintf(format, a...)) }
func (f *fakeTB) Fatalf(format string, a ...any) {
	f.msgs = append(f.msgs, fmt.Sprintf(format, a...))
	panic(fatal{})
}

func run(lim Limits, fn func() error) (msgs []string, err error) {
	f := &fakeTB{}
	func() {
		defer func() {
			if p := recover(); p != nil {
				if _, ok := p.(fatal); !ok {
					panic(p)
				}
			}
		}()
		_, err = Run(f, lim, fn)
	}()
	return f.msgs, err
}

func TestRun(t *testing.T) {
	var keep [][]byte
	release := make(chan struct{})
	defer close(release)
	tests := []struct {
		name    string
		lim     Limits
		fn      func() error
		wantErr string
		wantMsg string // prefix of the one failure, "" for none
	}{
		{"ok", For(0), func() error { return nil }, "", ""},
		{"error passes through", For(0), func() error { return errors.New("bad line") }, "bad line", ""},
		{"panic", For(0), func() error { panic("boom") }, "", "panic: boom"},
		// The hanging case blocks until the test ends, not for a fixed
		// time: a sleep longer than the deadline could still end first on a
		// machine loaded enough to delay the deadline's timer.
		{"hang", Limits{Deadline: 50 * time.Millisecond}, func() error { <-release; return nil }, "", "did not finish within 50ms"},
		{"heap over the bound", Limits{MaxHeapGrowth: 1 << 20}, func() error {
			for range 64 {
				keep = append(keep, make([]byte, 1<<20))
				time.Sleep(time.Millisecond)
			}
			return nil
		}, "", "heap grew by"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			msgs, err := run(tc.lim, tc.fn)
			if got := fmt.Sprint(err); (err != nil || tc.wantErr != "") && got != tc.wantErr {
				t.Errorf("error %q, want %q", got, tc.wantErr)
			}
			switch {
			case tc.wantMsg == "" && len(msgs) > 0:
				t.Errorf("unexpected failure %q", msgs)
			case tc.wantMsg != "" && (len(msgs) != 1 || !strings.HasPrefix(msgs[0], tc.wantMsg)):
				t.Errorf("failures %q, want one starting %q", msgs, tc.wantMsg)
			}
		})
	}
	keep = nil
}

package report

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func TestProgressSilentWhenNotATerminal(t *testing.T) {
	var buf bytes.Buffer
	p := NewProgress(&buf, 10)
	p.Add(5)
	p.Finish()
	if buf.Len() != 0 {
		t.Fatalf("wrote %q to a non-terminal", buf.String())
	}
	var nilP *Progress
	nilP.Add(1) // a nil progress is a no-op
	nilP.Finish()
}

func TestProgressLine(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	var buf bytes.Buffer
	p := newProgress(&buf, 100, true, clk.now)
	p.Add(10) // too soon: no redraw
	if buf.Len() != 0 {
		t.Fatalf("redrew before the interval: %q", buf.String())
	}
	clk.t = clk.t.Add(2 * time.Second)
	p.Add(40)
	want := "\rreplayed 50/100 sessions (50%) · 25 sessions/s · ETA 0:02"
	if buf.String() != want {
		t.Fatalf("line %q, want %q", buf.String(), want)
	}
	clk.t = clk.t.Add(2 * time.Second)
	p.Add(50)
	p.Finish()
	if !strings.HasSuffix(buf.String(), "replayed 100/100 sessions (100%) · 25 sessions/s\n") {
		t.Fatalf("final line %q", buf.String())
	}
	buf.Reset()
	p.Add(1)
	p.Finish()
	if buf.Len() != 0 {
		t.Fatalf("wrote after Finish: %q", buf.String())
	}
}

func TestProgressUnknownTotalAndConcurrency(t *testing.T) {
	clk := &fakeClock{t: time.Unix(0, 0)}
	var buf bytes.Buffer
	p := newProgress(&buf, 0, true, clk.now)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				p.Add(1)
			}
		}()
	}
	wg.Wait()
	clk.t = clk.t.Add(4 * time.Second)
	p.Finish()
	if got := buf.String(); got != "\rreplayed 800 sessions · 200 sessions/s\n" {
		t.Fatalf("line %q", got)
	}
}

func TestFmtClock(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0:00", 59 * time.Second: "0:59", 61 * time.Second: "1:01", 3725 * time.Second: "1:02:05",
	} {
		if got := fmtClock(d); got != want {
			t.Errorf("fmtClock(%v) = %q, want %q", d, got, want)
		}
	}
}

package report

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// Progress shows sessions replayed, sessions per second and the time left
// on one line of a terminal. It is silent when its writer is not a
// terminal (a file, a pipe, CI logs). It is safe for concurrent use.
//
// It is a small own implementation rather than schollz/progressbar: one
// redrawn line is all it needs, and it keeps the dependency tree (and its
// terminal-detection packages) out of the module.
type Progress struct {
	mu      sync.Mutex
	w       io.Writer
	enabled bool
	now     func() time.Time
	every   time.Duration

	total, done int64
	start, last time.Time
	width       int
}

// NewProgress returns a progress line for total sessions (0 when unknown)
// written to w — normally os.Stderr — when w is a terminal.
func NewProgress(w io.Writer, total int64) *Progress {
	return newProgress(w, total, isTerminal(w), time.Now)
}

func newProgress(w io.Writer, total int64, enabled bool, now func() time.Time) *Progress {
	t := now()
	return &Progress{w: w, enabled: enabled, now: now, every: 200 * time.Millisecond, total: total, start: t, last: t}
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0 && os.Getenv("TERM") != "dumb"
}

// Add records n more sessions and redraws the line at most five times a
// second.
func (p *Progress) Add(n int64) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += n
	if !p.enabled {
		return
	}
	if t := p.now(); t.Sub(p.last) >= p.every {
		p.last = t
		p.draw(t)
	}
}

// Finish draws the final line and ends it with a newline.
func (p *Progress) Finish() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.enabled {
		return
	}
	p.draw(p.now())
	fmt.Fprintln(p.w)
	p.enabled = false
}

func (p *Progress) draw(t time.Time) {
	line := p.line(t)
	pad := ""
	if n := p.width - len(line); n > 0 {
		pad = strings.Repeat(" ", n)
	}
	p.width = len(line)
	fmt.Fprintf(p.w, "\r%s%s", line, pad)
}

// line formats the progress text at time t.
func (p *Progress) line(t time.Time) string {
	elapsed := t.Sub(p.start).Seconds()
	rate := 0.0
	if elapsed > 0 {
		rate = float64(p.done) / elapsed
	}
	var b strings.Builder
	if p.total > 0 {
		fmt.Fprintf(&b, "replayed %s/%s sessions (%d%%)", fmtInt(float64(p.done)), fmtInt(float64(p.total)),
			min(100, p.done*100/p.total))
	} else {
		fmt.Fprintf(&b, "replayed %s sessions", fmtInt(float64(p.done)))
	}
	fmt.Fprintf(&b, " · %s sessions/s", fmtSig(rate))
	if p.total > 0 && rate > 0 && p.done < p.total {
		left := time.Duration(float64(p.total-p.done) / rate * float64(time.Second))
		fmt.Fprintf(&b, " · ETA %s", fmtClock(left))
	}
	return b.String()
}

// fmtClock formats a duration as m:ss or h:mm:ss.
func fmtClock(d time.Duration) string {
	s := int64(d.Round(time.Second) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

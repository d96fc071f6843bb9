package runner

import (
	"fmt"
	"io"
	"time"
)

// progress prints sessions replayed and the rate, at most twice a second.
type progress struct {
	w     io.Writer
	start time.Time
	last  time.Time
	n     int64
}

func newProgress(w io.Writer) *progress {
	return &progress{w: w, start: time.Now()}
}

func (p *progress) update(done int64) {
	p.n = done
	if p.w == nil {
		return
	}
	now := time.Now()
	if now.Sub(p.last) < 500*time.Millisecond {
		return
	}
	p.last = now
	el := now.Sub(p.start).Seconds()
	fmt.Fprintf(p.w, "\r%d sessions replayed, %.0f sessions/s ", done, float64(done)/max(el, 1e-9))
}

func (p *progress) done() {
	if p.w == nil || p.n == 0 {
		return
	}
	fmt.Fprintf(p.w, "\r%d sessions replayed in %.1fs\n", p.n, time.Since(p.start).Seconds())
}

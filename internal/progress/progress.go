// Package progress shows the advance of a long command on stderr: in a
// terminal, a redrawn bar with the total, rate and time left
// (github.com/schollz/progressbar/v3); elsewhere (CI logs, pipes, files) a
// plain line every few seconds; nothing when quiet. Either way it ends with
// one line saying what was done and how long it took.
package progress

import (
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// DefaultEvery is how often a plain progress line is written.
const DefaultEvery = 5 * time.Second

// Config describes one long task.
type Config struct {
	// Label starts every line ("run", "trace gen").
	Label string
	// Verb and Noun say what is counted ("replayed", "sessions"); One is
	// Noun for a count of 1 ("session"; "" writes Noun).
	Verb, Noun, One string
	// Total is the amount of work in the unit of Update's done argument
	// (0 or less when unknown). Bytes says the unit is bytes of input, read
	// while the counted items are produced (progress by input read).
	Total int64
	Bytes bool
	// Quiet writes nothing at all.
	Quiet bool
	// Every is the plain-line interval (0 = DefaultEvery).
	Every time.Duration
	// Terminal forces the bar on (1) or off (-1); 0 detects a terminal.
	Terminal int
}

// Reporter reports one task's progress. Its methods are safe for
// concurrent use; a nil *Reporter does nothing.
type Reporter struct {
	mu    sync.Mutex
	w     io.Writer
	cfg   Config
	now   func() time.Time
	start time.Time
	last  time.Time
	bar   *progressbar.ProgressBar
	done  int64
	count int64
	ended bool
}

// New starts reporting a task on w (normally stderr).
func New(w io.Writer, cfg Config) *Reporter {
	return newAt(w, cfg, time.Now)
}

func newAt(w io.Writer, cfg Config, now func() time.Time) *Reporter {
	if cfg.Every <= 0 {
		cfg.Every = DefaultEvery
	}
	r := &Reporter{w: w, cfg: cfg, now: now, start: now()}
	r.last = r.start
	if cfg.Quiet {
		return r
	}
	tty := cfg.Terminal > 0 || (cfg.Terminal == 0 && IsTerminal(w))
	if tty {
		max := cfg.Total
		if max <= 0 {
			max = -1 // a spinner
		}
		opts := []progressbar.Option{
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription(r.describe()),
			progressbar.OptionSetWidth(28),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(150 * time.Millisecond),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionSetRenderBlankState(true),
		}
		if cfg.Bytes {
			opts = append(opts, progressbar.OptionShowBytes(true), progressbar.OptionShowCount())
		} else {
			opts = append(opts, progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionSetItsString(cfg.Noun))
		}
		r.bar = progressbar.NewOptions64(max, opts...)
	}
	return r
}

// IsTerminal reports whether w is a terminal that can redraw a line.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd())) && os.Getenv("TERM") != "dumb"
}

// Update records progress: done in the unit of Config.Total, and count
// items (sessions) so far. For a task counted in items, pass the same
// number twice.
func (r *Reporter) Update(done, count int64) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.done, r.count = done, count
	if r.cfg.Quiet || r.ended {
		return
	}
	t := r.now()
	if r.bar != nil {
		if r.cfg.Bytes && t.Sub(r.last) >= 150*time.Millisecond {
			r.last = t
			r.bar.Describe(r.describe())
		}
		_ = r.bar.Set64(min(done, r.bar.GetMax64()))
		return
	}
	if t.Sub(r.last) >= r.cfg.Every {
		r.last = t
		fmt.Fprintln(r.w, r.line(t))
	}
}

// Finish ends the task: it clears the bar and writes the closing line.
func (r *Reporter) Finish() {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ended {
		return
	}
	r.ended = true
	if r.cfg.Quiet {
		return
	}
	if r.bar != nil {
		_ = r.bar.Finish()
	}
	fmt.Fprintf(r.w, "%s: %s %s %s in %s\n", r.cfg.Label, r.cfg.Verb, group(r.count), r.noun(r.count), elapsed(r.now().Sub(r.start)))
}

// Abort ends the task without the closing line (the command failed or was
// interrupted and says so itself).
func (r *Reporter) Abort() {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ended {
		return
	}
	r.ended = true
	if r.bar != nil {
		_ = r.bar.Clear()
		fmt.Fprintln(r.w)
	}
}

// noun is Config.Noun after a count of n: Config.One for 1, when given.
func (r *Reporter) noun(n int64) string {
	if n == 1 && r.cfg.One != "" {
		return r.cfg.One
	}
	return r.cfg.Noun
}

// describe is the bar's label: for a task measured in input bytes, the
// items produced so far.
func (r *Reporter) describe() string {
	if r.cfg.Bytes {
		return fmt.Sprintf("%s: %s %s %s, input", r.cfg.Label, r.cfg.Verb, group(r.count), r.noun(r.count))
	}
	return r.cfg.Label + ":"
}

// line is a plain progress line at time t.
func (r *Reporter) line(t time.Time) string {
	el := t.Sub(r.start)
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s %s", r.cfg.Label, r.cfg.Verb, group(r.count))
	counted := r.count
	if !r.cfg.Bytes && r.cfg.Total > 0 {
		fmt.Fprintf(&b, " of %s", group(r.cfg.Total))
		counted = r.cfg.Total
	}
	b.WriteString(" " + r.noun(counted))
	frac := -1.0
	if r.cfg.Total > 0 {
		frac = math.Min(1, float64(r.done)/float64(r.cfg.Total))
		if r.cfg.Bytes {
			fmt.Fprintf(&b, ", %d%% of the input read", int(frac*100))
		} else {
			fmt.Fprintf(&b, " (%d%%)", int(frac*100))
		}
	}
	if s := el.Seconds(); s > 0 {
		fmt.Fprintf(&b, ", %s %s/s", group(int64(math.Round(float64(r.count)/s))), r.cfg.Noun)
	}
	if frac > 0 && frac < 1 {
		left := time.Duration(float64(el) * (1 - frac) / frac)
		fmt.Fprintf(&b, ", about %s left", clock(left))
	}
	fmt.Fprintf(&b, " (%s elapsed)", clock(el))
	return b.String()
}

// group writes n with thousands separators.
func group(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// clock formats a duration as m:ss or h:mm:ss.
func clock(d time.Duration) string {
	s := int64(d.Round(time.Second) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// elapsed formats a task's duration: 0.4 s, 12.3 s, 3:05.
func elapsed(d time.Duration) string {
	if d < time.Minute {
		return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + " s"
	}
	return clock(d)
}

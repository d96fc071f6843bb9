package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// fakeClock advances by step on every reading.
type fakeClock struct {
	t    time.Time
	step time.Duration
}

func (c *fakeClock) now() time.Time { c.t = c.t.Add(c.step); return c.t }

func TestPlainLines(t *testing.T) {
	// Pins: outside a terminal, progress is a plain line every interval
	// (never a carriage return, never a half-overwritten line) and ends
	// with one closing line.
	tests := []struct {
		name  string
		cfg   Config
		want  []string
		final string
	}{
		{"items", Config{Label: "trace gen", Verb: "wrote", Noun: "sessions", Total: 1000, Every: 5 * time.Second, Terminal: -1},
			[]string{"trace gen: wrote 200 of 1,000 sessions (20%)", "about 0:"}, "trace gen: wrote 1,000 sessions in"},
		{"bytes", Config{Label: "run", Verb: "replayed", Noun: "sessions", Total: 1_000_000, Bytes: true, Every: 5 * time.Second, Terminal: -1},
			[]string{"run: replayed 200 sessions, 20% of the input read"}, "run: replayed 1,000 sessions in"},
		{"unknown total", Config{Label: "run", Verb: "replayed", Noun: "sessions", Every: 5 * time.Second, Terminal: -1},
			[]string{"run: replayed 200 sessions, "}, "run: replayed 1,000 sessions in"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			clk := &fakeClock{t: time.Unix(0, 0), step: time.Second}
			r := newAt(&buf, tt.cfg, clk.now)
			for i := int64(1); i <= 1000; i++ {
				done := i
				if tt.cfg.Bytes {
					done = i * 1000
				}
				if i%40 == 0 {
					r.Update(done, i)
				}
			}
			r.Finish()
			out := buf.String()
			if strings.Contains(out, "\r") {
				t.Fatalf("carriage return in plain output:\n%q", out)
			}
			lines := strings.Split(strings.TrimSpace(out), "\n")
			if len(lines) < 3 {
				t.Fatalf("want several progress lines, got:\n%s", out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			if last := lines[len(lines)-1]; !strings.HasPrefix(last, tt.final) {
				t.Errorf("last line %q, want prefix %q", last, tt.final)
			}
		})
	}
}

func TestQuietWritesNothing(t *testing.T) {
	var buf bytes.Buffer
	r := New(&buf, Config{Label: "run", Verb: "replayed", Noun: "sessions", Total: 10, Quiet: true, Every: time.Nanosecond})
	for i := int64(1); i <= 10; i++ {
		r.Update(i, i)
	}
	r.Finish()
	if buf.Len() != 0 {
		t.Fatalf("quiet reporter wrote %q", buf.String())
	}
}

func TestBarInTerminalMode(t *testing.T) {
	// Forced terminal mode draws the library's bar with the total and
	// clears it before the closing line.
	var buf bytes.Buffer
	r := New(&buf, Config{Label: "trace gen", Verb: "wrote", Noun: "sessions", Total: 50, Terminal: 1})
	for i := int64(1); i <= 50; i++ {
		r.Update(i, i)
	}
	r.Finish()
	out := buf.String()
	if !strings.Contains(out, "/50") {
		t.Errorf("bar lacks the total:\n%q", out)
	}
	last := out[strings.LastIndex(out, "\r")+1:]
	if !strings.HasPrefix(last, "trace gen: wrote 50 sessions in ") || strings.Count(last, "\n") != 1 {
		t.Errorf("after the bar, want one clean closing line, got %q", last)
	}
}

func TestNilReporter(t *testing.T) {
	var r *Reporter
	r.Update(1, 1)
	r.Finish()
	r.Abort()
}

// TestOneInTheSingular pins Config.One: a task that counted one item
// closes with "replayed 1 session", not "1 sessions"; other counts keep
// Noun, and without One every count does.
func TestOneInTheSingular(t *testing.T) {
	for _, tc := range []struct {
		one   string
		count int64
		want  string
	}{
		{"session", 1, "run: replayed 1 session in "},
		{"session", 2, "run: replayed 2 sessions in "},
		{"", 1, "run: replayed 1 sessions in "},
	} {
		var buf bytes.Buffer
		clk := &fakeClock{t: time.Unix(0, 0), step: time.Second}
		r := newAt(&buf, Config{Label: "run", Verb: "replayed", Noun: "sessions", One: tc.one, Terminal: -1}, clk.now)
		r.Update(tc.count, tc.count)
		r.Finish()
		if !strings.HasPrefix(buf.String(), tc.want) {
			t.Errorf("One %q, %d counted: %q, want prefix %q", tc.one, tc.count, buf.String(), tc.want)
		}
	}
}

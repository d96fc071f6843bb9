package mcpsnap

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/catalog"
)

func errorsAs(err error, target any) bool { return errors.As(err, target) }

func TestLineRing(t *testing.T) {
	tests := []struct {
		name   string
		n      int
		writes []string
		want   []string
	}{
		{"empty", 3, nil, []string{}},
		{"partial", 3, []string{"abc"}, []string{"abc"}},
		{"split writes", 3, []string{"ab", "c\nde", "f\n"}, []string{"abc", "def"}},
		{"keeps last", 2, []string{"1\n2\n3\n4\n"}, []string{"3", "4"}},
		{"partial counts", 2, []string{"1\n2\n3"}, []string{"2", "3"}},
		{"crlf", 3, []string{"a\r\nb\r\n"}, []string{"a", "b"}},
		{"trailing blank", 3, []string{"a\n\n\n"}, []string{"a"}},
		{"long line cut", 1, []string{strings.Repeat("x", 2000) + "\n"}, []string{strings.Repeat("x", maxLineBytes)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newLineRing(tc.n)
			for _, w := range tc.writes {
				if n, err := r.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write = %d, %v", n, err)
				}
			}
			if d := cmp.Diff(tc.want, r.Lines()); d != "" {
				t.Error(d)
			}
		})
	}
}

func TestByteTailJunkLine(t *testing.T) {
	msg := `{"jsonrpc":"2.0","id":1,"result":{}}`
	tests := []struct {
		n        int
		in, want string
	}{
		{64, msg + "\nhello world\n", "hello world"},
		{64, "banner\n" + msg + "\n", "banner"},
		{64, `{"status":"up"}` + "\n" + msg + "\n", `{"status":"up"}`},
		{64, msg + "\n", ""},
		{64, `[` + msg + `]` + "\n", ""},
		// The first line was cut by the limit: it is not reported.
		{40, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n" + msg + "\n", ""},
	}
	for _, tc := range tests {
		b := &byteTail{n: tc.n}
		_, _ = b.Write([]byte(tc.in))
		if got := b.junkLine(); got != tc.want {
			t.Errorf("junkLine(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	b := &byteTail{n: 4}
	_, _ = b.Write([]byte("abcdefgh"))
	if string(b.buf) != "efgh" || !b.truncated {
		t.Errorf("tail kept %q (truncated %v)", b.buf, b.truncated)
	}
}

func TestNewSpread(t *testing.T) {
	msd := func(v ...float64) []time.Duration {
		var out []time.Duration
		for _, x := range v {
			out = append(out, time.Duration(x*float64(time.Millisecond)))
		}
		return out
	}
	tests := []struct {
		in   []time.Duration
		want Spread
	}{
		{nil, Spread{Samples: []float64{}}},
		{msd(5), Spread{Median: 5, Min: 5, Max: 5, Samples: []float64{5}}},
		{msd(9, 1, 5), Spread{Median: 5, Min: 1, Max: 9, Samples: []float64{9, 1, 5}}},
		{msd(4, 1, 2, 8), Spread{Median: 3, Min: 1, Max: 8, Samples: []float64{4, 1, 2, 8}}},
		{[]time.Duration{1234567}, Spread{Median: 1.235, Min: 1.235, Max: 1.235, Samples: []float64{1.235}}},
	}
	for i, tc := range tests {
		if d := cmp.Diff(tc.want, newSpread(tc.in)); d != "" {
			t.Errorf("case %d: %s", i, d)
		}
	}
}

func TestFileStem(t *testing.T) {
	tests := []struct{ in, want string }{
		{"@modelcontextprotocol/server-everything", "modelcontextprotocol__server-everything"},
		{"example-servers/everything", "example-servers__everything"},
		{"my server@2+x", "my-server-2-x"},
		{"1.0.0+build.5", "1.0.0-build.5"},
		{"", "server"},
		{"..", "server"},
		{"../etc", "__etc"},
		{"Stripe", "Stripe"},
	}
	for _, tc := range tests {
		got := FileStem(tc.in)
		if got != tc.want {
			t.Errorf("FileStem(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if strings.ContainsAny(got, "/@+") {
			t.Errorf("FileStem(%q) = %q keeps a separator", tc.in, got)
		}
		// A stem parses back as the server name of a catalog file.
		if name, _, _ := catalog.ParseFileName(got + "@1.0.json"); name != got {
			t.Errorf("ParseFileName(%q@1.0.json) server = %q", got, name)
		}
	}
}

func TestMetaPath(t *testing.T) {
	for in, want := range map[string]string{
		"a/b@1.json": "a/b@1.meta.json",
		"x":          "x.meta.json",
		"x.txt":      "x.meta.json",
	} {
		if got := MetaPath(in); got != want {
			t.Errorf("MetaPath(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestStepErrorMessage(t *testing.T) {
	err := &StepError{Server: "s", Step: StepToolsList, Failure: FailTimeout, Detail: "no answer", Stderr: []string{"one", "two"}, Err: errors.New("x")}
	want := "s: step tools/list failed (timeout): no answer\n  server stderr (last 2 lines):\n    | one\n    | two"
	if err.Error() != want {
		t.Errorf("got\n%s\nwant\n%s", err.Error(), want)
	}
	empty := &StepError{Step: StepInitialize, Failure: FailExited, Stderr: []string{}}
	if got := empty.Error(); got != "step initialize failed (exited)\n  server stderr: (empty)" {
		t.Errorf("empty stderr: %q", got)
	}
	none := &StepError{Step: StepStart, Failure: FailLaunch, Detail: "no such file"}
	if got := none.Error(); got != "step start failed (launch): no such file" {
		t.Errorf("no process: %q", got)
	}
	if !errors.Is(fmt.Errorf("wrapped: %w", err), err.Err) {
		t.Error("StepError does not unwrap to its cause")
	}
}

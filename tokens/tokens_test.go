package tokens

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func mustTiktoken(t testing.TB, name string) *Tiktoken {
	t.Helper()
	tk, err := NewTiktoken(name)
	if err != nil {
		t.Fatalf("NewTiktoken(%q): %v", name, err)
	}
	return tk
}

func TestTiktokenKnownIDs(t *testing.T) {
	// Token IDs published with the encodings' reference implementation.
	tests := []struct {
		enc  string
		text string
		want []int
	}{
		{"cl100k_base", "hello world", []int{15339, 1917}},
		{"o200k_base", "hello world", []int{24912, 2375}},
	}
	for _, tc := range tests {
		t.Run(tc.enc, func(t *testing.T) {
			tk := mustTiktoken(t, tc.enc)
			ref, err := NewReference(tc.enc)
			if err != nil {
				t.Fatal(err)
			}
			got := ref.enc.EncodeOrdinary(tc.text)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ids (-want +got):\n%s", diff)
			}
			if n := tk.Count([]byte(tc.text)); n != int64(len(tc.want)) {
				t.Errorf("Count = %d, want %d", n, len(tc.want))
			}
		})
	}
}

func TestTiktokenCounts(t *testing.T) {
	tests := []struct {
		name string
		enc  string
		in   string
		min  int64
		max  int64
	}{
		{"empty", "o200k_base", "", 0, 0},
		{"special marker counted as text", "o200k_base", "<|endoftext|>", 2, 10},
		{"invalid utf8 does not panic", "cl100k_base", "\xff\xfe\xfd", 1, 6},
		{"json", "o200k_base", `{"name":"read_file","description":"Read a file"}`, 8, 20},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := mustTiktoken(t, tc.enc).Count([]byte(tc.in))
			if n < tc.min || n > tc.max {
				t.Errorf("Count(%q) = %d, want in [%d, %d]", tc.in, n, tc.min, tc.max)
			}
		})
	}
}

func TestNewTiktokenUnknown(t *testing.T) {
	if _, err := NewTiktoken("p99k"); err == nil {
		t.Fatal("want error for unknown encoding")
	}
}

func TestTiktokenSharedEncoder(t *testing.T) {
	a := mustTiktoken(t, "o200k_base")
	b := mustTiktoken(t, "o200k_base")
	if a.enc != b.enc {
		t.Error("two counters of one encoding should share the loaded encoder")
	}
}

func TestTiktokenConcurrent(t *testing.T) {
	tk := mustTiktoken(t, "cl100k_base")
	text := []byte(strings.Repeat(`{"type":"string","description":"a path"} `, 50))
	want := tk.Count(text)
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got := tk.Count(text); got != want {
				errs <- fmt.Sprintf("got %d want %d", got, want)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

const offlineChildEnv = "DEFERSIM_TOKENS_OFFLINE_CHILD"

// TestOfflineLoaderNeverFetches runs the encoder load in a fresh process
// (so no encoder is cached yet) with every proxy pointing at a closed port
// and an empty tiktoken cache directory: any attempt to download a rank file
// would fail, so success proves the load is offline.
func TestOfflineLoaderNeverFetches(t *testing.T) {
	if os.Getenv(offlineChildEnv) == "1" {
		for _, enc := range Encodings {
			tk, err := NewTiktoken(enc)
			if err != nil {
				fmt.Fprintln(os.Stderr, "load:", err)
				os.Exit(3)
			}
			ref, err := NewReference(enc)
			if err != nil {
				fmt.Fprintln(os.Stderr, "load reference:", err)
				os.Exit(3)
			}
			if tk.Count([]byte("hello world")) != 2 || ref.Count([]byte("hello world")) != 2 {
				fmt.Fprintln(os.Stderr, "bad count")
				os.Exit(4)
			}
		}
		return
	}
	if testing.Short() {
		t.Skip("spawns a child process")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestOfflineLoaderNeverFetches$", "-test.count=1")
	bad := "http://127.0.0.1:1"
	cmd.Env = append(os.Environ(),
		offlineChildEnv+"=1",
		"HTTP_PROXY="+bad, "HTTPS_PROXY="+bad, "http_proxy="+bad, "https_proxy="+bad,
		"NO_PROXY=", "no_proxy=",
		"TIKTOKEN_CACHE_DIR="+t.TempDir(), "DATA_GYM_CACHE_DIR="+t.TempDir(),
	)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("offline load in child failed: %v\n%s", err, out)
	}
}

func TestOfflineLoaderRefusesUnknownFile(t *testing.T) {
	l := offlineLoader{inner: failingLoader{}}
	if _, err := l.LoadTiktokenBpe("https://example.invalid/encodings/x99k.tiktoken"); err == nil {
		t.Fatal("want error for a rank file that is not embedded")
	}
}

type failingLoader struct{}

func (failingLoader) LoadTiktokenBpe(string) (map[string]int, error) {
	return nil, fmt.Errorf("must not be called")
}

func TestEstimator(t *testing.T) {
	tests := []struct {
		ratio    float64
		in       string
		want     int64
		wantName string
	}{
		{3.5, "", 0, "bytes/3.5"},
		{3.5, "a", 1, "bytes/3.5"},
		{3.5, "1234567", 2, "bytes/3.5"},
		{3.5, "12345678", 3, "bytes/3.5"},
		{4, "12345678", 2, "bytes/4"},
		{0, "1234567", 2, "bytes/3.5"},
		{-1, "1234567", 2, "bytes/3.5"},
	}
	for _, tc := range tests {
		e := NewEstimator(tc.ratio)
		if got := e.Count([]byte(tc.in)); got != tc.want {
			t.Errorf("NewEstimator(%v).Count(%q) = %d, want %d", tc.ratio, tc.in, got, tc.want)
		}
		if e.Name() != tc.wantName {
			t.Errorf("Name = %q, want %q", e.Name(), tc.wantName)
		}
	}
}

func TestByName(t *testing.T) {
	tests := []struct {
		in      string
		want    string
		wantErr bool
	}{
		{"o200k_base", "o200k_base", false},
		{"cl100k_base", "cl100k_base", false},
		{"bytes/3.5", "bytes/3.5", false},
		{"bytes/4", "bytes/4", false},
		{" bytes/2.75 ", "bytes/2.75", false},
		{"bytes/0", "", true},
		{"bytes/-2", "", true},
		{"bytes/x", "", true},
		{"bytes/NaN", "", true},
		{"gpt2", "", true},
		{"", "", true},
	}
	for _, tc := range tests {
		c, err := ByName(tc.in)
		if (err != nil) != tc.wantErr {
			t.Errorf("ByName(%q) err = %v, wantErr %v", tc.in, err, tc.wantErr)
			continue
		}
		if err == nil && c.Name() != tc.want {
			t.Errorf("ByName(%q).Name() = %q, want %q", tc.in, c.Name(), tc.want)
		}
	}
}

func TestParseList(t *testing.T) {
	cs, err := ParseList("o200k_base, bytes/3.5")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range cs {
		names = append(names, c.Name())
	}
	if diff := cmp.Diff([]string{"o200k_base", "bytes/3.5"}, names); diff != "" {
		t.Error(diff)
	}
	for _, bad := range []string{"", ",", "bytes/3.5,bytes/3.5", "o200k_base,nope"} {
		if _, err := ParseList(bad); err == nil {
			t.Errorf("ParseList(%q): want error", bad)
		}
	}
}

// countingCounter counts calls, to observe memoisation.
type countingCounter struct {
	mu    sync.Mutex
	calls int
}

func (c *countingCounter) Name() string { return "len" }
func (c *countingCounter) Count(b []byte) int64 {
	c.mu.Lock()
	c.calls++
	c.mu.Unlock()
	return int64(len(b))
}

func TestMemo(t *testing.T) {
	inner := &countingCounter{}
	m := NewMemo(inner)
	inputs := []string{"abc", "abcd", "abc", "", "abcd", "abc"}
	for _, in := range inputs {
		if got := m.Count([]byte(in)); got != int64(len(in)) {
			t.Errorf("Count(%q) = %d", in, got)
		}
	}
	want := MemoStats{Hits: 3, Misses: 3, Entries: 3}
	if diff := cmp.Diff(want, m.Stats()); diff != "" {
		t.Errorf("stats (-want +got):\n%s", diff)
	}
	if inner.calls != 3 {
		t.Errorf("inner calls = %d, want 3", inner.calls)
	}
	if m.Name() != "len" {
		t.Errorf("Name = %q", m.Name())
	}
}

func TestMemoConcurrent(t *testing.T) {
	m := NewMemo(NewEstimator(3.5))
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				b := []byte(strings.Repeat("x", (i+g)%50))
				if got, want := m.Count(b), NewEstimator(3.5).Count(b); got != want {
					t.Errorf("got %d want %d", got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
	st := m.Stats()
	if st.Hits+st.Misses != 800 {
		t.Errorf("hits+misses = %d, want 800", st.Hits+st.Misses)
	}
	if st.Entries != 50 {
		t.Errorf("entries = %d, want 50", st.Entries)
	}
}

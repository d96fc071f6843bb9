package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/internal/sharedtexts"
	"github.com/defersim/defersim/tokens"
)

// runTokens runs `defersim tokens args...` with stdin and returns its
// output and error.
func runTokens(stdin []byte, args ...string) (string, error) {
	root := newRootCmd()
	var out bytes.Buffer
	root.SetIn(bytes.NewReader(stdin))
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(append([]string{"tokens"}, args...))
	err := root.Execute()
	return out.String(), err
}

func refCount(t *testing.T, enc, text string) int64 {
	t.Helper()
	ref, err := tokens.NewReference(enc)
	if err != nil {
		t.Fatal(err)
	}
	return ref.Count([]byte(text))
}

func TestTokensCmd(t *testing.T) {
	text := "{\"name\":\"read_file\",\"description\":\"Read a file — 日本語 ═══ 1234567890\"}\n" + strings.Repeat("─", 400)
	file := filepath.Join(t.TempDir(), "schema.json")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, enc := range []string{"o200k_base", "cl100k_base"} {
		want := strconv.FormatInt(refCount(t, enc, text), 10) + "\n"
		for _, arg := range []string{file, "-"} {
			out, err := runTokens([]byte(text), "--encoding", enc, arg)
			if err != nil || out != want {
				t.Errorf("%s %s: %q, %v; tiktoken-go %q", enc, arg, out, err, want)
			}
		}
	}
	if out, err := runTokens([]byte(text), file); err != nil || out != strconv.FormatInt(refCount(t, "o200k_base", text), 10)+"\n" {
		t.Errorf("default encoding: %q, %v", out, err)
	}
	if out, err := runTokens([]byte("1234567"), "--encoding", "bytes/3.5", "-"); err != nil || out != "2\n" {
		t.Errorf("bytes/3.5 of 7 bytes: %q, %v", out, err)
	}
	if out, err := runTokens(nil, "-"); err != nil || out != "0\n" {
		t.Errorf("empty input: %q, %v", out, err)
	}
	want := fmt.Sprintf(`{"input":"<stdin>","encoding":"cl100k_base","bytes":%d,"tokens":%d}`, len(text), refCount(t, "cl100k_base", text))
	if out, err := runTokens([]byte(text), "--format", "json", "--encoding", "cl100k_base", "-"); err != nil || strings.Join(strings.Fields(out), "") != strings.Join(strings.Fields(want), "") {
		t.Errorf("--format json: %q, %v; want %s", out, err, want)
	}
	outFile := filepath.Join(t.TempDir(), "n.txt")
	if _, err := runTokens([]byte("hello world"), "-o", outFile, "-"); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(outFile); err != nil || string(b) != "2\n" {
		t.Errorf("-o FILE: %q, %v", b, err)
	}
	for _, bad := range [][]string{{}, {"a", "b"}, {"--encoding", "p50k_base", "-"}, {filepath.Join(t.TempDir(), "missing")}} {
		if _, err := runTokens(nil, bad...); err == nil {
			t.Errorf("tokens %v: no error", bad)
		}
	}
}

// TestTokensCmdAgreesWithTiktoken runs `defersim tokens -` on the texts of
// ../shared/data (sharedtexts.Collect) in both encodings and compares each
// output with tiktoken-go's Encode of the whole text. By default every
// 32nd text up to 128 KB; with DEFERSIM_TOKENS_FULL=1 every text, and
// every file also by its path:
//
//	DEFERSIM_TOKENS_FULL=1 go test ./cmd/defersim -run TestTokensCmdAgreesWithTiktoken -v -timeout 1h
func TestTokensCmdAgreesWithTiktoken(t *testing.T) {
	dir := shareddata.Dir(t)
	set, err := sharedtexts.Collect(dir)
	if err != nil {
		t.Fatal(err)
	}
	mode := sharedtexts.ModeFromEnv(false, sharedtexts.Sparse)
	if testing.Short() && mode != sharedtexts.Full {
		t.Skip("compares tiktoken-go on thousands of texts")
	}
	picked := set.Pick(mode)
	for _, enc := range tokens.Encodings {
		ref, err := tokens.NewReference(enc)
		if err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		bad := 0
		check := func(label, text string, args ...string) {
			want := strconv.FormatInt(ref.Count([]byte(text)), 10) + "\n"
			out, err := runTokens([]byte(text), append([]string{"--encoding", enc}, args...)...)
			if err != nil || out != want {
				mu.Lock()
				bad++
				t.Errorf("%s %s: defersim tokens printed %q (%v), tiktoken-go %q", enc, label, out, err, want)
				mu.Unlock()
			}
		}
		forEachText(picked, func(s string) { check(set.Origin[s], s, "-") })
		files := 0
		if mode == sharedtexts.Full {
			err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				b, err := os.ReadFile(path)
				if err != nil {
					return err
				}
				files++
				check(path, string(b), path)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("%s: %d of %d texts on stdin, %d files by path, %d disagreements", enc, len(picked), len(set.Texts), files, bad)
	}
}

// forEachText calls f on every text from two goroutines.
func forEachText(texts []string, f func(string)) {
	var wg sync.WaitGroup
	ch := make(chan string)
	for range 2 {
		wg.Go(func() {
			for s := range ch {
				f(s)
			}
		})
	}
	for _, s := range texts {
		ch <- s
	}
	close(ch)
	wg.Wait()
}

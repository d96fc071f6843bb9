package tokens_test

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/internal/sharedtexts"
	"github.com/defersim/defersim/tokens"
)

// TestCountMatchesReferenceOnSharedData compares Tiktoken with tiktoken-go's
// Encode on the texts under ../shared/data (sharedtexts.Collect: every
// file, every JSON string and key, every CSV cell, every catalog tool's
// wire forms), each counted whole, in both encodings. tiktoken-go takes
// minutes on all of them, so by default it compares every text of up to
// 8 KB and every 8th longer one up to 128 KB (with -short, every 8th text
// up to 128 KB); with DEFERSIM_TOKENS_FULL=1 it compares every text,
// whatever its length:
//
//	DEFERSIM_TOKENS_FULL=1 go test ./tokens -run TestCountMatchesReferenceOnSharedData -v -timeout 1h
//
// Any difference fails the test with the text's origin. The counter this
// replaced, which cut runs of over 256 bytes without a word break, differed
// on 21 texts (o200k_base) and 20 (cl100k_base) of the full set.
func TestCountMatchesReferenceOnSharedData(t *testing.T) {
	dir := shareddata.Dir(t)
	start := time.Now()
	set, err := sharedtexts.Collect(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range set.Undecoded {
		t.Logf("strings not read: %s", u)
	}
	t.Logf("collected %d texts from %d files in %v", len(set.Texts), set.Files, time.Since(start).Round(time.Millisecond))
	mode := sharedtexts.ModeFromEnv(testing.Short(), sharedtexts.Default)
	picked := set.Pick(mode)
	var totalBytes int
	for _, s := range picked {
		totalBytes += len(s)
	}
	for _, enc := range tokens.Encodings {
		fast, err := tokens.NewTiktoken(enc)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := tokens.NewReference(enc)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		var mismatches atomic.Int64
		var mu sync.Mutex
		forEach(picked, func(s string) {
			if got, want := fast.Count([]byte(s)), ref.Count([]byte(s)); got != want {
				mismatches.Add(1)
				mu.Lock()
				t.Errorf("%s %s (%d bytes, %.40q): %d tokens, tiktoken-go %d", enc, set.Origin[s], len(s), s, got, want)
				mu.Unlock()
			}
		})
		t.Logf("%s: %d of %d distinct texts (%d bytes), %d mismatches, %v",
			enc, len(picked), len(set.Texts), totalBytes, mismatches.Load(), time.Since(start).Round(time.Second))
	}
	if mode != sharedtexts.Full {
		t.Logf("a subset: set %s=1 to compare all %d texts", sharedtexts.FullEnv, len(set.Texts))
	}
}

// forEach calls f on every text, on all cores (texts come longest first,
// so the slowest start early).
func forEach(texts []string, f func(string)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(texts) {
					return
				}
				f(texts[i])
			}
		})
	}
	wg.Wait()
}

package tokens

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/bounded"
)

// longRuns are texts that pre-tokenise into one long piece (or few), the
// inputs a forced cut used to over-count: digits, CJK, box drawing, one
// letter, punctuation, mixed scripts.
var longRuns = []string{"a", "ab", "=", "─", "━┃", "日本語", "中文字符", "€", "é", "👍", "1234567890", "{}", "\"}]", "Ab", "ʰ", "\xff"}

// TestHeapMergeMatchesScan pins heapTokens to the pair-by-pair scan, the
// merge tiktoken-go runs, on pieces of every length up to 2 KB: runs of
// the longRuns and random bytes drawn from them.
func TestHeapMergeMatchesScan(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, enc := range Encodings {
		tk := mustTiktoken(t, enc)
		for _, unit := range longRuns {
			for _, n := range []int{1, 2, 3, 7, 31, 64, 65, 200, 513, 2048} {
				p := strings.Repeat(unit, n/len(unit)+1)[:n]
				if got, want := tk.enc.heapTokens(p), tk.enc.scanTokens(p); got != want {
					t.Errorf("%s %q × %d: heap %d tokens, scan %d", enc, unit, n, got, want)
				}
			}
		}
		for range 300 {
			var sb strings.Builder
			for range r.IntN(400) {
				u := longRuns[r.IntN(len(longRuns))]
				sb.WriteString(u[:1+r.IntN(len(u))])
			}
			p := sb.String()
			if got, want := tk.enc.heapTokens(p), tk.enc.scanTokens(p); got != want {
				t.Fatalf("%s %q: heap %d tokens, scan %d", enc, p, got, want)
			}
		}
	}
}

// TestCountLongRunsIsExact pins the fix for two bugs. First (a hang the
// hostile-input work found): byte-pair merging is quadratic in the length
// of one piece, so 1 MB of one letter took hours. Second (issue 16): the
// cure for the first cut long runs every 256 bytes, which over-counted runs
// of digits, CJK and box drawing by up to 24 tokens. Counts are now exact
// on whole texts of any length and take O(n log n) time: a 4 KB run
// equals tiktoken-go's count (larger would be slow: tiktoken-go is
// quadratic in it), and a 1 MB run is counted within bounded's deadline
// and memory bound.
func TestCountLongRunsIsExact(t *testing.T) {
	for _, enc := range Encodings {
		tk := mustTiktoken(t, enc)
		ref, err := NewReference(enc)
		if err != nil {
			t.Fatal(err)
		}
		for _, unit := range longRuns {
			s := strings.Repeat(unit, (4<<10)/len(unit))
			if got, want := tk.Count([]byte(s)), ref.Count([]byte(s)); got != want {
				t.Errorf("%s %q × %d: %d tokens, tiktoken-go %d", enc, unit, len(s)/len(unit), got, want)
			}
			if !slices.Contains([]string{"a", "─", "日本語", "{}"}, unit) {
				continue // the bounded runs take a second each
			}
			big := []byte(strings.Repeat(unit, (1<<20)/len(unit)))
			var n int64
			bounded.Run(t, bounded.For(int64(len(big))), func() error {
				n = tk.Count(big)
				return nil
			})
			if n <= 0 || n > int64(len(big)) {
				t.Errorf("%s %q × %d: %d tokens", enc, unit, len(big)/len(unit), n)
			}
		}
	}
}

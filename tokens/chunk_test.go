package tokens

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/bounded"
	"github.com/defersim/defersim/internal/shareddata"
)

// proseAndJSON returns realistic long texts: prose with punctuation, numbers
// and newlines, and the compact JSON of a large tool list.
func proseAndJSON() map[string]string {
	words := []string{"the", "Read", "file", "from", "disk,", "return", "its", "contents.", "42", "3.14",
		"naïve", "café", "日本語", "(optional)", "user's", "don't", "e-mail:", "https://example.com/a/b?c=d", "\t", "—", "\"quoted\""}
	r := rand.New(rand.NewPCG(1, 2))
	var prose strings.Builder
	for i := range 6000 {
		if i > 0 {
			switch r.IntN(12) {
			case 0:
				prose.WriteString("\n")
			case 1:
				prose.WriteString("\n\n")
			case 2:
				prose.WriteString("  ")
			default:
				prose.WriteString(" ")
			}
		}
		prose.WriteString(words[r.IntN(len(words))])
	}
	var tools []map[string]any
	for i := range 300 {
		tools = append(tools, map[string]any{"name": fmt.Sprintf("tool_%d", i), "description": "Does thing number " + fmt.Sprint(i) + " for the user; see the docs.",
			"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string", "description": "A path."}}}})
	}
	js, _ := json.Marshal(map[string]any{"tools": tools})
	indented, _ := json.MarshalIndent(map[string]any{"tools": tools[:100]}, "", "  ")
	return map[string]string{"prose": prose.String(), "compact json": string(js), "indented json": string(indented)}
}

// TestChunkedCountIsExact pins that counting a long text in chunks gives the
// same count as encoding it whole, whenever it has no run of more than
// maxRun bytes without a word break (real text and schemas).
func TestChunkedCountIsExact(t *testing.T) {
	texts := proseAndJSON()
	if dir := shareddata.Find(); dir != "" { // the real catalogs too, when present
		files, _ := filepath.Glob(filepath.Join(dir, "catalogs", "*.json"))
		for i, f := range files {
			if i%6 != 0 { // a sample keeps the test short
				continue
			}
			if b, err := os.ReadFile(f); err == nil && len(b) > chunkBytes {
				texts[filepath.Base(f)] = string(b)
			}
		}
	}
	for _, enc := range Encodings {
		tk := mustTiktoken(t, enc)
		for name, s := range texts {
			if len(s) <= chunkBytes {
				t.Fatalf("%s is too short (%d bytes) to be chunked", name, len(s))
			}
			whole := int64(tk.enc.count(s))
			if got := tk.Count([]byte(s)); got != whole {
				t.Errorf("%s %s: chunked count %d, whole %d", enc, name, got, whole)
			}
		}
	}
}

// TestCountLongRunsIsLinear pins the fix for a hang the hostile-input work
// found: byte-pair merging is quadratic in the length of one piece, so
// counting 1 MB of one letter (a padded field, base64 of zeros) took hours;
// 256 KB took minutes, over bounded's deadline.
// Long runs are now cut every maxRun bytes; the count stays close.
func TestCountLongRunsIsLinear(t *testing.T) {
	tk := mustTiktoken(t, "o200k_base")
	for _, run := range []string{"a", " ", "=", "€", "ab"} {
		s := strings.Repeat(run, (256<<10)/len(run))
		var n int64
		bounded.Run(t, bounded.For(int64(len(s))), func() error {
			n = tk.Count([]byte(s))
			return nil
		})
		// The whole count of a shorter run, scaled, bounds the error.
		short := strings.Repeat(run, 4*maxRun/len(run))
		per := float64(tk.enc.count(short)) / float64(len(short))
		want := per * float64(len(s))
		if float64(n) < 0.9*want || float64(n) > 1.5*want+8 {
			t.Errorf("%q × %d: %d tokens, want about %.0f", run, len(s)/len(run), n, want)
		}
	}
}

func TestChunksCoverInput(t *testing.T) {
	for _, s := range []string{"", "a", strings.Repeat("é", 300), "x\n" + strings.Repeat("word ", 2000), strings.Repeat("\xff", 700)} {
		var got strings.Builder
		longest := 0
		chunks([]byte(s), func(c []byte) {
			got.Write(c)
			longest = max(longest, len(c))
		})
		if got.String() != s {
			t.Errorf("chunks of %q… do not add up to the input", s[:min(len(s), 10)])
		}
		if longest > chunkBytes+maxRun {
			t.Errorf("a chunk of %d bytes", longest)
		}
	}
}

// FuzzBoundary checks the claim chunks rests on: splitting a text at a
// position isBoundary accepts never changes its token count, in either
// encoding.
func FuzzBoundary(f *testing.F) {
	for _, s := range []string{"hello world", `{"type":"object","properties":{"a1":{"type":"string"}}}`, "it's 2026\nyes: 12,345.6 items",
		"x = y + 3 /* c */\n\tz", "naïve café 日本 42abc abc42 'quoted' \"dq\" a\n/b", "  spaced   out  ", "<|endoftext|> don't"} {
		f.Add(s)
	}
	enc := map[string]*Tiktoken{}
	for _, e := range Encodings {
		enc[e] = mustTiktoken(f, e)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 512 {
			return
		}
		b := []byte(s)
		for name, tk := range enc {
			whole := tk.enc.count(s)
			for i := 1; i < len(b); i++ {
				if !isBoundary(b, i) {
					continue
				}
				if parts := tk.enc.count(s[:i]) + tk.enc.count(s[i:]); parts != whole {
					t.Fatalf("%s: splitting %q at %d gives %d tokens, whole %d", name, s, i, parts, whole)
				}
			}
		}
	})
}

// TestBoundaryTableMatchesDefinition checks boundaryAt against isBoundary
// on every pair of bytes, followed by a space, a letter or nothing.
func TestBoundaryTableMatchesDefinition(t *testing.T) {
	for p := range 256 {
		for c := range 256 {
			for _, tail := range []string{"", " ", "x", "\n"} {
				b := append([]byte{byte(p), byte(c)}, tail...)
				if got, want := boundaryAt(b, 1), isBoundary(b, 1); got != want {
					t.Fatalf("%q at 1: boundaryAt %v, isBoundary %v", b, got, want)
				}
			}
		}
	}
}

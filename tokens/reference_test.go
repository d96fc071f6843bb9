package tokens

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
)

// edgeTexts exercise each alternative of the split patterns and the
// backtracking between them: contractions in both cases and next to
// capitals, marks and modifier letters around words, numbers of every
// length, non-ASCII spaces and line breaks, punctuation runs with slashes
// and line breaks after them, and invalid UTF-8.
var edgeTexts = []string{
	"", "a", " ", "\n", "'", "'s", "'S", "'re", "'RE", "'Re", "'rE", "'ll", "'LL", "'d", "'x", "'ſ", "'K",
	"don't", "DON'T", "I'd", "you'd", "SHE'D", "we'll", "It'S", "x'm", "I'm", "we'VE", "they'Re here", "it’s", "O'Neil's", "rock'n'roll",
	"HTTPServer", "getHTTPResponseCode", "camelCaseWord", "XMLHttpRequest2", "ALLCAPS", "Ǆemal ǅemal ǆemal",
	"e\u0301cole", "\u0301abc", "a\u0301\u0302B", "x\u0301", "\u0301", "\u0301\u0301", "ʰello", "ʰ", "Aʰ", "aʰB", "ʰA",
	"日本語のテキスト", "한국어 텍스트", "中文，标点。", "עברית", "العربية", "ไทย", "हिन्दी",
	"1", "12", "123", "1234", "12345678", "١٢٣٤", "Ⅻ", "½ ¾", "3.14159", "1,000,000", "v1.2.3-rc4",
	"a  b", "a   b", "a\tb", "a \n b", "a\n\nb", "a\r\nb", "a \r\n\r\n  b", "\u00a0x", "x\u00a0 y", "x\u2003y", "\u3000", "end  ", "  ",
	"\u0085next", "a\u2028b", "a\u2029b", "\v\f", " \n", "\n ", "\t\n\t",
	"!!!", " !!!", "...\n", "a/b/c", "//\n", " //\r\n/x", "://", " :)", "<|endoftext|>", "{\"a\":[1,2,3]}",
	"😀", "👍🏽 ok", "🇫🇷", "a😀b", " 😀", "\u200d", "a\u200db",
	"\xff", "\xfe\xfd", "a\xffb", "é\xc3", "\xe2\x82", "\xf0\x9f\x98", "\xed\xa0\x80",
	"mixed: Café naïve façade — “quotes” ‘single’ 'ascii' – dash",
}

// referenceTexts returns edgeTexts and, when the shared data is present,
// the text of real catalogs and sessions (a sample in -short mode).
func referenceTexts(t *testing.T) map[string]string {
	texts := map[string]string{}
	for i, s := range edgeTexts {
		texts["edge "+string(rune('A'+i%26))+strings.Repeat("'", i/26)] = s
	}
	for name, s := range proseAndJSON() {
		texts[name] = s
	}
	dir := shareddata.Find()
	if dir == "" {
		return texts
	}
	var files []string
	for _, pat := range []string{"catalogs/*.json", "retrieval/*/*", "sessions/*/*"} {
		m, _ := filepath.Glob(filepath.Join(dir, pat))
		files = append(files, m...)
	}
	sort.Strings(files)
	const maxBytes = 256 << 10 // per file: the reference is slow
	for i, f := range files {
		if testing.Short() && i%8 != 0 {
			continue
		}
		st, err := os.Stat(f)
		if err != nil || st.IsDir() {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		texts[filepath.Base(f)] = string(b[:min(len(b), maxBytes)])
	}
	return texts
}

// TestCountMatchesReference pins the hand-written pre-tokeniser and BPE to
// tiktoken-go: the same count for every text, in both encodings, on edge
// cases and on real catalogs and sessions.
func TestCountMatchesReference(t *testing.T) {
	texts := referenceTexts(t)
	names := make([]string, 0, len(texts))
	for n := range texts {
		names = append(names, n)
	}
	sort.Strings(names)
	var bytes int
	for _, enc := range Encodings {
		fast := mustTiktoken(t, enc)
		ref, err := NewReference(enc)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			s := texts[name]
			bytes += len(s)
			if got, want := fast.Count([]byte(s)), ref.Count([]byte(s)); got != want {
				t.Errorf("%s %s (%.40q): %d tokens, tiktoken-go %d", enc, name, s, got, want)
			}
			// Whole, without chunks: the pre-tokeniser alone.
			if len(s) <= 4096 {
				if got, want := fast.enc.count(s), len(ref.enc.EncodeOrdinary(s)); got != want {
					t.Errorf("%s %s whole (%.40q): %d tokens, tiktoken-go %d", enc, name, s, got, want)
				}
			}
		}
	}
	t.Logf("%d texts, %d bytes compared", len(texts)*len(Encodings), bytes)
}

// FuzzCountMatchesReference compares Tiktoken with tiktoken-go on arbitrary
// text in both encodings.
func FuzzCountMatchesReference(f *testing.F) {
	for _, s := range edgeTexts {
		f.Add(s)
	}
	type pair struct {
		fast *Tiktoken
		ref  *Reference
	}
	var encs []pair
	for _, e := range Encodings {
		ref, err := NewReference(e)
		if err != nil {
			f.Fatal(err)
		}
		encs = append(encs, pair{mustTiktoken(f, e), ref})
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 2048 {
			return
		}
		for _, p := range encs {
			if got, want := p.fast.enc.count(s), len(p.ref.enc.EncodeOrdinary(s)); got != want {
				t.Fatalf("%s %q: %d tokens, tiktoken-go %d", p.fast.name, s, got, want)
			}
		}
	})
}

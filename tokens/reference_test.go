package tokens

import (
	"sort"
	"strings"
	"testing"
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

// referenceTexts returns edgeTexts and long generated prose and JSON (the
// texts of ../shared/data are TestCountMatchesReferenceOnSharedData's).
func referenceTexts() map[string]string {
	texts := map[string]string{}
	for i, s := range edgeTexts {
		texts["edge "+string(rune('A'+i%26))+strings.Repeat("'", i/26)] = s
	}
	for name, s := range proseAndJSON() {
		texts[name] = s
	}
	return texts
}

// TestCountMatchesReference pins the hand-written pre-tokeniser and BPE to
// tiktoken-go: the same count for every text, in both encodings, on edge
// cases and long generated texts, each counted whole.
func TestCountMatchesReference(t *testing.T) {
	texts := referenceTexts()
	names := make([]string, 0, len(texts))
	for n := range texts {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, enc := range Encodings {
		fast := mustTiktoken(t, enc)
		ref, err := NewReference(enc)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			s := texts[name]
			if got, want := fast.Count([]byte(s)), ref.Count([]byte(s)); got != want {
				t.Errorf("%s %s (%.40q): %d tokens, tiktoken-go %d", enc, name, s, got, want)
			}
		}
	}
}

// FuzzCountMatchesReference compares Tiktoken with tiktoken-go on arbitrary
// text in both encodings.
func FuzzCountMatchesReference(f *testing.F) {
	for _, s := range edgeTexts {
		f.Add(s)
	}
	encs := fuzzPairs(f)
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 2048 {
			return
		}
		for _, p := range encs {
			if got, want := p.fast.Count([]byte(s)), p.ref.Count([]byte(s)); got != want {
				t.Fatalf("%s %q: %d tokens, tiktoken-go %d", p.fast.name, s, got, want)
			}
		}
	})
}

// FuzzCountLongMatchesReference compares Tiktoken with tiktoken-go on long
// texts: the input repeated to 2–3 KB (as counted), so that runs without a
// word break (digits, CJK, box drawing, punctuation) grow well past the
// 256 bytes at which the counter once cut them. (Longer would make
// tiktoken-go, quadratic in a piece's length, too slow for the fuzzer.)
func FuzzCountLongMatchesReference(f *testing.F) {
	for _, s := range append([]string{"1234567", "日本語のテキスト", "═╗║", `"}]},{"`, "ab", "x y"}, edgeTexts...) {
		f.Add(s)
	}
	encs := fuzzPairs(f)
	f.Fuzz(func(t *testing.T, s string) {
		if s == "" || len(s) > 1024 {
			return
		}
		// Repeat to about 2 KB as counted: an invalid byte is counted as
		// U+FFFD, three bytes.
		w := len(string([]rune(s)))
		long := strings.Repeat(s, (2048+w-1)/w)
		for _, p := range encs {
			if got, want := p.fast.Count([]byte(long)), p.ref.Count([]byte(long)); got != want {
				t.Fatalf("%s %q × %d: %d tokens, tiktoken-go %d", p.fast.name, s, len(long)/len(s), got, want)
			}
		}
	})
}

type fuzzPair struct {
	fast *Tiktoken
	ref  *Reference
}

func fuzzPairs(f *testing.F) []fuzzPair {
	var out []fuzzPair
	for _, e := range Encodings {
		ref, err := NewReference(e)
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, fuzzPair{mustTiktoken(f, e), ref})
	}
	return out
}

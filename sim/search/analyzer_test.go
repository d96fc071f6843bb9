package search

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestAnalyzer(t *testing.T) {
	def := DefaultAnalyzer()
	tests := []struct {
		a    Analyzer
		in   string
		want []string
	}{
		{Analyzer{}, "getIssue read_file", []string{"getissue", "read", "file"}},
		{Analyzer{SplitIdentifiers: true}, "getIssue HTMLParser v2Api base64 ResearchHelper", []string{"get", "issue", "html", "parser", "v2", "api", "base64", "research", "helper"}},
		{Analyzer{Stopwords: true}, "Find the files in the folder", []string{"find", "files", "folder"}},
		{Analyzer{Stem: true}, "searching adults Adult x86 Café", []string{"search", "adult", "adult", "x86", "café"}},
		{def, "Which tools list open Issues?", []string{"tool", "list", "open", "issu"}},
		{def, "新建文件夹", []string{"新", "建", "新建", "文", "建文", "件", "文件", "夹", "件夹"}},
		{def, "打开API文档", []string{"打", "开", "打开", "api", "文", "档", "文档"}},
		{def, "", nil},
	}
	for _, tc := range tests {
		if got := tc.a.Terms(tc.in); !cmp.Equal(got, tc.want) {
			t.Errorf("%+v.Terms(%q) = %q, want %q", tc.a, tc.in, got, tc.want)
		}
	}
}

// FuzzAnalyzer: any text analyses without panicking into non-empty,
// valid terms, the same ones twice, and the zero Analyzer is Tokenize.
func FuzzAnalyzer(f *testing.F) {
	for _, s := range []string{"getIssue", "HTMLParser_v2", "新建文件夹 ok", "\xff\xfeA", "ÀÉÎ stemming"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		terms := DefaultAnalyzer().Terms(s)
		for _, term := range terms {
			if term == "" || !utf8.ValidString(term) {
				t.Fatalf("bad term %q from %q", term, s)
			}
		}
		if again := DefaultAnalyzer().Terms(s); !cmp.Equal(terms, again) {
			t.Fatalf("not deterministic: %q then %q", terms, again)
		}
		if got, want := (Analyzer{}).Terms(s), Tokenize(s); strings.Join(got, "\x00") != strings.Join(want, "\x00") {
			t.Fatalf("zero Analyzer %q, Tokenize %q", got, want)
		}
	})
}

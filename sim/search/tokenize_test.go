package search

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestTokenize(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"  \t\n", nil},
		{"read_file", []string{"read", "file"}},
		{"API-get-user", []string{"api", "get", "user"}},
		{"getIssue", []string{"getissue"}}, // no camelCase split
		{"Take a SCREENSHOT!", []string{"take", "a", "screenshot"}},
		{"base64 v2.1", []string{"base64", "v2", "1"}},
		{"searching searches", []string{"searching", "searches"}}, // no stemming
		{"Ünïcödé Straße", []string{"ünïcödé", "straße"}},
		{"ΣΟΦΙΑ", []string{"σοφια"}},
		{"cafe\u0301 ok", []string{"cafe\u0301", "ok"}}, // combining mark stays in the word
		{"文件", []string{"文", "件", "文件"}},
		{"新建文件夹", []string{"新", "建", "新建", "文", "建文", "件", "文件", "夹", "件夹"}},
		{"打开API文档", []string{"打", "开", "打开", "api", "文", "档", "文档"}},
		{"中 文", []string{"中", "文"}}, // no bigram across a space
		{"ファイル", []string{"フ", "ァ", "ファ", "イ", "ァイ", "ル", "イル"}},
		{"파일 읽기", []string{"파", "일", "파일", "읽", "기", "읽기"}},
		{"a\xffb", []string{"a", "b"}}, // invalid UTF-8 separates
		{"x²", []string{"x²"}},         // ² is a number (No)
	}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.want, Tokenize(tc.in)); diff != "" {
			t.Errorf("Tokenize(%q) mismatch (-want +got):\n%s", tc.in, diff)
		}
	}
}

func FuzzTokenize(f *testing.F) {
	for _, s := range []string{"read_file", "getIssue v2", "新建文件夹", "파일 읽기", "a\xffb", "Straße ΣΟΦΙΑ", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		toks := Tokenize(s)
		for _, tok := range toks {
			if tok == "" {
				t.Fatalf("empty token from %q", s)
			}
			if !utf8.ValidString(tok) {
				t.Fatalf("invalid UTF-8 token %q from %q", tok, s)
			}
			n := utf8.RuneCountInString(tok)
			first, _ := utf8.DecodeRuneInString(tok)
			if isCJK(first) {
				if n > 2 {
					t.Fatalf("CJK token %q longer than a bigram", tok)
				}
				for _, r := range tok {
					if !isCJK(r) {
						t.Fatalf("mixed CJK token %q", tok)
					}
				}
				continue
			}
			for _, r := range tok {
				if !isWord(r) || isCJK(r) {
					t.Fatalf("token %q holds separator %q (input %q)", tok, r, s)
				}
				if unicode.ToLower(r) != r {
					t.Fatalf("token %q is not lower-case", tok)
				}
			}
		}
		// Lower-casing the input first changes nothing (for inputs whose
		// lower-casing maps rune for rune).
		if lower := strings.Map(unicode.ToLower, s); utf8.ValidString(s) {
			if diff := cmp.Diff(toks, Tokenize(lower)); diff != "" {
				t.Fatalf("Tokenize not case-insensitive on %q:\n%s", s, diff)
			}
		}
		// Re-tokenising the words joined by spaces gives the same words
		// (CJK runs are rebuilt from their unigrams).
		var words []string
		for _, tok := range toks {
			if r, _ := utf8.DecodeRuneInString(tok); !isCJK(r) {
				words = append(words, tok)
			}
		}
		if diff := cmp.Diff(words, Tokenize(strings.Join(words, " "))); diff != "" {
			t.Fatalf("words not stable on %q:\n%s", s, diff)
		}
	})
}

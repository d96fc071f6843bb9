package search

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/sim"
)

// The indexed rankers (Keyword's postings, Substring's one-text scan) must
// rank exactly as their definitions: these are the definitions, written as
// plainly as possible, and the tests compare the two on a real corpus.

// keywordByDefinition scores every document by the distinct query terms it
// holds, drops those missing a required term or scoring 0, and keeps the
// best n, ties in corpus order.
func keywordByDefinition(sets []map[string]bool, query string, n int) []int {
	var want, must []string
	seen := map[string]bool{}
	for _, f := range strings.Fields(query) {
		for _, t := range Tokenize(strings.TrimPrefix(f, "+")) {
			if !seen[t] {
				seen[t] = true
				want = append(want, t)
				if strings.HasPrefix(f, "+") {
					must = append(must, t)
				}
			}
		}
	}
	out := []int{}
	for best := len(want); best > 0; best-- {
		for i, set := range sets {
			s, ok := 0, true
			for _, t := range want {
				if set[t] {
					s++
				}
			}
			for _, t := range must {
				ok = ok && set[t]
			}
			if ok && s == best && len(out) < n {
				out = append(out, i)
			}
		}
	}
	return out
}

// substringByDefinition tests each document's lower-cased name and
// description.
func substringByDefinition(docs []sim.ToolDoc, query string, k int) []int {
	q := strings.ToLower(strings.TrimSpace(query))
	var out []int
	for i, d := range docs {
		if q != "" && len(out) < k && (strings.Contains(strings.ToLower(d.Name), q) || strings.Contains(strings.ToLower(d.Description), q)) {
			out = append(out, i)
		}
	}
	return out
}

// indexQueries returns queries drawn from the corpus: words, pieces of
// words, runs of words with required terms, text across fields, and
// queries holding the field separator.
func indexQueries(docs []sim.ToolDoc, n int) []string {
	r := rand.New(rand.NewPCG(9, 9))
	qs := []string{"", " ", "+", "+nothing", "file", "FILE", " file ", "\x00", "a\x00b", "e" + sep, "zzzz_no_such"}
	for range n {
		d := docs[r.IntN(len(docs))]
		words := strings.Fields(d.Description + " " + strings.ReplaceAll(d.Name, "_", " "))
		if len(words) == 0 {
			continue
		}
		w := words[r.IntN(len(words))]
		switch r.IntN(5) {
		case 0:
			qs = append(qs, w)
		case 1:
			i := r.IntN(len(w))
			qs = append(qs, w[i:min(len(w), i+1+r.IntN(6))])
		case 2:
			qs = append(qs, "+"+w+" "+words[r.IntN(len(words))]+" "+words[r.IntN(len(words))])
		case 3:
			qs = append(qs, strings.ToUpper(w)+" "+words[r.IntN(len(words))])
		default: // the end of a name and the start of its description
			qs = append(qs, d.Name[len(d.Name)/2:]+" "+d.Description[:min(len(d.Description), 4)])
		}
	}
	return qs
}

func TestIndexedRankersMatchDefinition(t *testing.T) {
	docs := loadGoldenCorpus(t)
	kw, sub := NewKeyword(docs), NewSubstring(docs)
	sets := make([]map[string]bool, len(docs))
	for i, d := range docs {
		sets[i] = map[string]bool{}
		for _, t := range DocTokens(nil, d, 1) {
			sets[i][t] = true
		}
	}
	queries := indexQueries(docs, 400)
	for _, q := range queries {
		for _, n := range []int{1, 5, len(docs)} {
			if d := cmp.Diff(keywordByDefinition(sets, q, n), kw.Rank(q, n)); d != "" {
				t.Errorf("Keyword.Rank(%q, %d) (-definition +got):\n%s", q, n, d)
			}
			if d := cmp.Diff(substringByDefinition(docs, q, n), sub.Rank(q, n)); d != "" {
				t.Errorf("Substring.Rank(%q, %d) (-definition +got):\n%s", q, n, d)
			}
		}
	}
	// Scratch space is reset between calls: the same query twice, after a
	// query with required terms, gives the same result.
	first := kw.Rank("read file", 10)
	kw.Rank("+read +missingterm file", 10)
	kw.Rank("+read file", 10)
	if d := cmp.Diff(first, kw.Rank("read file", 10)); d != "" {
		t.Errorf("Keyword.Rank depends on earlier calls (-first +again):\n%s", d)
	}
}

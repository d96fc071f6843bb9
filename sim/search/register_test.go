package search

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/defersim/defersim/sim"
	"github.com/google/go-cmp/cmp"
)

func TestRegister(t *testing.T) {
	r := sim.NewRegistry()
	if err := Register(r); err != nil {
		t.Fatal(err)
	}
	want := []string{"select", "bm25", "bm25-anthropic", "keyword", "regex", "substring"}
	if diff := cmp.Diff(want, r.SearchModes()); diff != "" {
		t.Errorf("modes mismatch (-want +got):\n%s", diff)
	}
	if err := Register(r); err == nil {
		t.Error("registering twice must fail")
	}
	tests := []struct {
		mode, query string
		want        []int
	}{
		{"bm25", "read file", []int{0, 1}},
		{"bm25-anthropic", "read file", []int{0, 1}},
		{"regex", "^read_", []int{0}},
		{"substring", "_file", []int{0, 1}},
	}
	for _, tc := range tests {
		f, ok := r.Ranker(tc.mode)
		if !ok {
			t.Fatalf("mode %s missing", tc.mode)
		}
		rk, err := f(fiveTools)
		if err != nil {
			t.Fatal(err)
		}
		if got := rk.Rank(tc.query, 8); !cmp.Equal(tc.want, got) {
			t.Errorf("%s: Rank(%q) = %v, want %v", tc.mode, tc.query, got, tc.want)
		}
	}
}

// syntheticCorpus builds n tools from a fixed vocabulary, deterministically.
func syntheticCorpus(n int) []sim.ToolDoc {
	rng := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields("read write list create delete update get set search find file directory " +
		"issue pull request branch commit page block comment user channel message browser click " +
		"type screenshot navigate process terminal config entity relation graph query database table " +
		"row column record event calendar email draft label folder upload download image video")
	phrase := func(k int) string {
		w := make([]string, k)
		for i := range w {
			w[i] = words[rng.IntN(len(words))]
		}
		return strings.Join(w, " ")
	}
	docs := make([]sim.ToolDoc, n)
	for i := range docs {
		docs[i] = sim.ToolDoc{
			Server:      fmt.Sprintf("server-%d", i%12),
			Name:        strings.ReplaceAll(phrase(2), " ", "_") + fmt.Sprintf("_%d", i),
			Description: phrase(12 + rng.IntN(30)),
			Schema: []byte(fmt.Sprintf(`{"type":"object","properties":{"%s":{"type":"string","description":"%s"},"%s":{"type":"integer","description":"%s"}}}`,
				words[rng.IntN(len(words))], phrase(6), words[rng.IntN(len(words))]+"_id", phrase(5))),
		}
	}
	return docs
}

// TestConcurrentRank runs every mode from several goroutines at once and
// checks each gets the single-threaded answer (run with -race).
func TestConcurrentRank(t *testing.T) {
	docs := syntheticCorpus(300)
	queries := []string{"create pull request", "browser screenshot", "delete calendar event", "zzz", "upl", "search"}
	for name, f := range Factories() {
		rk, err := f(docs)
		if err != nil {
			t.Fatal(err)
		}
		want := make([][]int, len(queries))
		for i, q := range queries {
			want[i] = rk.Rank(q, 8)
		}
		var wg sync.WaitGroup
		errs := make(chan string, 8*len(queries))
		for g := range 8 {
			wg.Go(func() {
				for rep := range 20 {
					i := (g + rep) % len(queries)
					if got := rk.Rank(queries[i], 8); !cmp.Equal(want[i], got) {
						errs <- fmt.Sprintf("%s: Rank(%q) = %v, want %v", name, queries[i], got, want[i])
						return
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Error(e)
		}
	}
}

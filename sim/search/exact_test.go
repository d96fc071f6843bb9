package search

import (
	"testing"

	"github.com/defersim/defersim/sim"
	"github.com/google/go-cmp/cmp"
)

func TestExact(t *testing.T) {
	docs := append([]sim.ToolDoc{}, fiveTools...)
	docs = append(docs, sim.ToolDoc{Server: "fs2", Name: "read_file", Description: "a second server's read"})
	bm, err := NewBM25(docs, AnchorBM25())
	if err != nil {
		t.Fatal(err)
	}
	x := NewExact(docs, bm)
	tests := []struct {
		query string
		k     int
		want  []int
	}{
		{"select:fetch,list_dir", 8, []int{3, 2}},         // order named
		{"select: search , fetch,search", 8, []int{4, 3}}, // trimmed, repeats ignored
		{"select:read_file", 8, []int{0, 5}},              // both servers
		{"select:read_file,fetch", 1, []int{0}},
		{"select:nope", 8, nil},
		{"select:", 8, nil},
		{"fetch", 8, []int{3}},       // bare exact name (BM25 would also rank it)
		{"  list_dir ", 8, []int{2}}, // trimmed
		{"LIST_DIR", 8, []int{2}},    // not exact (case differs): BM25 finds it anyway
		{"list", 8, []int{2}},        // BM25
		{"read_file", 1, []int{0}},
		{"fetch", 0, nil},
	}
	for _, tc := range tests {
		if got := x.Rank(tc.query, tc.k); !cmp.Equal(tc.want, got) {
			t.Errorf("Rank(%q, %d) = %v, want %v", tc.query, tc.k, got, tc.want)
		}
	}
	// The bare-name path returns a copy: callers may keep or change it.
	got := x.Rank("read_file", 8)
	got[0] = 99
	if again := x.Rank("read_file", 8); again[0] != 0 {
		t.Errorf("Rank result aliases the index: %v", again)
	}
}

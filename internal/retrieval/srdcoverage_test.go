package retrieval

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/defersim/defersim/sim/search"
	"github.com/defersim/defersim/srd/routed"
	"github.com/defersim/defersim/tokens"
)

// TestHeaderSaysServersWithoutSRD pins that srd eval's header says how
// many of the corpus's servers the SRDs describe and names those they do
// not: with SRDs for two of the tiny corpus's three servers it said
// "3 domains (2 SRDs)", as if every server had been routed by one. With
// every server described, or no SRD at all, it says nothing more.
func TestHeaderSaysServersWithoutSRD(t *testing.T) {
	all := filepath.Join("testdata", "eval", "srd")
	two := t.TempDir()
	for _, f := range []string{"chat.yaml", "notes.yaml"} {
		data, err := os.ReadFile(filepath.Join(all, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(two, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name    string
		srd     string
		without []string
		header  string // in the subtitle; "" = no note
	}{
		{"two of three", two, []string{"shell-app"},
			"(2 SRDs; they describe 2 of the corpus's 3 servers, not shell-app, each a domain of its own)"},
		{"all three", all, nil, "(3 SRDs)"},
		{"none", SRDNone, nil, "(0 SRDs)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, cat := tinySet(t)
			srds, err := LoadSRDs(tc.srd, s, cat)
			if err != nil {
				t.Fatal(err)
			}
			arms, err := Arms([]string{"bm25"}, search.Factories(), srds, routed.DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			opt := DefaultEvalOptions()
			opt.Resamples, opt.Counter, opt.Domains = 20, tokens.NewEstimator(4), srds
			res, err := Evaluate(s, arms, opt)
			if err != nil {
				t.Fatal(err)
			}
			if res.Servers != 3 || !slices.Equal(res.ServersWithoutSRD, tc.without) {
				t.Errorf("servers %d, without SRD %v; want 3, %v", res.Servers, res.ServersWithoutSRD, tc.without)
			}
			if sub := res.Subtitle(); !strings.Contains(sub, tc.header) {
				t.Errorf("subtitle %q lacks %q", sub, tc.header)
			}
		})
	}
}

// TestCapJoinN pins how a header names servers: the first n, then how
// many more.
func TestCapJoinN(t *testing.T) {
	tests := []struct {
		items []string
		n     int
		want  string
	}{
		{[]string{"a"}, 3, "a"},
		{[]string{"a", "b", "c"}, 3, "a, b, c"},
		{[]string{"a", "b", "c", "d", "e"}, 3, "a, b, c, … and 2 more"},
	}
	for _, tc := range tests {
		if got := capJoinN(tc.items, ", ", tc.n); got != tc.want {
			t.Errorf("capJoinN(%v, %d) = %q, want %q", tc.items, tc.n, got, tc.want)
		}
	}
}

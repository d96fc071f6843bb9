package retrieval

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/retrieval/hardsets"
	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/sim/search"
	"github.com/defersim/defersim/srd"
	"github.com/defersim/defersim/srd/routed"
	"github.com/defersim/defersim/tokens"
)

func realSources(t *testing.T) Sources {
	t.Helper()
	return Sources{Data: shareddata.Dir(t)}
}

func TestRealSetsLoad(t *testing.T) {
	src := realSources(t)
	tests := []struct {
		name           string
		queries, tools int
		srds           int
	}{
		{SetMetaTool, 20614, 199, 31},
		{SetMetaToolMulti, 497, 199, 31},
		{SetBFCL, 1053, 1073, 0},
		{SetMCPBench, 98, 141, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := LoadNamed(tc.name, src, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Queries) != tc.queries || len(s.Tools) != tc.tools {
				t.Errorf("%d queries, %d tools; want %d, %d", len(s.Queries), len(s.Tools), tc.queries, tc.tools)
			}
			set, err := LoadSRDs("", s, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(set.SRDs()); got != tc.srds {
				t.Errorf("%d SRDs by default, want %d", got, tc.srds)
			}
			if tc.name == SetBFCL {
				if err := s.Pooled(SetBFCLPool).Validate(); err != nil {
					t.Error(err)
				}
			}
		})
	}
}

// hardSetCorpus loads the real catalogs and the shipped SRDs.
func hardSetCorpus(t *testing.T) (Sources, *catalog.Catalog, *srd.Set, map[string]*srd.SRD) {
	t.Helper()
	src := realSources(t)
	cat, err := src.LoadCatalog()
	if err != nil {
		t.Fatal(err)
	}
	s, err := LoadNamed(hardsets.Names()[0], src, cat)
	if err != nil {
		t.Fatal(err)
	}
	set, err := LoadSRDs("", s, cat)
	if err != nil {
		t.Fatal(err)
	}
	byServer := map[string]*srd.SRD{}
	for _, d := range set.SRDs() {
		byServer[d.ServerID] = d
	}
	return src, cat, set, byServer
}

// TestHardSetsWording enforces how the hard sets were written: at least
// 100 queries each, every wanted tool in the corpus, and no query sharing
// a run of four words with the description of a tool it wants or with an
// intent trigger of that tool's server (copying either would inflate
// recall, flat or routed).
func TestHardSetsWording(t *testing.T) {
	_, cat, _, byServer := hardSetCorpus(t)
	tools := CatalogTools(cat)
	byRef := map[string]Tool{}
	for _, tl := range tools {
		byRef[tl.Server+"/"+tl.Name] = tl
	}
	ids := map[string]string{}
	for _, name := range hardsets.Names() {
		data, err := fs.ReadFile(hardsets.FS, name+".yaml")
		if err != nil {
			t.Fatal(err)
		}
		h, err := ParseHardSet(name+".yaml", data)
		if err != nil {
			t.Fatal(err)
		}
		if h.Name != name || len(h.Queries) < 100 || h.Method == "" {
			t.Errorf("%s: name %q, %d queries, method %d chars; want its own name, ≥ 100 queries and a method", name, h.Name, len(h.Queries), len(h.Method))
		}
		if _, err := h.Resolve(tools); err != nil {
			t.Error(err)
		}
		for _, q := range h.Queries {
			if other, dup := ids[q.ID]; dup {
				t.Errorf("%s: id %s also in %s", name, q.ID, other)
			}
			ids[q.ID] = name
			qg := fourGrams(q.Text)
			for _, w := range slices.Concat(q.Needs...) {
				tl := byRef[w]
				if g := shared(qg, fourGrams(tl.Description)); g != "" {
					t.Errorf("%s %s: %q copies %q from %s's description", name, q.ID, q.Text, g, w)
				}
				server, _, _ := strings.Cut(w, "/")
				for _, trig := range byServer[server].IntentTriggers {
					if g := shared(qg, fourGrams(trig)); g != "" {
						t.Errorf("%s %s: %q copies %q from a trigger of %s", name, q.ID, q.Text, g, server)
					}
				}
			}
		}
	}
}

func fourGrams(s string) map[string]bool {
	toks := search.Tokenize(s)
	out := map[string]bool{}
	for i := 0; i+4 <= len(toks); i++ {
		out[strings.Join(toks[i:i+4], " ")] = true
	}
	return out
}

func shared(a, b map[string]bool) string {
	var out []string
	for g := range a {
		if b[g] {
			out = append(out, g)
		}
	}
	slices.Sort(out)
	return strings.Join(out, "; ")
}

// TestRealHardSetEval runs one hard set through every arm: a smoke test of
// the whole path on real data.
func TestRealHardSetEval(t *testing.T) {
	src, cat, set, _ := hardSetCorpus(t)
	s, err := LoadNamed("near-synonym", src, cat)
	if err != nil {
		t.Fatal(err)
	}
	arms, err := Arms([]string{"bm25"}, search.Factories(), set, routed.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	opt := DefaultEvalOptions()
	opt.Resamples, opt.Counter, opt.Domains = 100, tokens.NewEstimator(3.5), set
	res, err := Evaluate(s, arms, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range res.Arms {
		for _, f := range a.Metrics {
			if f.Lo > f.Mean || f.Mean > f.Hi || (isShare(f.Metric) && (f.Mean < 0 || f.Mean > 1)) {
				t.Errorf("%s %s: %v out of shape", a.Name, f.Metric, f)
			}
		}
		if s := a.Metric(MSearches).Mean; s < 1 || s > 1+float64(opt.Retries)+1 {
			t.Errorf("%s: %v searches per query", a.Name, s)
		}
	}
}

func TestLoadSRDsChoice(t *testing.T) {
	dir := filepath.Join("testdata", "eval")
	s := &Set{Name: "x"}
	if got, err := LoadSRDs(SRDNone, s, nil); got != nil || err != nil {
		t.Errorf("none: %v %v", got, err)
	}
	if got, err := LoadSRDs("", s, nil); got != nil || err != nil {
		t.Errorf("no default for set x: %v %v", got, err)
	}
	if _, err := LoadSRDs(filepath.Join(dir, "missing"), s, nil); err == nil {
		t.Error("a missing SRD directory was accepted")
	}
	// SRDs without groups over a serverless corpus: TestGivenSRDsMustDescribeTheSet.
	if _, err := LoadNamed("nope", Sources{}, nil); err == nil {
		t.Error("unknown set accepted")
	}
	if _, err := LoadNamed(SetMetaTool, Sources{}, nil); err == nil {
		t.Error("metatool without data accepted")
	}
	if _, err := LoadNamed(filepath.Join(dir, "set.yaml"), Sources{}, nil); err == nil {
		t.Error("hard set without catalogs accepted")
	}
	if !IsCatalogSet("same-name") || !IsCatalogSet("my/set.yaml") || IsCatalogSet(SetBFCL) {
		t.Error("IsCatalogSet")
	}
}

// TestShippedSRDsFollowTheCatalog: over a catalog folder holding only some
// of the servers, the shipped SRDs of the others are left out.
func TestShippedSRDsFollowTheCatalog(t *testing.T) {
	dir := t.TempDir()
	real := shareddata.Path(t, "catalogs")
	for _, f := range []string{"modelcontextprotocol__server-slack@2025.4.25.json", "modelcontextprotocol__server-github@2025.4.8.json"} {
		data, err := os.ReadFile(filepath.Join(real, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cat, err := catalog.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	set, err := LoadSRDs("", &Set{Name: "mine", OverCatalogs: true}, cat) // a task file's set (HardSet.Resolve)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(set.SRDs()); got != 2 {
		t.Errorf("%d SRDs kept, want 2", got)
	}
}

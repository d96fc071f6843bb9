package routed

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/search"
	"github.com/defersim/defersim/srd"
)

// fixedRanker scores documents by name from a table, whatever the query:
// it lets the tests compute the routed scores by hand.
type fixedRanker struct {
	docs   []sim.ToolDoc
	scores map[string]float64
}

func (f fixedRanker) Search(_ string, k int) []search.Hit {
	var hits []search.Hit
	for i, d := range f.docs {
		if s := f.scores[d.Name]; s > 0 {
			hits = append(hits, search.Hit{Index: i, Score: s})
		}
	}
	slices.SortStableFunc(hits, func(a, b search.Hit) int { return cmp.Compare(b.Score, a.Score) })
	return hits[:min(k, len(hits))]
}

func (f fixedRanker) Rank(q string, k int) []int {
	var out []int
	for _, h := range f.Search(q, k) {
		out = append(out, h.Index)
	}
	return out
}

func fixed(scores map[string]float64) sim.RankerFactory {
	return func(docs []sim.ToolDoc) (sim.Ranker, error) { return fixedRanker{docs, scores}, nil }
}

// positionalFactory ranks by the table too but hides the scores.
func positionalFactory(scores map[string]float64) sim.RankerFactory {
	return func(docs []sim.ToolDoc) (sim.Ranker, error) {
		return rankOnly{fixedRanker{docs, scores}}, nil
	}
}

// rankOnly is a ranker without Search.
type rankOnly struct{ f fixedRanker }

func (r rankOnly) Rank(q string, k int) []int { return r.f.Rank(q, k) }

func mustSet(t *testing.T, src string) *srd.Set {
	t.Helper()
	srds, probs := srd.Parse("t.yaml", []byte(src))
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	s, err := srd.NewSet(srds)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

const twoDomains = `srd_version: 1
server_id: sa
domain: alpha
display_name: A
intent_triggers: [x]
disambiguation: [{domain: beta, differs: d}]
priority: 5
---
srd_version: 1
server_id: sb
domain: beta
display_name: B
intent_triggers: [y]
disambiguation: [{domain: alpha, differs: d}]
`

var fourTools = []sim.ToolDoc{
	{Server: "sa", Name: "a1"}, {Server: "sa", Name: "a2"},
	{Server: "sb", Name: "b1"}, {Server: "sb", Name: "b2"},
}

// Hand-computed: tool scores a1 2, b1 1 → t = a1 1, b1 0.5, a2 0, b2 0;
// domain scores alpha 1, beta 4 → d = alpha 0.25, beta 1. With w 0.7 and
// floor 0.25, score = 0.3·t + 0.7·d·max(t, 0.25):
//
//	a1: 0.3 + 0.7·0.25·1      = 0.475
//	a2: 0   + 0.7·0.25·0.25   = 0.04375
//	b1: 0.15 + 0.7·1·0.5      = 0.5
//	b2: 0   + 0.7·1·0.25      = 0.175
var handScores = map[string]float64{"a1": 2, "b1": 1, "alpha": 1, "beta": 4}

func TestRankHandComputed(t *testing.T) {
	set := mustSet(t, twoDomains)
	tests := []struct {
		name string
		opt  func(*Options)
		base sim.RankerFactory
		k    int
		want []int
	}{
		{"weighted", nil, fixed(handScores), 8, []int{2, 0, 3, 1}},
		{"top two", nil, fixed(handScores), 2, []int{2, 0}},
		{"hard keeps beta", func(o *Options) { o.Hard = true }, fixed(handScores), 8, []int{2, 3}},
		{"hard keeps two domains", func(o *Options) { o.Hard, o.HardDomains = true, 2 }, fixed(handScores), 8, []int{2, 0, 3, 1}},
		// Floor 0: unmatched tools get nothing: a1 0.475, b1 0.5.
		{"no floor", func(o *Options) { o.MatchFloor = 0 }, fixed(handScores), 8, []int{2, 0}},
		// Weight 0 without the lead is the base ranker.
		{"weight 0", func(o *Options) { o.DomainWeight, o.Lead = 0, false }, fixed(handScores), 8, []int{0, 2}},
		{"weight 0, lead", func(o *Options) { o.DomainWeight = 0 }, fixed(handScores), 8, []int{2, 0}},
		// Floor 1, weight 1: the domain alone; ties by tool score, then order.
		{"domain only", func(o *Options) { o.DomainWeight, o.MatchFloor = 1, 1 }, fixed(handScores), 8, []int{2, 3, 0, 1}},
		// Without scores, positions: t = a1 1, b1 1/2; d = beta 1, alpha 1/2:
		// a1 0.3+0.35 = 0.65; b1 0.15+0.35 = 0.5; b2 0.175; a2 0.7·0.5·0.25 = 0.0875;
		// the lead then moves b1, beta's best, first.
		{"positional base", func(o *Options) { o.Lead = false }, positionalFactory(handScores), 8, []int{0, 2, 3, 1}},
		{"positional base, lead", nil, positionalFactory(handScores), 8, []int{2, 0, 3, 1}},
		{"k 0", nil, fixed(handScores), 0, nil},
		// a1 0.475, b1 0.03 + 0.7·0.25 = 0.205, b2 0.175, a2 0.04375:
		// the lead moves b1, beta's best, to the front.
		{"lead", nil, fixed(map[string]float64{"a1": 2, "b1": 0.2, "alpha": 1, "beta": 4}), 8, []int{2, 0, 3, 1}},
		{"no lead", func(o *Options) { o.Lead = false }, fixed(map[string]float64{"a1": 2, "b1": 0.2, "alpha": 1, "beta": 4}), 8, []int{0, 2, 3, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opt := DefaultOptions()
			if tc.opt != nil {
				tc.opt(&opt)
			}
			r, err := New(set, fourTools, tc.base, opt)
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Rank("q", tc.k); !gocmp.Equal(tc.want, got) {
				t.Errorf("Rank = %v, want %v", got, tc.want)
			}
		})
	}
	r, _ := New(set, fourTools, fixed(handScores), DefaultOptions())
	if got := r.RankDomains("q", 5); !gocmp.Equal(got, []string{"beta", "alpha"}) {
		t.Errorf("RankDomains = %v", got)
	}
	if got := r.RankDomains("q", 1); !gocmp.Equal(got, []string{"beta"}) {
		t.Errorf("RankDomains k 1 = %v", got)
	}
	if r.DomainOf(1) != "alpha" || r.DomainOf(3) != "beta" || r.DomainOf(9) != "" {
		t.Errorf("DomainOf: %q %q %q", r.DomainOf(1), r.DomainOf(3), r.DomainOf(9))
	}
	if got := r.Domains(); !gocmp.Equal(got, []string{"alpha", "beta"}) {
		t.Errorf("Domains = %v", got)
	}
}

func TestPriorityBreaksTies(t *testing.T) {
	// Equal domain scores; alpha at priority 10 gets ×1.05.
	set := mustSet(t, strings.Replace(twoDomains, "priority: 5", "priority: 10", 1))
	scores := map[string]float64{"alpha": 1, "beta": 1}
	r, err := New(set, fourTools, fixed(scores), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if got := r.RankDomains("q", 2); !gocmp.Equal(got, []string{"alpha", "beta"}) {
		t.Errorf("RankDomains = %v, want alpha first", got)
	}
	// Every tool unmatched: alpha's get 0.7·1.05·0.25, beta's 0.7·1·0.25.
	if got := r.Rank("q", 4); !gocmp.Equal(got, []int{0, 1, 2, 3}) {
		t.Errorf("Rank = %v", got)
	}
	if p := r.domains[0].prior; math.Abs(p-1.05) > 1e-12 {
		t.Errorf("prior = %v, want 1.05", p)
	}
}

// TestTriggersReachUnmatchedTools uses real BM25: the query shares no word
// with any tool, only with the chat SRD's trigger, so flat search finds
// nothing and routed search offers the chat tools.
func TestTriggersReachUnmatchedTools(t *testing.T) {
	set := mustSet(t, `srd_version: 1
server_id: chat
domain: chat
display_name: Chat
intent_triggers: [let everyone know]
disambiguation: [{domain: files, differs: talk}]
---
srd_version: 1
server_id: files
domain: files
display_name: Files
intent_triggers: [open a document]
disambiguation: [{domain: chat, differs: files}]
`)
	docs := []sim.ToolDoc{
		{Server: "files", Name: "read_file", Description: "Reads a file"},
		{Server: "chat", Name: "post_message", Description: "Posts a message to a channel"},
		{Server: "chat", Name: "list_channels", Description: "Lists channels"},
	}
	flat, err := BM25()(docs)
	if err != nil {
		t.Fatal(err)
	}
	if got := flat.Rank("let everyone know", 5); len(got) != 0 {
		t.Fatalf("flat found %v", got)
	}
	r, err := New(set, docs, BM25(), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Rank("let everyone know", 5); !gocmp.Equal(got, []int{1, 2}) {
		t.Errorf("routed = %v, want the chat tools [1 2]", got)
	}
	// Words of both: chat is the best domain (three trigger words), so its
	// best tool leads; the file tool, the only one matching a word, is next.
	if got := r.Rank("let everyone know about the file", 5); !gocmp.Equal(got, []int{1, 0, 2}) {
		t.Errorf("routed = %v, want [1 0 2]", got)
	}
}

func TestNoSRDsServersAreDomains(t *testing.T) {
	r, err := New(nil, fourTools, fixed(map[string]float64{"a2": 1, "sb": 3, "sa": 1}), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Domains(); !gocmp.Equal(got, []string{"sa", "sb"}) {
		t.Errorf("Domains = %v", got)
	}
	if got := r.RankDomains("q", 3); !gocmp.Equal(got, []string{"sb", "sa"}) {
		t.Errorf("RankDomains = %v", got)
	}
}

func TestOptionsValidate(t *testing.T) {
	bad := []func(*Options){
		func(o *Options) { o.DomainWeight = -0.1 },
		func(o *Options) { o.DomainWeight = math.NaN() },
		func(o *Options) { o.MatchFloor = 2 },
		func(o *Options) { o.Hard, o.HardDomains = true, 0 },
		func(o *Options) { o.PriorityWeight = 1 },
		func(o *Options) { o.TriggerRepeat = 0 },
		func(o *Options) { o.ToolText = "all" },
	}
	for i, f := range bad {
		o := DefaultOptions()
		f(&o)
		if _, err := New(nil, fourTools, fixed(nil), o); err == nil {
			t.Errorf("bad options %d accepted: %+v", i, o)
		}
	}
	if _, err := New(nil, fourTools, nil, DefaultOptions()); err == nil {
		t.Error("nil base accepted")
	}
	for _, tt := range []ToolText{ToolTextNone, ToolTextNames, ToolTextFull} {
		o := DefaultOptions()
		o.ToolText = tt
		if _, err := New(nil, fourTools, BM25(), o); err != nil {
			t.Errorf("tool text %s: %v", tt, err)
		}
	}
}

func TestDomainDocText(t *testing.T) {
	set := mustSet(t, twoDomains)
	dm := domain{name: "alpha", tools: []int{0, 1}}
	docs := []sim.ToolDoc{{Server: "sa", Name: "get_x", Description: "Gets x"}, {Server: "sa", Name: "put"}}
	for tt, want := range map[ToolText]string{
		ToolTextNone:  "A\n\nx\nx",
		ToolTextNames: "A\n\nx\nx\nget_x\nput",
		ToolTextFull:  "A\n\nx\nx\nget x gets x sa\nput sa",
	} {
		o := DefaultOptions()
		o.ToolText = tt
		if got := domainDoc(set, dm, docs, o); got.Name != "alpha" || got.Description != want {
			t.Errorf("%s: domainDoc = %q / %q, want %q", tt, got.Name, got.Description, want)
		}
	}
}

// TestFusionKeepsFlatHit pins the fix for routing burying a strong flat
// hit: a1 leads the flat ranking but its domain scores nothing, so the
// router puts the five beta tools first (each 0.3·0.9 + 0.7·1·0.9 = 0.9
// against a1's 0.3); fused with the flat ranking (weight 1, c 10) a1
// scores 1/11 + 1/16 and comes third, after b1 (1/11 + 1/12) and b2
// (1/12 + 1/13), before b3 (1/13 + 1/14).
func TestFusionKeepsFlatHit(t *testing.T) {
	set := mustSet(t, twoDomains)
	docs := []sim.ToolDoc{{Server: "sa", Name: "a1"}}
	sc := map[string]float64{"a1": 1, "beta": 1}
	for _, b := range []string{"b1", "b2", "b3", "b4", "b5"} {
		docs = append(docs, sim.ToolDoc{Server: "sb", Name: b})
		sc[b] = 0.9
	}
	opt := DefaultOptions()
	plain, err := New(set, docs, fixed(sc), opt)
	if err != nil {
		t.Fatal(err)
	}
	if got := plain.Rank("q", 6); !gocmp.Equal(got, []int{1, 2, 3, 4, 5, 0}) {
		t.Fatalf("router alone = %v, want a1 (0) last", got)
	}
	opt.FlatFuse, opt.FuseC = 1, 10
	fused, err := New(set, docs, fixed(sc), opt)
	if err != nil {
		t.Fatal(err)
	}
	if got := fused.Rank("q", 6); !gocmp.Equal(got, []int{1, 2, 0, 3, 4, 5}) {
		t.Errorf("fused = %v, want a1 (0) third", got)
	}
	// ToolMax: alpha's document scores nothing, but its best tool scores 1:
	// d = 0.5·0 + 0.5·1 for alpha, 0.5·1 + 0.5·0.9 for beta.
	opt.ToolMax = 0.5
	tm, err := New(set, docs, fixed(sc), opt)
	if err != nil {
		t.Fatal(err)
	}
	if got := tm.RankDomains("q", 2); !gocmp.Equal(got, []string{"beta", "alpha"}) {
		t.Errorf("RankDomains with tool max = %v", got)
	}
}

// TestFusedOptionsRealBM25F: the shipped fused router over fielded BM25
// builds, ranks by stems and triggers, and its domain documents are
// fielded.
func TestFusedOptionsRealBM25F(t *testing.T) {
	set := mustSet(t, twoDomains)
	docs := []sim.ToolDoc{{Server: "sa", Name: "sendMessages", Description: "Posts messages"}, {Server: "sb", Name: "read_files", Description: "Reads files from disk"}}
	r, err := New(set, docs, Fielded(set, search.DefaultBM25F()), FusedOptions())
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Rank("send a message", 2); len(got) == 0 || got[0] != 0 {
		t.Errorf("Rank = %v, want sendMessages first", got)
	}
	if got := r.RankDomains("reading file", 1); !gocmp.Equal(got, []string{"beta"}) {
		t.Errorf("RankDomains = %v", got)
	}
	bad := []func(*Options){
		func(o *Options) { o.DomainIndex = "nope" },
		func(o *Options) { o.DomainParams.Fields = o.DomainParams.Fields[:2] },
		func(o *Options) { o.ToolMax = 1.5 },
		func(o *Options) { o.FlatFuse = -1 },
		func(o *Options) { o.FuseC = math.Inf(1) },
	}
	for i, f := range bad {
		o := FusedOptions()
		f(&o)
		if _, err := New(set, docs, BM25(), o); err == nil {
			t.Errorf("bad fused options %d accepted", i)
		}
	}
}

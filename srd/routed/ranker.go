package routed

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/search"
	"github.com/defersim/defersim/srd"
)

// scorer is a ranker that also reports scores (search.BM25 is one).
type scorer interface {
	Search(query string, k int) []search.Hit
}

// domain is one routing domain of a corpus.
type domain struct {
	name  string
	prior float64 // priority factor
	tools []int   // corpus indices
}

// Ranker is the routed ranker over a fixed corpus. It is immutable once
// built and safe for concurrent use.
type Ranker struct {
	opt      Options
	n        int
	domainOf []int // corpus index → domain index
	domains  []domain
	tools    sim.Ranker // base ranker over the tools
	dom      sim.Ranker // base ranker over the domain documents
}

// New builds a routed ranker over docs. Each tool's domain comes from set
// (see srd.Set.DomainOf: a tool whose server has no SRD forms a domain with
// the rest of its server); base builds both the tool ranker and the domain
// ranker.
func New(set *srd.Set, docs []sim.ToolDoc, base sim.RankerFactory, opt Options) (*Ranker, error) {
	if err := opt.validate(); err != nil {
		return nil, err
	}
	if base == nil {
		return nil, fmt.Errorf("routed: no base ranker")
	}
	r := &Ranker{opt: opt, n: len(docs), domainOf: make([]int, len(docs))}
	index := map[string]int{}
	for i, d := range docs {
		name := set.DomainOf(d.Server, d.Name)
		j, ok := index[name]
		if !ok {
			j = len(r.domains)
			index[name] = j
			r.domains = append(r.domains, domain{name: name, prior: r.prior(set, name)})
		}
		r.domainOf[i] = j
		r.domains[j].tools = append(r.domains[j].tools, i)
	}
	var err error
	if r.tools, err = base(docs); err != nil {
		return nil, fmt.Errorf("routed: tool ranker: %w", err)
	}
	if opt.DomainIndex == DomainIndexFielded {
		fdocs := make([]search.FieldDoc, len(r.domains))
		for j, dm := range r.domains {
			fdocs[j] = domainFields(set, dm, docs)
		}
		if r.dom, err = search.NewBM25F(fdocs, opt.DomainParams); err != nil {
			return nil, fmt.Errorf("routed: domain ranker: %w", err)
		}
		return r, nil
	}
	ddocs := make([]sim.ToolDoc, len(r.domains))
	for j, dm := range r.domains {
		ddocs[j] = domainDoc(set, dm, docs, opt)
	}
	if r.dom, err = base(ddocs); err != nil {
		return nil, fmt.Errorf("routed: domain ranker: %w", err)
	}
	return r, nil
}

// domainFields is a domain's fielded document (DomainIndexFielded): see
// the DomainField constants.
func domainFields(set *srd.Set, dm domain, docs []sim.ToolDoc) search.FieldDoc {
	fd := make(search.FieldDoc, NumDomainFields)
	fd[DomainFieldNames] = []string{dm.name}
	for _, s := range set.DomainSRDs(dm.name) {
		fd[DomainFieldNames] = append(fd[DomainFieldNames], s.DisplayName)
		for _, g := range s.ToolGroups {
			fd[DomainFieldNames] = append(fd[DomainFieldNames], g.Name)
		}
		fd[DomainFieldSummaries] = append(fd[DomainFieldSummaries], s.Summary)
		fd[DomainFieldTriggers] = append(fd[DomainFieldTriggers], s.IntentTriggers...)
	}
	for _, i := range dm.tools {
		tf := search.ToolFields(docs[i])
		fd[DomainFieldToolNames] = append(fd[DomainFieldToolNames], docs[i].Name)
		fd[DomainFieldToolText] = append(fd[DomainFieldToolText], tf[search.FieldDescription]...)
		fd[DomainFieldToolText] = append(fd[DomainFieldToolText], tf[search.FieldParamNames]...)
		fd[DomainFieldToolText] = append(fd[DomainFieldToolText], tf[search.FieldParamDescriptions]...)
	}
	return fd
}

// prior is the priority factor of a domain: its SRDs' highest priority.
func (r *Ranker) prior(set *srd.Set, name string) float64 {
	srds := set.DomainSRDs(name)
	if len(srds) == 0 {
		return 1
	}
	p := srd.MinPriority
	for _, s := range srds {
		p = max(p, s.Priority)
	}
	return 1 + r.opt.PriorityWeight*float64(p-srd.DefaultPriority)/float64(srd.DefaultPriority)
}

// domainDoc is what stage one indexes for a domain: its name, and as
// description the display names, summaries, intent triggers (repeated),
// tool group names and, per ToolText, its tools' names or their whole
// search documents (name, description, parameter names and descriptions,
// server).
func domainDoc(set *srd.Set, dm domain, docs []sim.ToolDoc, opt Options) sim.ToolDoc {
	var parts []string
	for _, s := range set.DomainSRDs(dm.name) {
		parts = append(parts, s.DisplayName, s.Summary)
		for range opt.TriggerRepeat {
			parts = append(parts, s.IntentTriggers...)
		}
		for _, g := range s.ToolGroups {
			parts = append(parts, g.Name)
		}
	}
	for _, i := range dm.tools {
		switch opt.ToolText {
		case ToolTextNames:
			parts = append(parts, docs[i].Name)
		case ToolTextFull:
			parts = append(parts, strings.Join(search.DocTokens(nil, docs[i], 1), " "))
		}
	}
	return sim.ToolDoc{Name: dm.name, Description: strings.Join(parts, "\n")}
}

// scores returns the base ranker's scores for every item, scaled so the
// best is 1 (0 for items it did not return). A ranker without scores is
// scored by position: 1/(1 + position).
func scores(rk sim.Ranker, query string, n int) []float64 {
	out := make([]float64, n)
	if n == 0 {
		return out
	}
	if sc, ok := rk.(scorer); ok {
		hits := sc.Search(query, n)
		if len(hits) == 0 || hits[0].Score <= 0 {
			return out
		}
		top := hits[0].Score
		for _, h := range hits {
			if h.Index >= 0 && h.Index < n {
				out[h.Index] = h.Score / top
			}
		}
		return out
	}
	for pos, i := range rk.Rank(query, n) {
		if i >= 0 && i < n {
			out[i] = 1 / float64(1+pos)
		}
	}
	return out
}

// domainScores returns each domain's stage-one score with its priority;
// ts are the tools' scores (needed with ToolMax; nil computes them).
func (r *Ranker) domainScores(query string, ts []float64) []float64 {
	ds := scores(r.dom, query, len(r.domains))
	if m := r.opt.ToolMax; m > 0 {
		if ts == nil {
			ts = scores(r.tools, query, r.n)
		}
		for j, dm := range r.domains {
			best := 0.0
			for _, i := range dm.tools {
				best = max(best, ts[i])
			}
			ds[j] = (1-m)*ds[j] + m*best
		}
	}
	for j := range ds {
		ds[j] *= r.domains[j].prior
	}
	return ds
}

// domainOrder returns domain indices with a positive score, best first
// (ties in corpus order).
func domainOrder(ds []float64) []int {
	var out []int
	for j, s := range ds {
		if s > 0 {
			out = append(out, j)
		}
	}
	slices.SortStableFunc(out, func(a, b int) int { return cmp.Compare(ds[b], ds[a]) })
	return out
}

// Rank returns the k best tools for query, best first. A tool's score is
// (1 − w)·t + w·d·max(t, MatchFloor), t its own score and d its domain's,
// both scaled so the query's best is 1: the domain lifts the tools that
// match the query most, and those that do not match at all by the floor
// only, so a large domain cannot flood the results. Tools with a zero
// score are left out. Ties go to the higher tool score, then to corpus
// order. With Lead, the best-scored tool of the best domain is then moved
// to the front. With the hard filter only tools of the HardDomains best
// domains are kept (all tools when no domain scores).
func (r *Ranker) Rank(query string, k int) []int {
	if k <= 0 || r.n == 0 {
		return nil
	}
	ts := scores(r.tools, query, r.n)
	ds := r.domainScores(query, ts)
	order := domainOrder(ds)
	var keep []bool
	if r.opt.Hard && len(order) > 0 {
		keep = make([]bool, len(r.domains))
		for _, j := range order[:min(r.opt.HardDomains, len(order))] {
			keep[j] = true
		}
	}
	w := r.opt.DomainWeight
	final := make([]float64, r.n)
	var cand []int
	for i := range r.n {
		j := r.domainOf[i]
		if keep != nil && !keep[j] {
			continue
		}
		f := (1-w)*ts[i] + w*ds[j]*max(ts[i], r.opt.MatchFloor)
		if f > 0 {
			final[i] = f
			cand = append(cand, i)
		}
	}
	slices.SortStableFunc(cand, func(a, b int) int {
		return cmp.Or(cmp.Compare(final[b], final[a]), cmp.Compare(ts[b], ts[a]))
	})
	if r.opt.Lead && !r.opt.Hard && len(order) > 0 {
		// The best tool of the best domain goes first.
		if p := slices.IndexFunc(cand, func(i int) bool { return r.domainOf[i] == order[0] }); p > 0 {
			lead := cand[p]
			copy(cand[1:p+1], cand[:p])
			cand[0] = lead
		}
	}
	if r.opt.FlatFuse > 0 {
		return r.fuse(cand, ts, k)
	}
	return cand[:min(k, len(cand))]
}

// fuse fuses the routed ranking with the flat one (the tools by their own
// score, ties in corpus order) by weighted reciprocal rank.
func (r *Ranker) fuse(routed []int, ts []float64, k int) []int {
	var flat []int
	for i, t := range ts {
		if t > 0 {
			flat = append(flat, i)
		}
	}
	slices.SortStableFunc(flat, func(a, b int) int { return cmp.Compare(ts[b], ts[a]) })
	return search.FuseRRF([]search.RRFList{{Ranked: routed, Weight: 1}, {Ranked: flat, Weight: r.opt.FlatFuse}}, r.opt.FuseC, r.n, k)
}

// RankDomains returns the names of the k best domains for query (stage
// one), best first; domains that do not score are left out.
func (r *Ranker) RankDomains(query string, k int) []string {
	order := domainOrder(r.domainScores(query, nil))
	out := make([]string, 0, min(k, len(order)))
	for _, j := range order[:min(k, len(order))] {
		out = append(out, r.domains[j].name)
	}
	return out
}

// DomainOf returns the domain of corpus tool i ("" when out of range).
func (r *Ranker) DomainOf(i int) string {
	if i < 0 || i >= r.n {
		return ""
	}
	return r.domains[r.domainOf[i]].name
}

// Domains returns the corpus's domain names in order of first appearance.
func (r *Ranker) Domains() []string {
	out := make([]string, len(r.domains))
	for j, d := range r.domains {
		out[j] = d.name
	}
	return out
}

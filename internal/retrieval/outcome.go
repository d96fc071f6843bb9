package retrieval

import (
	"slices"
	"strings"

	"github.com/defersim/defersim/sim"
)

// Metric names, in report order.
const (
	MDomainRecall = "domain_recall"
	MTop1         = "top1"
	MRecall       = "recall"
	MMRR          = "mrr"
	MSearches     = "searches"
	MTokens       = "schema_tokens"
)

// Metrics lists the per-query metrics in report order.
func Metrics() []string {
	return []string{MDomainRecall, MTop1, MRecall, MMRR, MSearches, MTokens}
}

// Indices of the metrics in Outcome.Values (Metrics order).
const (
	iDomainRecall = iota
	iTop1
	iRecall
	iMRR
	iSearches
	iTokens
	numMetrics
)

// Outcome is what one arm did on one query.
type Outcome struct {
	// Values holds the metrics in Metrics order.
	Values [numMetrics]float64
	// Curve[j] is tool recall@(j+1); DomainCurve[j] domain recall@(j+1).
	Curve, DomainCurve []float64
}

// domainRanker is a ranker that ranks domains itself (the routed ranker).
type domainRanker interface {
	RankDomains(query string, k int) []string
}

// scorer holds what scoring one query needs.
type scorer struct {
	opt    EvalOptions
	tokens []float64 // per corpus tool
	domain []string  // per corpus tool
	names  []string  // per corpus tool
}

// score runs one query through one ranker built over the tools glob (local
// index i is corpus tool glob[i]).
func (sc *scorer) score(rk sim.Ranker, glob []int, q Query) Outcome {
	k, ck := sc.opt.K, sc.opt.CurveK
	out := Outcome{Curve: make([]float64, ck), DomainCurve: make([]float64, ck)}
	full := mapIdx(rk.Rank(q.Text, len(glob)), glob)
	nn := float64(len(q.Needs))
	if len(full) > 0 && slices.ContainsFunc(q.Needs, func(n []int) bool { return slices.Contains(n, full[0]) }) {
		out.Values[iTop1] = 1
	}
	var doms []string
	if dr, ok := rk.(domainRanker); ok {
		doms = dr.RankDomains(q.Text, max(k, ck))
	} else {
		for _, t := range full {
			if d := sc.domain[t]; !slices.Contains(doms, d) {
				doms = append(doms, d)
				if len(doms) == max(k, ck) {
					break
				}
			}
		}
	}
	for _, need := range q.Needs {
		r := slices.IndexFunc(full, func(t int) bool { return slices.Contains(need, t) }) + 1
		if r > 0 {
			out.Values[iMRR] += 1 / float64(r) / nn
			if r <= k {
				out.Values[iRecall] += 1 / nn
			}
			for j := r - 1; j < ck; j++ {
				out.Curve[j] += 1 / nn
			}
		}
		d := slices.IndexFunc(doms, func(d string) bool {
			return slices.ContainsFunc(need, func(t int) bool { return sc.domain[t] == d })
		}) + 1
		if d > 0 {
			if d <= k {
				out.Values[iDomainRecall] += 1 / nn
			}
			for j := d - 1; j < ck; j++ {
				out.DomainCurve[j] += 1 / nn
			}
		}
	}
	out.Values[iSearches], out.Values[iTokens] = sc.searches(rk, glob, q, full)
	return out
}

// searches replays the retry policy: for each need not already loaded, the
// query text, then Retries times the first wanted tool's name with "_" as
// spaces (the engine's keyword retry), each search returning the K best
// tools not loaded yet, all of which are loaded; when every keyword search
// misses, one select: search loads the tool by name. It returns the number
// of searches and the tokens of every schema loaded.
func (sc *scorer) searches(rk sim.Ranker, glob []int, q Query, full []int) (searches, tokens float64) {
	k := sc.opt.K
	loaded := map[int]bool{}
	for _, need := range q.Needs {
		if slices.ContainsFunc(need, func(t int) bool { return loaded[t] }) {
			continue
		}
		found := false
		for attempt := 0; attempt <= sc.opt.Retries && !found; attempt++ {
			searches++
			ranked := full // the whole ranking: skipping loaded tools pages on
			if attempt > 0 {
				ranked = mapIdx(rk.Rank(strings.ReplaceAll(sc.names[need[0]], "_", " "), k+len(loaded)), glob)
			}
			n := 0
			for _, t := range ranked {
				if n == k {
					break
				}
				if loaded[t] {
					continue
				}
				loaded[t] = true
				tokens += sc.tokens[t]
				n++
				found = found || slices.Contains(need, t)
			}
		}
		if !found {
			searches++
			loaded[need[0]] = true
			tokens += sc.tokens[need[0]]
		}
	}
	return searches, tokens
}

func mapIdx(local, glob []int) []int {
	out := make([]int, 0, len(local))
	for _, i := range local {
		if i >= 0 && i < len(glob) {
			out = append(out, glob[i])
		}
	}
	return out
}

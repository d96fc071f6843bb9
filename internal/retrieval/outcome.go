package retrieval

import (
	"slices"
	"strings"

	"github.com/defersim/defersim/sim"
)

// Metric names, in report order.
const (
	MDomainRecall = "domain_recall"
	MServerRecall = "server_recall"
	MTop1         = "top1"
	MRecall       = "recall"
	MTaskRecall   = "task_recall"
	MMRR          = "mrr"
	MSearches     = "searches"
	MTokens       = "schema_tokens"
)

// Metrics lists the metrics in report order.
func Metrics() []string {
	return []string{MDomainRecall, MServerRecall, MTop1, MRecall, MTaskRecall, MMRR, MSearches, MTokens}
}

// PerNeed reports a metric averaged over needs (pooled over the tasks: the
// share of all needs); the others are averaged over tasks.
func PerNeed(m string) bool {
	switch m {
	case MDomainRecall, MServerRecall, MRecall, MMRR:
		return true
	}
	return false
}

// Indices of the metrics in Outcome.Values (Metrics order).
const (
	iDomainRecall = iota
	iServerRecall
	iTop1
	iRecall
	iTaskRecall
	iMRR
	iSearches
	iTokens
	numMetrics
)

// Outcome is what one arm did on one task (query).
type Outcome struct {
	// Values holds the metrics in Metrics order: for per-need metrics the
	// sum over the task's needs, for the others the task's value.
	Values [numMetrics]float64
	// Needs is how many needs the task has (the per-need denominator).
	Needs int
	// Curve[j] is how many needs have a tool in the top j+1;
	// DomainCurve[j] likewise for their domains.
	Curve, DomainCurve []float64
	// Detail is the per-query record (only when asked for).
	Detail *Detail
}

// Detail is what one arm did on one task, for --per-query output.
type Detail struct {
	Needs    []NeedDetail   `json:"needs"`
	Ranked   []string       `json:"ranked"`
	Domains  []string       `json:"domains"`
	Searches []SearchDetail `json:"searches"`
}

// NeedDetail is one need's ranks (0: not ranked).
type NeedDetail struct {
	Tools      []string `json:"tools"`
	Rank       int      `json:"rank"`
	ServerRank int      `json:"server_rank"`
	DomainRank int      `json:"domain_rank"`
	// Found is the search (1-based) that loaded the need; 0 when the need
	// was loaded by select: after every search missed.
	Found int `json:"found_by_search"`
}

// SearchDetail is one search of the retry replay and what it returned.
type SearchDetail struct {
	Query    string   `json:"query"`
	Returned []string `json:"returned"`
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
	server []string  // per corpus tool
	names  []string  // per corpus tool
	refs   []string  // per corpus tool: "server/name" or the name
	detail bool
}

// firstDistinct returns the distinct labels of the ranked tools in order
// of first appearance, at most n (n < 0: all).
func firstDistinct(full []int, label []string, n int) []string {
	var out []string
	for _, t := range full {
		if l := label[t]; !slices.Contains(out, l) {
			out = append(out, l)
			if len(out) == n {
				break
			}
		}
	}
	return out
}

// rankOf is the 1-based rank of the first label a need's tools carry, 0
// when none is listed.
func rankOf(list []string, need []int, label []string) int {
	return slices.IndexFunc(list, func(l string) bool {
		return slices.ContainsFunc(need, func(t int) bool { return label[t] == l })
	}) + 1
}

// score runs one query through one ranker built over the tools glob (local
// index i is corpus tool glob[i]).
func (sc *scorer) score(rk sim.Ranker, glob []int, q Query) Outcome {
	k, ck := sc.opt.K, sc.opt.CurveK
	out := Outcome{Needs: len(q.Needs), Curve: make([]float64, ck), DomainCurve: make([]float64, ck)}
	full := mapIdx(rk.Rank(q.Text, len(glob)), glob)
	if len(full) > 0 && slices.ContainsFunc(q.Needs, func(n []int) bool { return slices.Contains(n, full[0]) }) {
		out.Values[iTop1] = 1
	}
	var doms []string
	if dr, ok := rk.(domainRanker); ok {
		doms = dr.RankDomains(q.Text, max(k, ck))
	} else {
		doms = firstDistinct(full, sc.domain, max(k, ck))
	}
	servers := firstDistinct(full, sc.server, -1)
	var det *Detail
	if sc.detail {
		det = &Detail{Ranked: sc.refList(full[:min(len(full), max(k, ck))]), Domains: doms}
	}
	all := true
	for _, need := range q.Needs {
		r := slices.IndexFunc(full, func(t int) bool { return slices.Contains(need, t) }) + 1
		if r > 0 {
			out.Values[iMRR] += 1 / float64(r)
			if r <= k {
				out.Values[iRecall]++
			}
			for j := r - 1; j < ck; j++ {
				out.Curve[j]++
			}
		}
		all = all && r > 0 && r <= k
		sr := rankOf(servers, need, sc.server)
		if sr > 0 && sr <= k {
			out.Values[iServerRecall]++
		}
		d := rankOf(doms, need, sc.domain)
		if d > 0 {
			if d <= k {
				out.Values[iDomainRecall]++
			}
			for j := d - 1; j < ck; j++ {
				out.DomainCurve[j]++
			}
		}
		if det != nil {
			det.Needs = append(det.Needs, NeedDetail{Tools: sc.refList(need), Rank: r, ServerRank: sr, DomainRank: d})
		}
	}
	if all {
		out.Values[iTaskRecall] = 1
	}
	out.Values[iSearches], out.Values[iTokens] = sc.searches(rk, glob, q, full, det)
	out.Detail = det
	return out
}

func (sc *scorer) refList(ts []int) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = sc.refs[t]
	}
	return out
}

// searches replays the retry policy: for each need not already loaded, the
// query text, then Retries times the first wanted tool's name with "_" as
// spaces (the engine's keyword retry), each search returning the K best
// tools not loaded yet, all of which are loaded; when every keyword search
// misses, one select: search loads the tool by name. It returns the number
// of searches and the tokens of every schema loaded; det, when set, gets
// every search and what it returned.
func (sc *scorer) searches(rk sim.Ranker, glob []int, q Query, full []int, det *Detail) (searches, tokens float64) {
	k := sc.opt.K
	loaded := map[int]bool{}
	for ni, need := range q.Needs {
		if slices.ContainsFunc(need, func(t int) bool { return loaded[t] }) {
			continue
		}
		found := false
		for attempt := 0; attempt <= sc.opt.Retries && !found; attempt++ {
			searches++
			ranked, query := full, q.Text // the whole ranking: skipping loaded tools pages on
			if attempt > 0 {
				query = strings.ReplaceAll(sc.names[need[0]], "_", " ")
				ranked = mapIdx(rk.Rank(query, k+len(loaded)), glob)
			}
			n := 0
			var returned []int
			for _, t := range ranked {
				if n == k {
					break
				}
				if loaded[t] {
					continue
				}
				loaded[t] = true
				returned = append(returned, t)
				tokens += sc.tokens[t]
				n++
				found = found || slices.Contains(need, t)
			}
			if det != nil {
				det.Searches = append(det.Searches, SearchDetail{Query: query, Returned: sc.refList(returned)})
				if found {
					det.Needs[ni].Found = len(det.Searches)
				}
			}
		}
		if !found {
			searches++
			loaded[need[0]] = true
			tokens += sc.tokens[need[0]]
			if det != nil {
				det.Searches = append(det.Searches, SearchDetail{Query: "select:" + sc.names[need[0]], Returned: sc.refList(need[:1])})
			}
		}
	}
	if det != nil {
		// A need loaded by an earlier need's search: the search that
		// returned it.
		for ni, need := range q.Needs {
			if det.Needs[ni].Found != 0 {
				continue
			}
			for si, s := range det.Searches {
				if strings.HasPrefix(s.Query, "select:") {
					continue
				}
				if slices.ContainsFunc(s.Returned, func(r string) bool {
					return slices.ContainsFunc(need, func(t int) bool { return sc.refs[t] == r })
				}) {
					det.Needs[ni].Found = si + 1
					break
				}
			}
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

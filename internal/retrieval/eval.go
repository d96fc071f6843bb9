package retrieval

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/defersim/defersim/internal/stats"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/srd"
	"github.com/defersim/defersim/tokens"
)

// ResultSchema names the version of the Result JSON. v2 added server
// recall, task recall and per-need pooling of the per-need metrics.
const ResultSchema = "defersim.srd-eval/v2"

// EvalOptions configure Evaluate.
type EvalOptions struct {
	// K is how many tools a search returns (recall@K, domain recall@K).
	K int
	// CurveK is the largest k of the recall@k curves.
	CurveK int
	// Retries is how many keyword searches follow a miss before select:.
	Retries int
	// Resamples, MaxM, Seed and Level configure the paired bootstrap:
	// Resamples draws of MaxM queries (0: all), seeded, Level-intervals.
	Resamples, MaxM int
	Seed            uint64
	Level           float64
	// Counter counts tokens of returned schemas.
	Counter tokens.Counter
	// Domains labels each tool with its domain (nil: its server, else its
	// name); it should be the SRD set the routed arms use.
	Domains   *srd.Set
	SRDSource string // where Domains came from (retrieval.SRDSource), for the report
	// Workers bounds parallelism (0: GOMAXPROCS).
	Workers int
	// Baselines name arms every other arm is also compared with (paired
	// differences), besides the flat arm of its own ranker; names of arms
	// not evaluated are ignored.
	Baselines []string
	// Prefetch, when set, is given every query text the evaluation will
	// search (the tasks' texts and the name retries) before any search,
	// so that an embedding ranker can fetch them in batches.
	Prefetch func(texts []string) error
	// PerQuery, when set, receives one JSON line per task and arm (task
	// order, then arm order): each need's ranks, the ranked tools, the
	// ranked domains and every search with what it returned.
	PerQuery io.Writer
	// Progress, when set, is called (from any goroutine, one call at a
	// time) with the number of queries scored so far, never decreasing.
	Progress func(done int)
}

// DefaultEvalOptions returns k 5, curves to 10, one keyword retry, 1,000
// resamples of at most 5,000 queries, seed 1, 95% intervals; Counter must
// still be set.
func DefaultEvalOptions() EvalOptions {
	return EvalOptions{K: 5, CurveK: 10, Retries: 1, Resamples: 1000, MaxM: 5000, Seed: 1, Level: 0.95}
}

func (o EvalOptions) validate() error {
	switch {
	case o.K < 1:
		return fmt.Errorf("eval: k = %d, want at least 1", o.K)
	case o.CurveK < 1 || o.CurveK > 100:
		return fmt.Errorf("eval: curve k = %d, want 1..100", o.CurveK)
	case o.Retries < 0 || o.Retries > 10:
		return fmt.Errorf("eval: retries = %d, want 0..10", o.Retries)
	case o.Resamples < 0 || o.MaxM < 0:
		return fmt.Errorf("eval: resamples and max m must not be negative")
	case !(o.Level > 0 && o.Level < 1):
		return fmt.Errorf("eval: level %v, want a value in (0,1)", o.Level)
	case o.Counter == nil:
		return fmt.Errorf("eval: no token counter")
	}
	return nil
}

// Result is an evaluation: every arm on the same queries.
type Result struct {
	Schema    string  `json:"schema"`
	Set       string  `json:"set"`
	Source    string  `json:"source"`
	Queries   int     `json:"queries"`
	Needs     int     `json:"needs"`
	Tools     int     `json:"tools"`
	Domains   int     `json:"domains"`
	K         int     `json:"k"`
	CurveK    int     `json:"curve_k"`
	Retries   int     `json:"retries"`
	Tokenizer string  `json:"tokenizer"`
	Resamples int     `json:"resamples"`
	ResampleM int     `json:"resample_m"`
	Seed      uint64  `json:"seed"`
	Level     float64 `json:"level"`
	// SRDs is how many routing descriptions labelled domains.
	SRDs int `json:"srds"`
	// Servers is how many servers the corpus's tools name (tools without
	// a server are not counted); ServersWithoutSRD, when there are SRDs,
	// those of them no SRD describes (each is a domain of its own), in
	// name order.
	Servers           int      `json:"servers"`
	ServersWithoutSRD []string `json:"servers_without_srd,omitempty"`
	SRDSource         string   `json:"srd_source,omitempty"` // which SRDs (EvalOptions.SRDSource)
	// Baselines are the arms every arm was compared with.
	Baselines []string     `json:"baselines,omitempty"`
	Arms      []ArmResult  `json:"arms"`
	Diffs     []DiffResult `json:"diffs"`
}

// ArmResult is one arm's figures.
type ArmResult struct {
	Name    string   `json:"name"`
	Ranker  string   `json:"ranker"`
	Mode    string   `json:"mode"`
	Metrics []Figure `json:"metrics"`
	// Curve[j] is mean tool recall@(j+1); DomainCurve likewise.
	Curve       []float64 `json:"recall_curve"`
	DomainCurve []float64 `json:"domain_recall_curve"`
}

// Figure is a mean with its bootstrap interval.
type Figure struct {
	Metric string  `json:"metric"`
	Mean   float64 `json:"mean"`
	Lo     float64 `json:"lo"`
	Hi     float64 `json:"hi"`
}

// DiffResult is a paired difference: Arm minus Baseline on the same queries.
type DiffResult struct {
	Arm      string `json:"arm"`
	Baseline string `json:"baseline"`
	Figure
}

// Metric returns the arm's figure for metric.
func (a ArmResult) Metric(m string) Figure {
	for _, f := range a.Metrics {
		if f.Metric == m {
			return f
		}
	}
	return Figure{Metric: m}
}

// Evaluate runs every arm on every query of set and summarises.
func Evaluate(set *Set, arms []Arm, opt EvalOptions) (*Result, error) {
	if err := opt.validate(); err != nil {
		return nil, err
	}
	if err := set.Validate(); err != nil {
		return nil, err
	}
	if len(arms) == 0 {
		return nil, fmt.Errorf("eval: no arms")
	}
	n := len(set.Tools)
	sc := &scorer{opt: opt, tokens: make([]float64, n), domain: make([]string, n), server: make([]string, n),
		names: make([]string, n), refs: make([]string, n), detail: opt.PerQuery != nil}
	domains := map[string]bool{}
	for i, t := range set.Tools {
		sc.tokens[i] = float64(opt.Counter.Count(t.Wire))
		sc.domain[i] = opt.Domains.DomainOf(t.Server, t.Name)
		sc.server[i] = serverOf(opt.Domains, t)
		sc.names[i] = t.Name
		sc.refs[i] = t.Name
		if t.Server != "" {
			sc.refs[i] = t.Server + "/" + t.Name
		}
		domains[sc.domain[i]] = true
	}
	if opt.Prefetch != nil {
		if err := opt.Prefetch(searchTexts(set, sc)); err != nil {
			return nil, fmt.Errorf("eval: %w", err)
		}
	}
	outs, err := runArms(set, arms, sc, opt.Workers, opt.Progress)
	if err != nil {
		return nil, err
	}
	if opt.PerQuery != nil {
		if err := writePerQuery(opt.PerQuery, set, arms, outs); err != nil {
			return nil, err
		}
	}
	res := &Result{
		Schema: ResultSchema, Set: set.Name, Source: set.Source, Queries: len(set.Queries), Tools: len(set.Tools),
		Domains: len(domains), K: opt.K, CurveK: opt.CurveK, Retries: opt.Retries, Tokenizer: opt.Counter.Name(),
		Resamples: opt.Resamples, Seed: opt.Seed, Level: opt.Level, SRDs: len(opt.Domains.SRDs()), SRDSource: opt.SRDSource,
	}
	res.Servers, res.ServersWithoutSRD = corpusServers(set, opt.Domains)
	for _, q := range set.Queries {
		res.Needs += len(q.Needs)
	}
	for _, b := range opt.Baselines {
		if slices.ContainsFunc(arms, func(a Arm) bool { return a.Name == b }) {
			res.Baselines = append(res.Baselines, b)
		}
	}
	summarize(res, arms, outs, opt)
	return res, nil
}

// searchTexts lists, once each, every text the retry replay may search:
// the tasks' texts and the name-word retry of every need.
func searchTexts(set *Set, sc *scorer) []string {
	var out []string
	seen := map[string]bool{}
	add := func(t string) {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	for _, q := range set.Queries {
		add(q.Text)
	}
	if sc.opt.Retries > 0 {
		for _, q := range set.Queries {
			for _, need := range q.Needs {
				add(strings.ReplaceAll(sc.names[need[0]], "_", " "))
			}
		}
	}
	return out
}

// perQueryLine is one line of the per-query output.
type perQueryLine struct {
	Task  string `json:"task"`
	Query string `json:"query"`
	Arm   string `json:"arm"`
	*Detail
	TaskRecall  float64 `json:"task_recall"`
	SearchCount float64 `json:"search_count"`
	Tokens      float64 `json:"schema_tokens"`
}

func writePerQuery(w io.Writer, set *Set, arms []Arm, outs [][]Outcome) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for qi, q := range set.Queries {
		for a, arm := range arms {
			o := outs[a][qi]
			line := perQueryLine{Task: q.ID, Query: q.Text, Arm: arm.Name, Detail: o.Detail,
				TaskRecall: o.Values[iTaskRecall], SearchCount: o.Values[iSearches], Tokens: o.Values[iTokens]}
			if err := enc.Encode(line); err != nil {
				return fmt.Errorf("per-query output: %w", err)
			}
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("per-query output: %w", err)
	}
	return nil
}

// group is the queries that share one candidate list.
type group struct {
	glob    []int
	rankers []sim.Ranker // per arm
}

// runArms evaluates every arm on every query; outs[a][q].
func runArms(set *Set, arms []Arm, sc *scorer, workers int, progress func(int)) ([][]Outcome, error) {
	all := make([]int, len(set.Tools))
	for i := range all {
		all[i] = i
	}
	groups := map[string]*group{}
	qgroup := make([]*group, len(set.Queries))
	for qi, q := range set.Queries {
		key := candidateKey(q.Candidates)
		g := groups[key]
		if g == nil {
			g = &group{glob: all}
			if q.Candidates != nil {
				g.glob = q.Candidates
			}
			docs := make([]sim.ToolDoc, len(g.glob))
			for i, t := range g.glob {
				docs[i] = set.Tools[t].ToolDoc
			}
			for _, a := range arms {
				rk, err := a.Factory(docs)
				if err != nil {
					return nil, fmt.Errorf("eval: arm %s: %w", a.Name, err)
				}
				g.rankers = append(g.rankers, rk)
			}
			groups[key] = g
		}
		qgroup[qi] = g
	}
	outs := make([][]Outcome, len(arms))
	for a := range arms {
		outs[a] = make([]Outcome, len(set.Queries))
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var wg sync.WaitGroup
	var done atomic.Int64
	// Counts reach progress in order: a worker that counted 3 can call
	// after one that counted 5, and the closing line read "scored 3".
	var mu sync.Mutex
	reported := 0
	report := func(n int) {
		mu.Lock()
		defer mu.Unlock()
		if n > reported {
			reported = n
			progress(n)
		}
	}
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for qi := w; qi < len(set.Queries); qi += workers {
				g := qgroup[qi]
				for a := range arms {
					outs[a][qi] = sc.score(g.rankers[a], g.glob, set.Queries[qi])
				}
				if n := done.Add(1); progress != nil {
					report(int(n))
				}
			}
		}()
	}
	wg.Wait()
	return outs, nil
}

func candidateKey(c []int) string {
	if c == nil {
		return ""
	}
	var sb strings.Builder
	sb.WriteByte('c')
	for _, i := range c {
		sb.WriteString(strconv.Itoa(i))
		sb.WriteByte(',')
	}
	return sb.String()
}

// series is one metric's per-task numerators and denominators (nil: 1
// per task) with its bootstrap replicates: the estimate is Σnum/Σden, a
// ratio for per-need metrics pooled over tasks.
type series struct {
	num, den []float64
	est      float64
	reps     []float64
}

func ratio(num, den []float64, idx []int32) float64 {
	var a, b float64
	if idx == nil {
		for i, v := range num {
			a += v
			if den != nil {
				b += den[i]
			} else {
				b++
			}
		}
	} else {
		for _, i := range idx {
			a += num[i]
			if den != nil {
				b += den[i]
			} else {
				b++
			}
		}
	}
	if b == 0 {
		return 0
	}
	return a / b
}

// summarize fills the arms' means, curves and intervals, and the paired
// differences of each routed arm against the flat arm of its ranker and
// of every arm against the baselines. Tasks are resampled (the same draw
// for every arm).
func summarize(res *Result, arms []Arm, outs [][]Outcome, opt EvalOptions) {
	n := res.Queries
	metrics := Metrics()
	needs := make([]float64, n)
	for q := range n {
		needs[q] = float64(outs[0][q].Needs)
	}
	var all []*series
	armSeries := make([][]*series, len(arms))
	for a := range arms {
		for m, name := range metrics {
			v := make([]float64, n)
			for q := range n {
				v[q] = outs[a][q].Values[m]
			}
			s := &series{num: v, reps: make([]float64, opt.Resamples)}
			if PerNeed(name) {
				s.den = needs
			}
			s.est = ratio(s.num, s.den, nil)
			armSeries[a] = append(armSeries[a], s)
			all = append(all, s)
		}
	}
	type diff struct{ arm, base int }
	var diffs []diff
	seen := map[diff]bool{}
	add := func(a, b int) {
		if a != b && b >= 0 && !seen[diff{a, b}] {
			seen[diff{a, b}] = true
			diffs = append(diffs, diff{a, b})
		}
	}
	for a, arm := range arms {
		if arm.Mode != ModeFlat {
			add(a, slices.IndexFunc(arms, func(o Arm) bool { return o.Ranker == arm.Ranker && o.Mode == ModeFlat }))
		}
	}
	for _, bn := range opt.Baselines {
		b := slices.IndexFunc(arms, func(o Arm) bool { return o.Name == bn })
		for a := range arms {
			add(a, b)
		}
	}
	rs := stats.NewResampling(n, opt.Resamples, opt.MaxM, opt.Seed)
	rs.Workers = opt.Workers
	res.ResampleM = rs.M
	rs.Run(func(b int, idx []int32, _ []float64) {
		for _, s := range all {
			s.reps[b] = ratio(s.num, s.den, idx)
		}
	})
	interval := func(est float64, reps []float64, metric string) Figure {
		f := Figure{Metric: metric, Mean: est, Lo: est, Hi: est}
		if lo, hi, ok := stats.Interval(reps, est, rs.Scale(), opt.Level); ok {
			f.Lo, f.Hi = lo, hi
		}
		return f
	}
	// The paired differences first: stats.Interval sorts the replicates
	// it is given, which would unpair the arms' replicates.
	for _, d := range diffs {
		for m, name := range metrics {
			sa, sb := armSeries[d.arm][m], armSeries[d.base][m]
			reps := make([]float64, opt.Resamples)
			for b := range reps {
				reps[b] = sa.reps[b] - sb.reps[b]
			}
			res.Diffs = append(res.Diffs, DiffResult{Arm: arms[d.arm].Name, Baseline: arms[d.base].Name, Figure: interval(sa.est-sb.est, reps, name)})
		}
	}
	for a, arm := range arms {
		ar := ArmResult{Name: arm.Name, Ranker: arm.Ranker, Mode: arm.Mode,
			Curve: make([]float64, opt.CurveK), DomainCurve: make([]float64, opt.CurveK)}
		for m, name := range metrics {
			s := armSeries[a][m]
			ar.Metrics = append(ar.Metrics, interval(s.est, s.reps, name))
		}
		var total float64
		for q := range n {
			total += needs[q]
			for j := range opt.CurveK {
				ar.Curve[j] += outs[a][q].Curve[j]
				ar.DomainCurve[j] += outs[a][q].DomainCurve[j]
			}
		}
		for j := range opt.CurveK {
			if total > 0 {
				ar.Curve[j] /= total
				ar.DomainCurve[j] /= total
			}
		}
		res.Arms = append(res.Arms, ar)
	}
}

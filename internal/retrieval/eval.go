package retrieval

import (
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/defersim/defersim/internal/stats"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/srd"
	"github.com/defersim/defersim/tokens"
)

// ResultSchema names the version of the Result JSON.
const ResultSchema = "defersim.srd-eval/v1"

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
	Domains *srd.Set
	// Workers bounds parallelism (0: GOMAXPROCS).
	Workers int
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
	SRDs  int          `json:"srds"`
	Arms  []ArmResult  `json:"arms"`
	Diffs []DiffResult `json:"diffs"`
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
	sc := &scorer{opt: opt, tokens: make([]float64, len(set.Tools)), domain: make([]string, len(set.Tools)), names: make([]string, len(set.Tools))}
	domains := map[string]bool{}
	for i, t := range set.Tools {
		sc.tokens[i] = float64(opt.Counter.Count(t.Wire))
		sc.domain[i] = opt.Domains.DomainOf(t.Server, t.Name)
		sc.names[i] = t.Name
		domains[sc.domain[i]] = true
	}
	outs, err := runArms(set, arms, sc, opt.Workers)
	if err != nil {
		return nil, err
	}
	res := &Result{
		Schema: ResultSchema, Set: set.Name, Source: set.Source, Queries: len(set.Queries), Tools: len(set.Tools),
		Domains: len(domains), K: opt.K, CurveK: opt.CurveK, Retries: opt.Retries, Tokenizer: opt.Counter.Name(),
		Resamples: opt.Resamples, Seed: opt.Seed, Level: opt.Level, SRDs: len(opt.Domains.SRDs()),
	}
	summarize(res, arms, outs, opt)
	return res, nil
}

// group is the queries that share one candidate list.
type group struct {
	glob    []int
	rankers []sim.Ranker // per arm
}

// runArms evaluates every arm on every query; outs[a][q].
func runArms(set *Set, arms []Arm, sc *scorer, workers int) ([][]Outcome, error) {
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
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for qi := w; qi < len(set.Queries); qi += workers {
				g := qgroup[qi]
				for a := range arms {
					outs[a][qi] = sc.score(g.rankers[a], g.glob, set.Queries[qi])
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

// summarize fills the arms' means, curves and intervals, and the paired
// differences of each routed arm against the flat arm of its ranker.
func summarize(res *Result, arms []Arm, outs [][]Outcome, opt EvalOptions) {
	n := res.Queries
	type series struct {
		vals []float64
		est  float64
		reps []float64
	}
	var all []*series
	newSeries := func(vals []float64) *series {
		s := &series{vals: vals, est: mean(vals), reps: make([]float64, opt.Resamples)}
		all = append(all, s)
		return s
	}
	metricVals := func(a, m int) []float64 {
		v := make([]float64, n)
		for q := range n {
			v[q] = outs[a][q].Values[m]
		}
		return v
	}
	armSeries := make([][]*series, len(arms))
	metrics := Metrics()
	for a := range arms {
		for m := range metrics {
			armSeries[a] = append(armSeries[a], newSeries(metricVals(a, m)))
		}
	}
	type diff struct {
		arm, base, metric int
		s                 *series
	}
	var diffs []diff
	for a, arm := range arms {
		if arm.Mode == ModeFlat {
			continue
		}
		b := slices.IndexFunc(arms, func(o Arm) bool { return o.Ranker == arm.Ranker && o.Mode == ModeFlat })
		if b < 0 {
			continue
		}
		for m := range metrics {
			va, vb := armSeries[a][m].vals, armSeries[b][m].vals
			d := make([]float64, n)
			for q := range n {
				d[q] = va[q] - vb[q]
			}
			diffs = append(diffs, diff{a, b, m, newSeries(d)})
		}
	}
	rs := stats.NewResampling(n, opt.Resamples, opt.MaxM, opt.Seed)
	rs.Workers = opt.Workers
	res.ResampleM = rs.M
	rs.Run(func(b int, idx []int32, _ []float64) {
		for _, s := range all {
			var sum float64
			for _, i := range idx {
				sum += s.vals[i]
			}
			s.reps[b] = sum / float64(len(idx))
		}
	})
	interval := func(s *series, metric string) Figure {
		f := Figure{Metric: metric, Mean: s.est, Lo: s.est, Hi: s.est}
		if lo, hi, ok := stats.Interval(s.reps, s.est, rs.Scale(), opt.Level); ok {
			f.Lo, f.Hi = lo, hi
		}
		return f
	}
	for a, arm := range arms {
		ar := ArmResult{Name: arm.Name, Ranker: arm.Ranker, Mode: arm.Mode,
			Curve: make([]float64, opt.CurveK), DomainCurve: make([]float64, opt.CurveK)}
		for m, name := range metrics {
			ar.Metrics = append(ar.Metrics, interval(armSeries[a][m], name))
		}
		for q := range n {
			for j := range opt.CurveK {
				ar.Curve[j] += outs[a][q].Curve[j] / float64(n)
				ar.DomainCurve[j] += outs[a][q].DomainCurve[j] / float64(n)
			}
		}
		res.Arms = append(res.Arms, ar)
	}
	for _, d := range diffs {
		res.Diffs = append(res.Diffs, DiffResult{Arm: arms[d.arm].Name, Baseline: arms[d.base].Name, Figure: interval(d.s, metrics[d.metric])})
	}
}

func mean(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	var s float64
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

package report

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/defersim/defersim/internal/stats"
	"github.com/defersim/defersim/internal/version"
	"github.com/defersim/defersim/sim"
)

// Defaults of BuildOptions.
const (
	// DefaultBootstrap is the number of bootstrap resamples.
	DefaultBootstrap = 1000
	// DefaultMaxBootstrapSessions caps the sessions drawn per resample; above
	// it the bootstrap is m-out-of-n (docs/report.md).
	DefaultMaxBootstrapSessions = 5000
	// ConfidenceLevel of every interval.
	ConfidenceLevel = 0.95
	// SmallSampleBelow flags results with fewer sessions.
	SmallSampleBelow = 30
	// QuantileGridPoints is the size of each distribution's quantile grid.
	QuantileGridPoints = 101
	// EqualTolerance is the relative difference under which two per-session
	// values count as equal.
	EqualTolerance = 1e-9
)

// BuildOptions tunes Build.
type BuildOptions struct {
	// Bootstrap is the number of resamples: 0 means DefaultBootstrap, a
	// negative value disables intervals.
	Bootstrap int
	// MaxBootstrapSessions caps the sessions drawn per resample: 0 means
	// DefaultMaxBootstrapSessions, a negative value means no cap.
	MaxBootstrapSessions int
	// BootstrapMetrics names the metrics that get intervals: nil means
	// DefaultBootstrapMetrics(), {"all"} means every metric.
	BootstrapMetrics []string
	// Prices, when known, let the report split dollars by token kind.
	Prices *Prices
	// Workers bounds parallelism (0 = GOMAXPROCS). Results do not depend on it.
	Workers int
	// Context, when set, stops the bootstrap when it is cancelled (a
	// signal): Build then returns the context's error.
	Context context.Context
	// BootstrapMemory limits the bytes the bootstrap may allocate
	// (BootstrapMemory): 0 means DefaultBootstrapMemory, a negative value
	// no limit. Build refuses a bootstrap beyond it before allocating.
	BootstrapMemory int64
}

// Build computes the results of a run from its outcomes: per strategy and
// metric the distribution with bootstrap intervals, the paired comparison
// with info.Baseline (the first strategy when empty), and the cache hit
// ratio by request index. The bootstrap is seeded with info.Seed, so the
// same outcomes give the same results.
func Build(o *sim.Outcomes, info sim.RunInfo, opts BuildOptions) (*Results, error) {
	base, err := checkOutcomes(o, info.Baseline)
	if err != nil {
		return nil, err
	}
	info.Baseline = o.Strategies[base].Name
	boot, err := bootstrapMetrics(opts.BootstrapMetrics)
	if err != nil {
		return nil, err
	}
	n := len(o.SessionIDs)
	resamples := opts.Bootstrap
	if resamples == 0 {
		resamples = DefaultBootstrap
	}
	if resamples < 0 || n < 2 {
		resamples = 0
		boot = nil
	}
	maxM := opts.MaxBootstrapSessions
	if maxM == 0 {
		maxM = DefaultMaxBootstrapSessions
	}
	if err := CheckBootstrapMemory(BootstrapShape{Resamples: resamples, Strategies: len(o.Strategies), Metrics: len(boot),
		Sessions: n, MaxSessions: maxM, Workers: opts.Workers}, opts.BootstrapMemory); err != nil {
		return nil, fmt.Errorf("build results: %w", err)
	}
	rs := stats.NewResampling(n, resamples, max(maxM, 0), uint64(info.Seed))
	rs.Workers = opts.Workers
	rs.Context = opts.Context

	b := &builder{o: o, base: base, n: n, boot: boot, rs: rs, workers: workers(opts.Workers), scale: rs.Scale()}
	if o.Sampled() {
		if err := b.fromSummary(); err != nil {
			return nil, err
		}
	} else {
		b.exact()
	}
	b.bootstrap()
	if opts.Context != nil && opts.Context.Err() != nil {
		return nil, opts.Context.Err()
	}

	ver := version.Get()
	res := &Results{
		SchemaVersion:        SchemaVersion,
		Generator:            "defersim",
		GeneratorVersion:     ver.Product,
		GoVersion:            ver.Go,
		Run:                  info,
		Statistics:           statisticsInfo(rs, boot, info.Seed),
		Sessions:             b.n,
		SessionsWithoutModel: WithoutModel(info.RecordedModels),
		SmallSample:          b.n < SmallSampleBelow,
		Prices:               opts.Prices,
		Metrics:              slices.Clone(sim.Metrics[:]),
	}
	if o.Sampled() {
		res.Statistics.Streaming = streamingInfo(o)
		if rs.Resamples > 0 {
			res.Statistics.BootstrapMethod = fmt.Sprintf("paired m-out-of-n percentile bootstrap over a seeded uniform sample of "+
				"%d of the n=%d sessions (m=%d; interval distances from the sample's estimate scaled by sqrt(m/n), then "+
				"moved to the estimate over every session)", len(o.SessionIDs), b.n, rs.M)
		}
	}
	for s := range o.Strategies {
		sr := b.strategyResult(s)
		if s < len(o.Digests) {
			sr.OutcomeDigest = fmt.Sprintf("%016x", o.Digests[s])
		}
		if s < len(o.Overflow) && o.Overflow[s].Requests > 0 {
			c := o.Overflow[s]
			sr.ContextOverflow = &c
		}
		res.Strategies = append(res.Strategies, sr)
	}
	res.Coincident = coincidences(res)
	return res, nil
}

func workers(w int) int {
	if w <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return w
}

// checkOutcomes validates o and returns the index of the baseline.
func checkOutcomes(o *sim.Outcomes, baseline string) (int, error) {
	if o == nil || len(o.Strategies) == 0 {
		return 0, errors.New("build results: no strategies")
	}
	if len(o.Values) != len(o.Strategies) {
		return 0, fmt.Errorf("build results: %d strategies but values for %d", len(o.Strategies), len(o.Values))
	}
	n := len(o.SessionIDs)
	seen := map[string]bool{}
	base := -1
	for s, st := range o.Strategies {
		if st.Name == "" {
			return 0, fmt.Errorf("build results: strategy %d has no name", s)
		}
		if seen[st.Name] {
			return 0, fmt.Errorf("build results: strategy %q appears twice", st.Name)
		}
		seen[st.Name] = true
		if st.Name == baseline {
			base = s
		}
		for m := range sim.NumMetrics {
			vals := o.Values[s][m]
			if len(vals) != n {
				return 0, fmt.Errorf("build results: strategy %q metric %s has %d values for %d sessions",
					st.Name, sim.Metrics[m].Name, len(vals), n)
			}
			for i, v := range vals {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return 0, fmt.Errorf("build results: strategy %q metric %s session %q: value %v is not finite",
						st.Name, sim.Metrics[m].Name, o.SessionIDs[i], v)
				}
			}
		}
	}
	switch {
	case baseline == "":
		base = 0
	case base < 0:
		return 0, fmt.Errorf("build results: baseline strategy %q is not among the run's strategies", baseline)
	}
	return base, nil
}

// DefaultBootstrapMetrics returns the metrics that get confidence intervals
// by default: those of the summary table and plots, and a few close to them.
func DefaultBootstrapMetrics() []string {
	return []string{
		sim.Metrics[sim.MInputTokens].Name,
		sim.Metrics[sim.MUncachedTokens].Name,
		sim.Metrics[sim.MSchemaTokens].Name,
		sim.Metrics[sim.MCostUSD].Name,
		sim.Metrics[sim.MFirstReplyMs].Name,
		sim.Metrics[sim.MSessionMs].Name,
		sim.Metrics[sim.MExtraRoundTrips].Name,
		sim.Metrics[sim.MMalformedCalls].Name,
		sim.Metrics[sim.MIgnoredArguments].Name,
		sim.Metrics[sim.MCacheHitRatio].Name,
		sim.Metrics[sim.MSearches].Name,
		sim.Metrics[sim.MSearchMisses].Name,
		sim.Metrics[sim.MStaleWarmCalls].Name,
	}
}

// bootstrapMetrics resolves metric names to indices in metric order.
func bootstrapMetrics(names []string) ([]int, error) {
	if names == nil {
		names = DefaultBootstrapMetrics()
	}
	if len(names) == 1 && names[0] == "all" {
		all := make([]int, sim.NumMetrics)
		for i := range all {
			all[i] = i
		}
		return all, nil
	}
	var idx []int
	seen := map[int]bool{}
	for _, name := range names {
		m := sim.MetricIndex(name)
		if m < 0 {
			return nil, fmt.Errorf("build results: unknown bootstrap metric %q", name)
		}
		if !seen[m] {
			seen[m] = true
			idx = append(idx, m)
		}
	}
	slices.Sort(idx)
	return idx, nil
}

func statisticsInfo(rs stats.Resampling, boot []int, seed int64) StatisticsInfo {
	si := StatisticsInfo{
		ConfidenceLevel:    ConfidenceLevel,
		BootstrapResamples: rs.Resamples,
		BootstrapSeed:      seed,
		BootstrapMetrics:   []string{},
		Percentile:         "linear interpolation between closest ranks (Hyndman-Fan type 7, as montanaflynn/stats.Percentile)",
		StdDev:             "sample standard deviation (n-1 divisor)",
		QuantileGrid:       QuantileGridPoints,
		SmallSampleBelow:   SmallSampleBelow,
		EqualTolerance:     EqualTolerance,
	}
	if rs.Resamples == 0 {
		si.BootstrapMethod = "none"
		return si
	}
	si.BootstrapSessions = rs.M
	si.BootstrapMethod = "paired percentile bootstrap over sessions"
	if rs.M < rs.N {
		si.BootstrapMethod = fmt.Sprintf("paired m-out-of-n percentile bootstrap over sessions (m=%d of n=%d; "+
			"interval distances from the estimate scaled by sqrt(m/n))", rs.M, rs.N)
	}
	for _, m := range boot {
		si.BootstrapMetrics = append(si.BootstrapMetrics, sim.Metrics[m].Name)
	}
	return si
}

// parallel runs fn(i) for i in [0, n) on w goroutines.
func parallel(n, w int, fn func(i int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(w, max(n, 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

package check

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/defersim/defersim/scenarios"
)

// Statistics a rule can check (scenarios.ParseCheckKey reads them).
const (
	StatMean = scenarios.CheckStatMean
	StatP50  = scenarios.CheckStatP50
	StatP95  = scenarios.CheckStatP95
)

// Rule is one checked quantity: a statistic of a metric, with the change
// against the baseline that is accepted. A worsening larger than
// max(Abs, Rel × |baseline|) is a regression, unless the confidence
// intervals say it is within noise.
type Rule struct {
	Metric string  `json:"metric"`
	Stat   string  `json:"stat"`
	Rel    float64 `json:"rel"`
	Abs    float64 `json:"abs"`
}

// Key names the rule as flags and scenario files do: "metric" for the
// mean, "metric.p95" for another statistic.
func (r Rule) Key() string {
	if r.Stat == StatMean {
		return r.Metric
	}
	return r.Metric + "." + r.Stat
}

// Allowed returns the accepted worsening for a baseline value.
func (r Rule) Allowed(base float64) float64 {
	rel := r.Rel * abs(base)
	return max(rel, r.Abs)
}

// defaultRules returns the checks made when nothing else is said, with
// their documented tolerances (docs/check.md).
func defaultRules() []Rule {
	return []Rule{
		{Metric: "cost_usd", Stat: StatMean, Rel: 0.02},
		{Metric: "input_tokens", Stat: StatMean, Rel: 0.02},
		{Metric: "schema_tokens", Stat: StatMean, Rel: 0.05, Abs: 10},
		{Metric: "first_reply_ms", Stat: StatMean, Rel: 0.05, Abs: 50},
		{Metric: "first_reply_ms", Stat: StatP95, Rel: 0.10, Abs: 100},
		{Metric: "session_ms", Stat: StatMean, Rel: 0.05, Abs: 100},
		{Metric: "extra_round_trips", Stat: StatMean, Rel: 0.05, Abs: 0.01},
		{Metric: "malformed_calls", Stat: StatMean, Rel: 0.05, Abs: 0.002},
		{Metric: "ignored_arguments", Stat: StatMean, Rel: 0.05, Abs: 0.002},
		{Metric: "unrecovered_misses", Stat: StatMean, Abs: 0.002},
		{Metric: "calls_without_schema", Stat: StatMean, Rel: 0.05, Abs: 0.002},
		{Metric: "cache_hit_ratio", Stat: StatMean, Rel: 0.02, Abs: 0.005},
	}
}

// parseKey splits "metric" or "metric.stat" and checks both parts; a key
// without a statistic names the mean.
func parseKey(key string) (metric, stat string, err error) {
	metric, stat, err = scenarios.ParseCheckKey(key)
	if err != nil {
		return "", "", fmt.Errorf("%q: %w", key, err)
	}
	if stat == "" {
		stat = StatMean
	}
	return metric, stat, nil
}

// Tolerances builds the rule list: defaults, then the scenario's check
// block, then command-line settings, each overriding the one before.
type Tolerances struct {
	rules []Rule
}

// NewTolerances starts from the given rules (DefaultRules when nil).
func NewTolerances(rules []Rule) *Tolerances {
	if rules == nil {
		rules = defaultRules()
	}
	return &Tolerances{rules: append([]Rule(nil), rules...)}
}

// Select keeps only the rules named by keys, adding rules (with the
// defaults' tolerance for their metric, else zero) for keys not present.
func (t *Tolerances) Select(keys []string) error {
	var out []Rule
	for _, k := range keys {
		m, s, err := parseKey(k)
		if err != nil {
			return err
		}
		r, ok := t.find(m, s)
		if !ok {
			r = Rule{Metric: m, Stat: s}
			for _, d := range defaultRules() {
				if d.Metric == m {
					r.Rel, r.Abs = d.Rel, d.Abs
					break
				}
			}
		}
		out = append(out, r)
	}
	t.rules = out
	return nil
}

func (t *Tolerances) find(metric, stat string) (Rule, bool) {
	for _, r := range t.rules {
		if r.Metric == metric && r.Stat == stat {
			return r, true
		}
	}
	return Rule{}, false
}

// SetAllRel sets the relative tolerance of every rule.
func (t *Tolerances) SetAllRel(rel float64) {
	for i := range t.rules {
		t.rules[i].Rel = rel
	}
}

// Set changes the tolerance of the rules matching key: "metric" matches
// every statistic of the metric, "metric.stat" one rule. A key that
// matches no rule adds one. rel or abs < 0 leaves that part unchanged.
func (t *Tolerances) Set(key string, rel, abs float64) error {
	metric, stat, err := scenarios.ParseCheckKey(key)
	if err != nil {
		return fmt.Errorf("%q: %w", key, err)
	}
	hit := false
	for i := range t.rules {
		r := &t.rules[i]
		if r.Metric != metric || (stat != "" && r.Stat != stat) {
			continue
		}
		hit = true
		if rel >= 0 {
			r.Rel = rel
		}
		if abs >= 0 {
			r.Abs = abs
		}
	}
	if !hit {
		if stat == "" {
			stat = StatMean
		}
		t.rules = append(t.rules, Rule{Metric: metric, Stat: stat, Rel: max(rel, 0), Abs: max(abs, 0)})
	}
	return nil
}

// ApplyScenario applies a scenario's check block: tolerance (relative, every
// rule; 0 keeps the defaults), metrics (relative, per key) and absolute
// (per key).
func (t *Tolerances) ApplyScenario(c *scenarios.Check) error {
	if c == nil {
		return nil
	}
	if c.Tolerance > 0 {
		t.SetAllRel(c.Tolerance)
	}
	for _, k := range sortedKeys(c.Metrics) {
		if err := t.Set(k, c.Metrics[k], -1); err != nil {
			return fmt.Errorf("scenario check.metrics: %w", err)
		}
	}
	for _, k := range sortedKeys(c.Absolute) {
		if err := t.Set(k, -1, c.Absolute[k]); err != nil {
			return fmt.Errorf("scenario check.absolute: %w", err)
		}
	}
	return nil
}

// ParseSetting parses a command-line "KEY=VALUE" setting.
func ParseSetting(s string) (string, float64, error) {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return "", 0, fmt.Errorf("%q: want METRIC[.STAT]=VALUE", s)
	}
	x, err := ParseTolerance(v)
	if err != nil {
		return "", 0, fmt.Errorf("%q: %w", s, err)
	}
	return k, x, nil
}

// ParseTolerance parses a tolerance value: a finite number, 0 or more,
// or a percentage ("5%" is 0.05).
func ParseTolerance(v string) (float64, error) {
	x, err := strconv.ParseFloat(strings.TrimSuffix(v, "%"), 64)
	if err != nil || !(x >= 0) || math.IsInf(x, 1) {
		// NaN and +Inf parse as numbers; a tolerance of either is a
		// check that can never fail.
		return 0, fmt.Errorf("%q is not a finite non-negative number", v)
	}
	if strings.HasSuffix(v, "%") {
		x /= 100
	}
	return x, nil
}

// Rules returns the rules in force.
func (t *Tolerances) Rules() []Rule { return append([]Rule(nil), t.rules...) }

func sortedKeys(m map[string]float64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

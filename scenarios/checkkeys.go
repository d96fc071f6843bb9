package scenarios

import (
	"errors"
	"fmt"
	"strings"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/sim"
)

// The statistics a check key may name after its metric (METRIC.STAT):
// the mean, the median and the 95th percentile (docs/check.md).
const (
	CheckStatMean = "mean"
	CheckStatP50  = "p50"
	CheckStatP95  = "p95"
)

// ParseCheckKey splits a regression-gate key, "METRIC" or "METRIC.STAT",
// and checks both parts: the metric against sim.Metrics, the statistic
// against the three above. stat is "" when the key names none. The
// scenario's check block is checked with it when the file loads, so a
// key naming no metric stops `run` at its line rather than `check` after
// both replays; `check` parses its flags with it too.
func ParseCheckKey(key string) (metric, stat string, err error) {
	metric = key
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		metric, stat = key[:i], key[i+1:]
		switch stat {
		case CheckStatMean, CheckStatP50, CheckStatP95:
		default:
			return "", "", fmt.Errorf("statistic %q is not %s, %s or %s", stat, CheckStatMean, CheckStatP50, CheckStatP95)
		}
	}
	if sim.MetricIndex(metric) < 0 {
		names := make([]string, 0, len(sim.Metrics))
		for _, m := range sim.Metrics {
			names = append(names, m.Name)
		}
		return "", "", errors.New(catalog.NearName(metric, names).WithHint(fmt.Sprintf("unknown metric %q (want %s)", metric, strings.Join(names, "|"))))
	}
	return metric, stat, nil
}

package runner

import "github.com/defersim/defersim/report"

// checkBootstrapMemory refuses a run whose bootstrap (bootstrap resamples as
// Config.Bootstrap, over strategies and the default bootstrapped metrics)
// would allocate more than limit (Config.BootstrapMemory), before anything
// is replayed. sessions is the number resampled, 0 when not known yet: the
// memory counted is then the most any number of sessions needs, so the
// statistics of a run that passes fit.
func checkBootstrapMemory(bootstrap, strategies, sessions int, limit int64) error {
	return report.CheckBootstrapMemory(report.BootstrapShape{Resamples: resamples(bootstrap), Strategies: strategies,
		Metrics: len(report.DefaultBootstrapMetrics()), Sessions: sessions}, limit)
}

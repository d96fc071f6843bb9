// Package stats holds the statistics behind defersim's reports: type-7
// quantiles on sorted data, selection-based quantiles for bootstrap
// resamples, a per-series summary, a deterministic paired bootstrap and
// percentile confidence intervals. It has no knowledge of strategies or
// metrics: callers hand it aligned series of float64.
package stats

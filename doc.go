// Package defersim is the module root of defersim, a replay simulator and
// benchmark harness for deferred tool loading in LLM agent runtimes. The
// command is in cmd/defersim; the engine in sim; traces in traces; scenario
// files in scenarios; statistics, plots and reports in report. This package
// holds only the regression benchmarks (bench_test.go) and the test of the
// packages' layering (layers_test.go; docs/architecture.md).
package defersim

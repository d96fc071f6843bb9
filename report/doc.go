// Package report turns a run's per-session outcomes into results.json
// (schema v1, docs/results-format.md) and renders results into plots,
// report.html, report.md and a terminal summary (docs/report.md). Rendering
// reads only *Results, so a saved results.json can be re-rendered.
package report

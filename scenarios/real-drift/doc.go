// Package realdrift holds the data of scenarios/real-drift.yaml — a trace
// generated over the real multi-version MCP servers of ../shared/data
// (trace.jsonl.gz), the generator parameters that reproduce it
// (params.yaml) and its fleet upgrade schedule (upgrades.yaml) — and the
// tests that regenerate it and replay the scenario. See docs/real-drift.md.
package realdrift
